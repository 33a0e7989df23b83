"""Every page in English has no Cyrillic but names (issue 21, finding 11).

An event is built as an evening lives it — players entered (one of them with a Russian name,
as an English event may have), drawn and seated, a round played with every kind of sheet,
a passed-out deal, a box report, an artificial score for a whole table and a time penalty,
the round ended, the session played out and published, the next session seated and dealt
by the app — and a second event of 9 players in a special scheme (tables of four). The
reader switches to English as the site's own switch does (``/i18n/setlang/``, a cookie),
then every page is read at each step: the director's (every route under his event, found
from the URL configuration, so a page added later is read too), the public ones (results,
standings, travellers, cards, hand records, the dealing check, the hall screen), the
player's page and the table's (gate, round page, deal form, box report) with the clocks'
documents, and the CSV, XLSX, text and JSON files. Their visible text — the page's text,
its titles, labels, button values and the data-* texts the scripts show — is searched for
Cyrillic once the names that came from the data are taken out."""

import io
import json
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from openpyxl import load_workbook

from events import services as event_services
from events.models import Entry, Person, Seat
from events.register.merging import person_merge
from movements import planner
from movements.services import scheme_create, session_create
from scoring.sheets import boxes, services
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    finish,
    play_of,
    play_out,
    start,
)
from tests.public_pages import deal_urls, public_urls

pytestmark = pytest.mark.django_db

CYRILLIC = re.compile(r"[\u0400-\u04ff]")

#: The players' names: Latin, but for one Russian player whose name is his own.
PLAYERS = [("Smith", "John", "Lions"), ("Brown", "Anne", "Lions"), ("Иванов", "Пётр", "Тула")]
PLAYERS += [(f"Player{n:02d}", "Sam", "Bridge Club") for n in range(4, 16)]


class _VisibleText(HTMLParser):
    """What a reader sees or hears of a page: its text, and the attributes shown as text
    (titles, labels, placeholders, button values, the data-* words scripts put on screen);
    not scripts, styles, hidden inputs or <meta>."""

    SHOWN = ("title", "alt", "aria-label", "placeholder", "label")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipped = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skipped += 1
        attrs = dict(attrs)
        if tag == "meta" or (tag == "input" and attrs.get("type") == "hidden"):
            return
        for name, value in attrs.items():
            if not value:
                continue
            button = name == "value" and tag in ("input", "button", "option")
            if name in self.SHOWN or button or name.startswith("data-"):
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skipped:
            self._skipped -= 1

    def handle_data(self, data):
        if not self._skipped:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return "\n".join(part.strip() for part in parser.parts if part.strip())


def _answer_text(response) -> str:
    kind = response.get("Content-Type", "")
    if "html" in kind:
        return visible_text(response.content.decode())
    if "json" in kind:
        return json.dumps(response.json(), ensure_ascii=False)
    if "spreadsheetml" in kind:
        book = load_workbook(io.BytesIO(response.content))
        cells = [
            str(cell.value)
            for sheet in book.worksheets
            for row in sheet.iter_rows()
            for cell in row
            if cell.value is not None
        ]
        return "\n".join([*book.sheetnames, *cells])
    if kind.startswith("text/"):
        return response.content.decode()
    return ""  # an image (QR codes)


class Reader:
    """A browser in English: reads pages and keeps what in them is Cyrillic."""

    def __init__(self, client: Client, names: list[str]):
        self.client = client
        # Longest first, so that «Иванов Пётр» goes before «Иванов».
        self.names = sorted(set(names), key=len, reverse=True)
        self.found: dict[str, list[str]] = {}
        self.read: list[str] = []
        answer = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
        assert answer.status_code == 302 and client.cookies["django_language"].value == "en"
        # And as an English browser says it: the public pages never read the cookie, their
        # language is the address's or the browser's (config/locale.py).
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"

    def get(self, url: str, *, expect=(200,), **data):
        return self._check("get", url, expect, data)

    def post(self, url: str, data: dict, *, expect=(200, 400)):
        return self._check("post", url, expect, data)

    def _check(self, method, url, expect, data):
        response = getattr(self.client, method)(url, data)
        assert response.status_code in expect, (method, url, response.status_code)
        text = _answer_text(response)
        for name in self.names:
            text = text.replace(name, "")
        lines = [line.strip()[:160] for line in text.splitlines() if CYRILLIC.search(line)]
        if lines:
            self.found.setdefault(f"{method.upper()} {url}", []).extend(lines[:6])
        self.read.append(url)
        return response


def _routes(prefix: str):
    def walk(patterns, above=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, above + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield above + str(p.pattern)

    return [r for r in walk(get_resolver().url_patterns) if r.startswith(prefix)]


PARAM = re.compile(r"<(?:\w+:)?(\w+)>")
#: The director's addresses that answer only a POST (the form that posts them is read).
POST_ONLY = re.compile(
    r"/(confirm|reinstate|draw|start|analyse|publish|deals-show|access|close|adjustments|"
    r"restore|decide|table|delete|end|recompute|link|mark|each-round|substitute|going)/$"
)


def _director_pages(reader: Reader, ids: dict) -> None:
    for route in _routes("director/"):
        if "logout" in route or "login" in route:
            continue
        url = "/" + PARAM.sub(lambda m: str(ids[m.group(1)]), route)
        if POST_ONLY.search(url):
            expect = (200, 405)
        elif url == "/director/backups/":
            expect = (200, 403)  # the server's own director's (every event is in a backup)
        else:
            expect = (200,)
        reader.get(url, expect=expect)


def _phone_pages(reader: Reader, play, entries) -> None:
    reader.get(f"/t/{play.table.key}/")
    reader.get(f"/t/{play.key}/")
    reader.get(f"/t/{play.key}/clock.json")
    for number in (1, 2, 3):
        reader.get(f"/t/{play.key}/deals/{number}/")
    for entry in entries:
        reader.get(f"/p/{entry.key}/")
        reader.get(f"/p/{entry.key}/places")
        reader.get(f"/p/{entry.key}/clock.json")


def _hall(reader: Reader, event) -> None:
    reader.get(f"/e/{event.slug}/clock")
    reader.get(f"/e/{event.slug}/clock.json")


@pytest.fixture
def evening(director):
    event = event_services.event_create(
        owner=director, name="Spring Cup", date="2026-12-05", venue="Chess Club"
    )
    for last, first, club in PLAYERS:
        event_services.entry_create(event, last_name=last, first_name=first, club=club)
    return event


def _names(*events) -> list[str]:
    found = []
    for event in events:
        found += [event.name, event.venue]
        for entry in Entry.objects.filter(event=event):
            found += [entry.full_name, entry.last_name, entry.first_name, entry.club]
    return [n for n in found if n]


def _option(count: int, kind: str, seats: int) -> dict:
    return next(
        o
        for o in planner.plan(count).as_dict()["options"]
        if all(r["kind"] == kind and r["seats"] == seats for r in o["rooms"])
    )


def test_every_page_in_english_has_no_cyrillic_but_names(client, director, evening):
    client.force_login(director)
    event = evening
    reader = Reader(client, _names(event))
    pk = event.pk

    # Before the draw: the events, the event, its players, import and paste.
    for url in ("/director/", "/director/events/new/", f"/director/events/{pk}/"):
        reader.get(url)
    csv = io.BytesIO(b"Last name;First name;Club\nGreen;Tom;Lions\nGreen;Tom;Lions\n")
    csv.name = "players.csv"
    reader.post(f"/director/events/{pk}/players/import/", {"file": csv})
    reader.post(f"/director/events/{pk}/players/paste/", {"text": "Green Tom; Lions; x"})
    reader.post(f"/director/events/{pk}/players/add/", {"last_name": " ", "first_name": "Tom"})
    event_services.draw_make(event, seed="tests")
    reader.get(f"/director/events/{pk}/movement/")
    own = scheme_create(director, name="My eight", data=_builtin_data(8))

    # Session 1 seated, dealt by the app, round 1 on the clock with every kind of sheet.
    session = session_create(event, _option(15, "prime", 3), dealing="app")
    play = play_of(session, 1, 1)
    start(play.round)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    services.sheet_record(play, deal_of(play, 2), {"contract": "passed"}, by_user=director)
    penalty = services.adjustment_create(
        play,
        entry=entry_at(play, "E"),
        kind="penalty",
        by_user=director,
        penalty="1.5",
        reason="late",
    )
    services.adjustments_table_create(
        play_of(session, 1, 2), by_user=director, score="A", reason="did not play"
    )
    report, _new = boxes.box_report_create(play, deal_of(play, 3), kind="other", note="torn")
    # A table calls the director (issue 34): the room's page lists it, in English too.
    from events import calls

    call = calls.call_open(play.table, reason="dispute", position="N")
    # The register's person page (issue 24): a player of the evening, in the register.
    north = entry_at(play, "N")
    person = Person.objects.create(
        owner=director, last_name=north.last_name, first_name=north.first_name, club=north.club
    )
    # Merging (issue 24): another person to merge with, and a merge of two more.
    other, west, south = (
        Person.objects.create(
            owner=director, last_name=e.last_name, first_name=e.first_name, club=e.club
        )
        for e in Entry.objects.filter(event=event).exclude(pk=north.pk).order_by("pk")[:3]
    )
    merge = person_merge(west, south, by_user=director)
    ids = {
        "pk": pk,
        "number": 1,
        "entry_pk": entry_at(play, "N").pk,
        "room_pk": play.table.room_id,
        "round_pk": play.round_id,
        "play_pk": play.pk,
        "deal_pk": deal_of(play, 1).pk,
        "sheet_pk": play.sheets.order_by("pk").first().pk,
        "adjustment_pk": penalty.pk,
        "report_pk": report.pk,
        "action": "end",
        "scheme_pk": own.pk,
        "person_pk": person.pk,
        "other_pk": other.pk,
        "merge_pk": merge.pk,
        "call_pk": call.pk,
    }
    _director_pages(reader, ids)
    reader.get(f"/director/events/{pk}/rooms/{play.table.room_id}/", confirm="end")
    at_table = [s.entry for s in Seat.objects.filter(round=play.round).select_related("entry")]
    _phone_pages(reader, play, at_table)
    _hall(reader, event)
    # Forms sent back with their problems, and the settlement of a passed-out deal.
    sheet = f"/director/events/{pk}/scores/plays/{play.pk}/deals/3/"
    reader.post(sheet, {"contract": "passed", "check": "1"})
    reader.post(sheet, {"declarer": "N", "contract": "three", "tricks_N": "11", "check": "1"})
    reader.post(f"/t/{play.key}/deals/3/", {"contract": "passed", "check": "1"})
    reader.post(
        f"/director/events/{pk}/scores/adjustments/table/",
        {"round": play.round_id, "table": "9", "score": "A", "reason": ""},
    )

    # «Round over!»: the phones, the hall and the console after the bell. The round's page
    # asks who he is first («Round over», «Who are you?»); his PIN shows its sheets.
    finish(play.round)
    reader.get(f"/t/{play.key}/")
    reader.post(f"/t/{play.key}/", {"as": "N", "pin": ""})
    reader.post(f"/t/{play.key}/deals/1/", {"contract": "passed", "check": "1"})
    reader.post(f"/t/{play.key}/", {"as": "N", "pin": north.pin}, expect=(302,))
    _phone_pages(reader, play, at_table)
    _hall(reader, event)
    reader.get(f"/director/events/{pk}/rooms/{play.table.room_id}/")

    # Played out and published; session 2 seated and dealt by the app, not started.
    play_out(session)
    event_services.event_set_results_public(event, True)
    second = session_create(event, _option(15, "prime", 3), dealing="app")
    anonymous = Reader(Client(), reader.names)
    for url in public_urls(event, session) + public_urls(event, second):
        anonymous.get(url, expect=(200, 403))
    for deal in (deal_of(play, 1), deal_of(play, 2), deal_of(play, 3)):
        for url in deal_urls(event, deal):
            anonymous.get(url)
    _hall(anonymous, event)
    dealt = second.rooms.get().tables.get(number=1).plays.first().board_set.deals.first()
    _director_pages(reader, ids | {"number": 2, "deal_pk": dealt.pk})
    _phone_pages(reader, play, at_table)

    # A second event: 9 players in a special scheme, tables of four.
    nine = event_services.event_create(owner=director, name="Nine", date="2026-12-06")
    for n in range(1, 10):
        event_services.entry_create(nine, last_name=f"Nine{n}", first_name="Jo")
    event_services.draw_make(nine, seed="tests")
    reader.get(f"/director/events/{nine.pk}/movement/")
    scheme_session = session_create(nine, _option(9, "scheme", 4))
    four = play_of(scheme_session, 1, 1)
    start(four.round)
    for url in (
        f"/director/events/{nine.pk}/sessions/1/",
        f"/director/events/{nine.pk}/sessions/1/tables/",
        f"/director/events/{nine.pk}/scores/adjustments/?play={four.pk}",
        f"/director/events/{nine.pk}/scores/plays/{four.pk}/",
        f"/director/events/{nine.pk}/rooms/{four.table.room_id}/",
        f"/t/{four.key}/deals/4/",
    ):
        reader.get(url)
    for seat in Seat.objects.filter(round=four.round).select_related("entry"):
        reader.get(f"/p/{seat.entry.key}/")

    # The pages no event owns: login, a wrong link, a missing page.
    outsider = Reader(Client(), reader.names)
    outsider.get("/director/login/")
    outsider.get("/p/not-a-key/", expect=(404,))
    outsider.get("/t/not-a-key/", expect=(404,))
    outsider.get(f"/e/{event.slug}/results/cards/99/", expect=(404,))

    assert len(reader.read) + len(anonymous.read) + len(outsider.read) > 250
    found = reader.found | anonymous.found | outsider.found
    assert found == {}, "\n".join(f"{url}: {lines}" for url, lines in found.items())


def _builtin_data(participants: int) -> dict:
    from movements.schemes import builtin_scheme

    data = builtin_scheme(participants)
    return {"groups": data["groups"], "set_groups": data["set_groups"]}


def test_the_names_of_the_data_are_all_the_crawl_forgives(client, director, evening):
    """The check is not blind: a Russian word on an English page is found, and a player's
    Russian name is not."""
    client.force_login(director)
    reader = Reader(client, _names(evening))
    assert "Иванов Пётр" in reader.names
    reader.get(f"/director/events/{evening.pk}/")
    assert reader.found == {}
    reader.client.cookies["django_language"] = "ru"
    reader.get(f"/director/events/{evening.pk}/")
    russian = reader.found[f"GET /director/events/{evening.pk}/"]
    assert russian and not any("Иванов" in line for line in russian)
