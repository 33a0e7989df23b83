"""The club ladder's pages in Chromium at 360 and 1280 px (issue 24): the public ladder, a
person's page with his grade's chart, and the director's settings fit the screen (no
sideways scroll, nothing clipped), the chart is drawn and its points carry their tooltips."""

import datetime

import pytest
from playwright.sync_api import expect

from events.models import Person
from scoring.ladder import services as ladders
from scoring.models import Ladder, LadderRow
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.ladder.test_ladder_db import played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club(django_user_model):
    director = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    clubs = ["Центральный шахматный клуб", "Пуля", ""]
    persons = [
        Person.objects.create(
            owner=director,
            last_name=f"Константинопольский{i:02d}",
            first_name="Пётр",
            patronymic="Александрович",
            club=clubs[i % 3],
        )
        for i in range(12)
    ]
    played(director, datetime.date(2025, 3, 3), persons[:9], seed=1)
    played(director, datetime.date(2026, 10, 5), persons[3:12], seed=2)
    played(director, datetime.date(2026, 10, 12), persons[:9], seed=3)
    ladder = Ladder.objects.create(owner=director, name="Клуб «Пуля»: лестница", slug="pulya")
    ladders.ladder_recompute(ladder.pk)
    return director, ladder, persons


@pytest.mark.parametrize("width", [360, 1280])
def test_the_ladder_pages_fit_the_screen_and_draw_the_chart(
    live_server, browser, club, shot, width
):
    _director, ladder, persons = club
    base = live_server.url
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{base}/ladder/{ladder.slug}/")
        expect(page.get_by_role("heading", name="Клуб «Пуля»: лестница")).to_be_visible()
        expect(page.locator("#ladder tbody tr")).to_have_count(12)
        expect(page.locator("#ladder-parameters")).to_contain_text("pct_grade_v1")
        assert check_page(page) == []
        shot(page, f"ladder-page-{width}")

        page.get_by_label("Клуб").select_option("Пуля")
        page.get_by_role("button", name="Показать").click()
        expect(page.locator("#ladder tbody tr")).to_have_count(4)
        assert check_page(page) == []

        person = persons[3]  # in all three events
        page.goto(f"{base}/ladder/{ladder.slug}/")
        page.get_by_role("link", name=person.full_name).click()
        expect(page.get_by_role("heading", name=person.full_name)).to_be_visible()
        chart = page.locator("#ladder-chart svg")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box["width"] > 0.6 * min(width, 704) and box["x"] + box["width"] <= width
        rated = LadderRow.objects.filter(ladder=ladder, person=person).count()
        expect(chart.locator("circle.point")).to_have_count(rated)
        expect(chart.locator("circle.point").first.locator("title")).to_contain_text("Вечер")
        expect(page.locator("#ladder-history tbody tr")).to_have_count(rated)
        assert check_page(page) == []
        shot(page, f"ladder-person-{width}")

        login(page, base)
        page.goto(f"{base}/director/ladder/")
        expect(page.get_by_role("button", name="Пересчитать сейчас")).to_be_visible()
        assert check_page(page) == []
        page.get_by_role("button", name="Пересчитать сейчас").click()
        expect(page.get_by_text("Лестница пересчитана.")).to_be_visible()
        shot(page, f"ladder-director-{width}")
    finally:
        context.close()
