"""A played two-session event for the archive's tests (tests/events/test_archive.py) and its
bench: built in-process by a test, or in another process (another backend) by
``manage.py shell -c "from tests.events.archive_scenario import main; main()"``."""

from __future__ import annotations

import json


def build(director, *, players: int = 15, rounds: int = 3, kind: str = "prime", seats: int = 3):
    """An event of ``players``: session 1 dealt by the app, played out and its deals shown;
    session 2 dealt by hand and played out; a corrected and a confirmed sheet, an artificial
    score and a penalty, a player linked to the register; results published."""
    from events import services as event_services
    from events.models import Person
    from movements import planner
    from movements.services import session_create
    from scoring.sheets import services
    from scoring.standings import disclosure
    from tests.factories import play_out, seat_players, varied_result

    event = event_services.event_create(
        owner=director, name="Кубок архива", date="2026-12-05", venue="ЦДШ"
    )
    first = seat_players(event, players, kind=kind, seats=seats, rounds=rounds, dealing="app")
    option = next(
        o
        for o in planner.plan(players).as_dict()["options"]
        if all(r["kind"] == kind and r["seats"] == seats for r in o["rooms"])
    )
    for number, session in enumerate([first], start=1):
        _play(session, director, services, varied_result)
        play_out(session)
        if number == 1:
            disclosure.deals_show(session, by_user=director)
    second = session_create(event, option, by=director, rounds=rounds)
    _play(second, director, services, varied_result, extras=True)
    play_out(second)
    person = Person(owner=director, last_name="Игроков01", first_name="Игорь", club="ЦДШ")
    person.save()
    entry = event.entries.order_by("number").first()
    entry.person = person
    entry.save(update_fields=["person"])
    event_services.event_set_results_public(event, True)
    event.refresh_from_db()
    return event


def _play(session, director, services, varied_result, *, extras: bool = False):
    from events.models import Round, Seat
    from scoring.models import TablePlay

    for rnd in Round.objects.filter(room__session=session).order_by("room__number", "number"):
        for play in TablePlay.objects.filter(round=rnd).select_related("table", "board_set"):
            for deal in play.board_set.deals.order_by("number"):
                data = varied_result(play.table.number, rnd.number, deal.number, deal.first_hand)
                services.sheet_record(play, deal, data, by_user=director)
    if not extras:
        return
    play = TablePlay.objects.filter(round__room__session=session).order_by("pk").first()
    deal = play.board_set.deals.order_by("number").first()
    corrected = varied_result(
        play.table.number, play.round.number, deal.number + 1, deal.first_hand
    )
    services.sheet_record(play, deal, corrected, by_user=director, note="исправлено")
    sheet = play.sheets.get(deal=deal)
    services.sheet_confirm(sheet, by_user=director)
    seat = Seat.objects.filter(round=play.round, table=play.table).order_by("position").first()
    services.adjustment_create(
        play, entry=seat.entry, kind="penalty", by_user=director, penalty="1.5", reason="опоздание"
    )
    other = play.board_set.deals.order_by("number").last()
    services.adjustment_create(
        play,
        entry=seat.entry,
        kind="artificial",
        by_user=director,
        deal=other,
        score="A+",
        reason="решение судьи",
    )


def main():
    """Build the event under the first superuser (made if none) and print its id."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    director = users.filter(is_superuser=True).order_by("pk").first() or users.create_superuser(
        "director", password="pass-pass-1"
    )
    print(json.dumps({"event": build(director).pk}))


def raw_pages(event_id: int) -> dict[str, list]:
    """Every public page, file and API answer of the event as the public reads them (in
    Russian): ``{url: [status, content type, body]}``; a spreadsheet's body is its cells."""
    from django.test import Client

    from events.models import Deal, Event
    from tests.public_pages import deal_urls, public_urls

    event = Event.objects.get(pk=event_id)
    urls = []
    for session in event.sessions.order_by("number"):
        urls += public_urls(event, session)
    deals = Deal.objects.filter(board_set__session__event=event).order_by(
        "board_set__session__number", "board_set__family", "board_set__number", "number"
    )
    for deal in deals:
        urls += deal_urls(event, deal)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru", HTTP_HOST="localhost")
    answers = {}
    for url in dict.fromkeys(urls):
        response = client.get(url)
        kind = response.get("Content-Type", "")
        body = b"".join(response.streaming_content) if response.streaming else response.content
        answers[url] = [response.status_code, kind, _readable(body, kind)]
    return answers


def _readable(body: bytes, kind: str):
    if "spreadsheet" in kind:
        import io

        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(body), read_only=True)
        return {
            ws.title: [list(map(str, row)) for row in ws.iter_rows(values_only=True)] for ws in book
        }
    return body.decode("utf-8")


def dump_pages(event_id: int, path: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(raw_pages(event_id), out, ensure_ascii=False)


#: Where the public pages and answers name a row by its id: (pattern, what the id is of).
ID_PLACES = [
    (r"(/api/v1/events/)(\d+)", "event"),
    (r'("event":\s*)(\d+)', "event"),
    (r"(/players/)(\d+)", "entry"),
    (r'("entry":\s*)(\d+)', "entry"),
    (r'("id":\s*)(\d+)', "any"),
    (r"(/deals/)(\d+)", "deal"),
    (r'("deal":\s*)(\d+)', "deal"),
    (r'("deal_id":\s*)(\d+)', "deal"),
    (r"(hand-)(\d+)", "deal"),  # a hand record's anchor
    (r'(data-room=")(\d+)', "room"),
    (r'("room_id":\s*)(\d+)', "room"),
]


def id_labels(event_id: int) -> dict[str, dict[int, str]]:
    """Each id of the event's rows by a label both copies share: its place in id order."""
    from events.models import Deal, Entry, Room

    labels = {"event": {event_id: "E"}}
    rooms = Room.objects.filter(session__event_id=event_id).order_by("pk")
    labels["room"] = {pk: f"R{i}" for i, pk in enumerate(rooms.values_list("pk", flat=True))}
    entries = Entry.objects.filter(event_id=event_id).order_by("pk").values_list("pk", flat=True)
    labels["entry"] = {pk: f"P{i}" for i, pk in enumerate(entries)}
    deals = Deal.objects.filter(board_set__session__event_id=event_id).order_by("pk")
    labels["deal"] = {pk: f"D{i}" for i, pk in enumerate(deals.values_list("pk", flat=True))}
    labels["any"] = {**labels["deal"], **labels["entry"], **labels["event"]}
    return labels


def normalized(text: str, labels: dict) -> str:
    """``text`` with the ids of rows put as their labels, and the pages' version tokens (a
    digest of ids and clock tokens) left out."""
    import re

    for pattern, kind in ID_PLACES:
        names = labels[kind]
        text = re.sub(pattern, lambda m, names=names: m[1] + names.get(int(m[2]), m[2]), text)
    entries = labels["entry"]
    text = re.sub(  # a traveller's seats: {"E": entry id, …}
        r'"players":\{[^{}]*\}',
        lambda m: re.sub(
            r'("[WNES]":)(\d+)', lambda n: n.group(1) + entries.get(int(n.group(2)), "?"), m[0]
        ),
        text,
    )
    return re.sub(r'data-version="[^"]*"', 'data-version="…"', text)


def normalized_pages(event_id: int) -> dict[str, list]:
    """The answers of :func:`raw_pages`, ids put as labels and the public address as «SLUG»
    (in addresses and bodies)."""
    from events.models import Event

    slug = Event.objects.get(pk=event_id).slug
    labels = id_labels(event_id)
    answers = {}
    for url, (status, kind, body) in raw_pages(event_id).items():
        if "json" in kind:
            # PostgreSQL's jsonb keeps a document's keys in its own order, SQLite as written:
            # the same answer, compared with its keys sorted.
            body = json.loads(body)
        if not isinstance(body, str):
            body = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        url, body = (normalized(t.replace(slug, "SLUG"), labels) for t in (url, body))
        answers[url] = [status, kind, body]
    return answers


def dump_normalized(event_id: int, path: str) -> None:
    answers = normalized_pages(event_id)
    with open(path, "w", encoding="utf-8") as out:
        json.dump(answers, out, ensure_ascii=False)
