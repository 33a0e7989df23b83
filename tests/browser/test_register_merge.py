"""Merging two persons of the register and undoing it, in Chromium (issue 24;
docs/register.md «Merging»): from a person's page, the search and the choice, the
confirmation side by side, the merge's page, the undo — every page fitting 1280 and 360 px
with no sideways scroll and passing the page checks."""

import pytest
from playwright.sync_api import expect

from events.models import Entry, Event, Person, PersonMerge
from tests.browser.a11y import check_page
from tests.browser.helpers import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert check_page(page) == []


@pytest.mark.parametrize("width", [1280, 360])
def test_a_merge_and_its_undo(live_server, browser, django_user_model, shot, width):
    user = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    kept = Person.objects.create(
        owner=user, last_name="Семёнов", first_name="Пётр", club="Центральный шахматный клуб"
    )
    kept.identifiers.create(kind="club_card", value="1700")
    double = Person.objects.create(owner=user, last_name="Семенов", first_name="Петр")
    march = Event.objects.create(owner=user, name="Мартовский турнир клуба", date="2026-03-01")
    april = Event.objects.create(owner=user, name="Апрельский турнир клуба", date="2026-04-05")
    Entry.objects.create(event=march, last_name="Семёнов", first_name="Пётр", person=kept)
    Entry.objects.create(event=april, last_name="Семенов", first_name="Петр", person=double)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    try:
        login(page, base)
        page.goto(f"{base}/director/register/{kept.pk}/")
        page.get_by_role("link", name="Объединить с другим человеком").click()
        expect(page.get_by_role("heading", name="Объединить с другим человеком")).to_be_visible()
        choice = page.get_by_role("radio", name="Семенов Петр")
        expect(choice).to_be_visible()
        expect(page.locator("#merge-choose")).to_contain_text("Апрельский турнир клуба")
        _fits(page, width)
        shot(page, f"register-merge-choose-{width}")

        page.get_by_role("button", name="Далее").click()  # nobody chosen yet
        expect(page.get_by_text("Выберите второго человека")).to_be_visible()
        page.get_by_role("radio", name="Семенов Петр").check()
        page.get_by_role("button", name="Далее").click()

        expect(page.get_by_role("heading", name="Объединение двух человек")).to_be_visible()
        expect(page.get_by_text("Мартовский турнир клуба").first).to_be_visible()
        expect(page.get_by_text("Апрельский турнир клуба").first).to_be_visible()
        keep = page.get_by_role("radio", name="Оставить: Семёнов Пётр, присоединить: Семенов Петр")
        expect(keep).to_be_checked()
        _fits(page, width)
        shot(page, f"register-merge-confirm-{width}")
        page.get_by_role("button", name="Объединить").click()

        expect(page.get_by_text("Семенов Петр присоединён к Семёнов Пётр.")).to_be_visible()
        merge = PersonMerge.objects.get()
        assert (merge.kept, merge.absorbed) == (kept, double)
        assert kept.entries.count() == 2
        _fits(page, width)
        shot(page, f"register-merge-detail-{width}")

        page.goto(f"{base}/director/register/{double.pk}/")
        expect(page.locator("#merged-into")).to_contain_text("Объединён с Семёнов Пётр")
        _fits(page, width)
        page.goto(f"{base}/director/register/")
        page.get_by_role("link", name="Объединения").click()
        expect(page.locator("#merges")).to_contain_text("в силе")
        _fits(page, width)

        page.goto(f"{base}/director/register/{kept.pk}/")
        page.get_by_role("link", name="Отменить объединение").click()
        undo = page.get_by_role("button", name="Отменить объединение")
        expect(undo).to_be_visible()  # the undo's page has loaded before it is measured
        _fits(page, width)
        undo.click()
        expect(page.get_by_text("Объединение отменено")).to_be_visible()
        double.refresh_from_db()
        assert double.merged_into is None
        assert list(double.entries.values_list("event__name", flat=True)) == [april.name]
    finally:
        context.close()
