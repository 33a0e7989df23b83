"""Every page: labelled inputs, named buttons and links, no sideways scroll at 360 px; the
clock's digits readable (contrast)."""

import pytest

from events import rounds
from events.models import Entry, Round
from scoring import services
from scoring.models import TablePlay
from tests.browser.a11y import check_page, contrast
from tests.conftest import seat_players
from tests.scoring.conftest import THREE_DIAMONDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(page, live_server):
    page.goto(f"{live_server.url}/director/login/")
    page.get_by_label("Имя пользователя").fill("judge")
    page.get_by_label("Пароль").fill("s3cret-pass-1")
    page.get_by_role("button", name="Войти").click()


def director_pages(event, session, sheet):
    room = session.rooms.get()
    play = TablePlay.objects.filter(round__room=room, round__number=1).first()
    entry = Entry.objects.get(event=event, number=1)
    base = f"/director/events/{event.pk}"
    return [
        "/director/",
        "/director/events/new/",
        f"{base}/",
        f"{base}/edit/",
        f"{base}/players/add/",
        f"{base}/players/paste/",
        f"{base}/players/import/",
        f"{base}/players/{entry.pk}/edit/",
        f"{base}/draws/",
        f"{base}/rooms/",
        f"{base}/rooms/{room.pk}/",
        f"{base}/cards/names/",
        f"{base}/players/{entry.pk}/qr/",
        f"{base}/movement/",
        f"{base}/sessions/1/",
        f"{base}/sessions/1/tables/",
        f"{base}/sessions/1/participants/",
        "/director/schemes/",
        "/director/schemes/new/",
        f"{base}/scores/",
        f"{base}/scores/plays/{play.pk}/",
        f"{base}/scores/plays/{play.pk}/deals/2/",
        f"{base}/scores/sheets/{sheet.pk}/",
        f"{base}/scores/adjustments/",
    ]


def test_every_page_passes_the_smoke_check_at_360px(live_server, phone, event):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    entry = Entry.objects.get(event=event, number=1)
    play = TablePlay.objects.filter(round__room__session=session, round__number=1).first()
    director = event.owner
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )
    sheet = play.sheets.get()
    event.results_public = True
    event.save()
    public = [
        "/director/login/",
        f"/e/{event.slug}/clock",
        f"/p/{entry.key}/",
        f"/t/{play.table.key}/?as=N",
        f"/t/{play.table.key}/deals/2/?as=N",
        f"/e/{event.slug}/results/",
        f"/e/{event.slug}/results/sessions/1/",
        f"/e/{event.slug}/results/deals/{sheet.deal_id}/",
        f"/e/{event.slug}/results/players/{entry.pk}/",
    ]
    failures = {}
    for url in public:
        response = phone.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        if problems := check_page(phone):
            failures[url] = problems
    _login(phone, live_server)
    for url in director_pages(event, session, sheet):
        response = phone.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        if problems := check_page(phone):
            failures[url] = problems
    assert failures == {}


def test_the_clock_digits_have_strong_contrast(live_server, browser, event):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    entry = Entry.objects.get(event=event, number=1)
    for url in [f"/e/{event.slug}/clock", f"/p/{entry.key}/"]:
        page.goto(f"{live_server.url}{url}")
        assert contrast(page, "[data-digits]") >= 7.0, url  # WCAG AAA
        assert contrast(page, "[data-headline]") >= 7.0, url
    page.close()


def test_the_smoke_check_itself_catches_an_unlabelled_input_and_overflow(phone):
    phone.set_content(
        '<html lang="ru"><meta name="viewport" content="width=device-width, initial-scale=1"><title>x</title><input name="q"><div style="width:900px">x</div>'
    )
    problems = check_page(phone)
    assert any("no label" in p for p in problems)
    assert any("wider than the screen" in p for p in problems)
