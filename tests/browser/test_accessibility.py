"""Every page: labelled inputs, named buttons and links, nothing clipped at 360 px (the page
no wider than the screen, no content cut off by a box or past the screen's edge, no sideways
scroll but in a marked .scroll-x box); the clock's digits readable (contrast)."""

import pytest

from events import rounds
from events.models import Entry, Round
from scoring.models import TablePlay
from scoring.sheets import services
from scoring.standings import disclosure
from tests.browser.a11y import check_page, contrast
from tests.browser.helpers import login
from tests.factories import THREE_DIAMONDS, round_link, seat_players, sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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
    disclosure.deals_show(session, by_user=director)  # the traveller and card in full
    public = [
        "/director/login/",
        f"/e/{event.slug}/clock",
        f"/p/{entry.key}/",
        round_link(play, "?as=N"),
        round_link(play, "deals/2/?as=N"),
        f"/e/{event.slug}/results/",
        f"/e/{event.slug}/results/sessions/1/",
        f"/e/{event.slug}/results/deals/{sheet.deal_id}/",
        f"/e/{event.slug}/results/cards/{entry.number}/",
    ]
    failures = {}
    for url in public:
        response = phone.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        if problems := check_page(phone):
            failures[url] = problems
    login(phone, live_server.url)
    for url in director_pages(event, session, sheet):
        response = phone.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        if problems := check_page(phone):
            failures[url] = problems
    assert failures == {}, "\n".join(f"{url}: {p}" for url, ps in failures.items() for p in ps)


def _failures(phone, live_server, urls) -> dict:
    failures = {}
    for url in urls:
        response = phone.goto(f"{live_server.url}{url}")
        assert response.status == 200, url
        if problems := check_page(phone):
            failures[url] = problems
    return failures


def test_the_table_pages_pass_it_after_the_bell_and_reopened(live_server, phone, event):
    """The pages of late entry: a table still writing after «Конец тура!» (results with a
    failed contract), a round the director opened again, the phone's link to it, the
    director's marks."""
    session = seat_players(event, 15)
    first = Round.objects.get(room__session=session, number=1)
    rounds.round_start(first)
    play = TablePlay.objects.select_related("round", "table").get(round=first, table__number=1)
    seat = {s.position: s.entry for s in play.round.placements.filter(table=play.table)}
    rounds.round_end_now(first)
    play.refresh_from_db()
    failed = sheet(declarer="S", defence={"N": "whist", "E": "pass"}, tricks={"S": 5, "N": 5})
    services.sheet_record(play, play.board_set.deals.get(number=1), failed, by_entry=seat["N"])
    services.sheet_record(
        play, play.board_set.deals.get(number=2), THREE_DIAMONDS, by_entry=seat["E"]
    )
    rounds.round_start(Round.objects.get(room__session=session, number=2))
    services.play_access_set(play, "open", by_user=event.owner)
    key, base = play.table.key, f"/director/events/{event.pk}"
    failures = _failures(
        phone,
        live_server,
        [
            f"/t/{key}/",  # the table's gate, offering round 2 and round 1 opened again
            round_link(play, "?as=S"),
            round_link(play, "deals/1/?as=S"),
            round_link(play, "deals/3/?as=S"),
            f"/p/{seat['S'].key}/",
        ],
    )
    login(phone, live_server.url)
    failures |= _failures(
        phone,
        live_server,
        [
            f"{base}/rooms/{first.room_id}/?round=1",
            f"{base}/scores/plays/{play.pk}/",
            f"{base}/scores/?round={first.pk}",
        ],
    )
    assert failures == {}, "\n".join(f"{url}: {p}" for url, ps in failures.items() for p in ps)


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


CLIPPED = """<html lang="ru"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>x</title><style>body { margin: 0; overflow-x: hidden; }</style>
<div id="box" style="width: 200px; overflow: hidden"><span style="display: inline-block; width: 400px">cut</span></div>
<p id="dots" style="width: 100px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis">a long line of words</p>
<div id="slider" style="overflow-x: auto"><table><tr><td style="min-width: 600px">a wide table</td></tr></table></div>
<div id="past" style="width: 500px">past the right edge</div>
</html>"""

FITS = """<html lang="ru"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>x</title>
<div class="scroll-x"><table><tr><td style="min-width: 600px">a grid that scrolls on purpose</td></tr></table></div>
<span class="sr-only">hidden on purpose, however long its text may be</span>
<p>A long text that wraps within the screen as any text should, without anything cut off.</p>
</html>"""


def test_the_smoke_check_catches_clipped_content_not_only_page_scroll(phone):
    phone.set_content(CLIPPED)
    problems = check_page(phone)
    assert any("clipped: <div#box>" in p for p in problems)
    assert any("clipped: <p#dots>" in p for p in problems)
    assert any("<div#slider>" in p and "sideways" in p for p in problems)
    assert any("<div#past>" in p and "right edge" in p for p in problems)


def test_the_smoke_check_accepts_a_marked_scroller_hidden_text_and_wrapping(live_server, phone):
    phone.goto(f"{live_server.url}/director/login/")
    phone.set_content(FITS)
    phone.add_style_tag(url=f"{live_server.url}/static/css/app.css")
    assert check_page(phone) == []
