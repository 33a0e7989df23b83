"""The tests' builders, in one module: players seated by the planner, a table-round, its
deals and seats, rounds put on the clock or ended, and ready-made sheets. Fixtures (in the
conftest modules) are built from these; tests import them from here."""


def seat_players(
    event, count: int, *, kind: str = "prime", seats: int = 3, rounds=None, dealing: str = ""
):
    """Enter ``count`` players, draw their numbers and seat them by the planner's option."""
    from events import services as event_services
    from movements import planner
    from movements.services import session_create

    for i in range(count):
        event_services.entry_create(event, last_name=f"Игроков{i + 1:02d}", first_name="Игорь")
    event_services.draw_make(event, seed="tests")
    for option in planner.plan(count).as_dict()["options"]:
        if all(r["kind"] == kind and r["seats"] == seats for r in option["rooms"]):
            return session_create(event, option, rounds=rounds, dealing=dealing)
    raise AssertionError(f"no {kind} option with {seats} seats for {count} players")


# A valid sheet for a deal whose active seats are N, E, S (every deal of a 3-player set):
# N plays «три» in diamonds, E whists and takes 3, S passes; N 70, E 30, S 0.
THREE_DIAMONDS = {
    "declarer": "N",
    "contract": "three",
    "trump": "diamonds",
    "defenders": {"E": "whist", "S": "pass"},
    "tricks": {"N": 7, "E": 3},
}

#: The same sheet as the table's scorer form posts it.
THREE_DIAMONDS_FORM = {
    "declarer": "N",
    "contract": "three",
    "trump": "diamonds",
    "defence_E": "whist",
    "defence_S": "pass",
    "tricks_N": "7",
    "tricks_E": "3",
}


def sheet(declarer="N", contract="three", trump="diamonds", defence=None, tricks=None):
    """A sheet for a deal played by N, E, S; by default the declarer takes 7 and the first
    defender whists and takes 3."""
    seats = [s for s in "NES" if s != declarer]
    defence = defence or {seats[0]: "whist", seats[1]: "pass"}
    tricks = tricks or {declarer: 7, seats[0]: 3}
    data = {"declarer": declarer, "contract": contract, "defenders": defence, "tricks": tricks}
    if trump:
        data["trump"] = trump
    return data


def play_of(session, round_number, table_number, room_number=1):
    from scoring.models import TablePlay

    return TablePlay.objects.select_related(
        "round__room__session__event", "table", "board_set"
    ).get(
        round__room__session=session,
        round__room__number=room_number,
        round__number=round_number,
        table__number=table_number,
    )


def round_link(play, path: str = "") -> str:
    """The round link of a table-round (``/t/<play key>/``, its table's page of that one
    round), with ``path`` under it: ``round_link(play, "deals/1/")``."""
    return f"/t/{play.key}/{path}"


def deal_of(play, number):
    return play.board_set.deals.select_related("board_set").get(number=number)


def seat_at(play, position):
    from events.models import Seat

    return Seat.objects.select_related("entry").get(
        round_id=play.round_id, table_id=play.table_id, position=position
    )


def entry_at(play, position):
    return seat_at(play, position).entry


def start(rnd):
    """Put a round on the clock (earlier ones of the room are ended first)."""
    from events import rounds
    from events.models import Round

    for earlier in Round.objects.filter(room=rnd.room, number__lt=rnd.number).order_by("number"):
        if earlier.state == Round.State.PENDING:
            rounds.round_start(earlier)
        earlier.refresh_from_db()
        if earlier.state in (Round.State.RUNNING, Round.State.PAUSED):
            rounds.round_end_now(earlier)
    rnd.refresh_from_db()
    if rnd.state == Round.State.PENDING:
        rounds.round_start(rnd)
    rnd.refresh_from_db()
    return rnd


def finish(rnd):
    from events import rounds

    start(rnd)
    rounds.round_end_now(rnd)
    rnd.refresh_from_db()
    return rnd


def play_out(session):
    """Every round of the session played and closed: each room's rounds ended in turn and the
    last one closed to its tables, so every deal is played out (scoring.standings.disclosure) and, once
    published, public with its cards and travellers."""
    from events.models import Round
    from scoring.models import TablePlay

    for room in session.rooms.order_by("number"):
        rounds = list(Round.objects.filter(room=room).order_by("number"))
        for rnd in rounds:
            if rnd.state != Round.State.FINISHED:
                finish(rnd)
        if rounds:
            TablePlay.objects.filter(round=rounds[-1]).update(
                players_access=TablePlay.Access.CLOSED
            )
            from events import clockdoc

            clockdoc.room_changed(room.pk, clock=False)
    return session


#: Speaking order from first hand at a 3-player table (docs/game.md §5.2).
SPEAKING_ORDER_3 = {"N": "NES", "E": "ESN", "S": "SNE"}


def varied_result(table: int, round_no: int, deal_no: int, first_hand: str) -> dict:
    """A different, valid result at every table of a 3-player room: first hand declares
    «раз» in spades, the next seat whists, the last passes; the declarer's tricks vary from
    5 to 8 with the table, the round and the deal."""
    declarer, whister, passer = SPEAKING_ORDER_3[first_hand]
    taken = 5 + (3 * table + 2 * deal_no + round_no) % 4
    return {
        "declarer": declarer,
        "contract": "one",
        "trump": "spades",
        "defenders": {whister: "whist", passer: "pass"},
        "tricks": {declarer: taken, whister: 10 - taken},
    }


def wait_until(check, timeout: float = 15.0, step: float = 0.1):
    """``check()``'s first true answer within ``timeout`` seconds (a worker's work seen from
    a test), else its last answer."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(step)
    return check()


def account(login: str):
    """A director's account of the suite (a member of a team, say)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=login, password="s3cret-pass-9")


def two_rooms(event):
    """18 players in two rooms of 2 tables × 4 seats (the event's first session)."""
    from events import services as event_services
    from movements import planner
    from movements.services import session_create

    for i in range(18):
        event_services.entry_create(event, last_name=f"Игроков{i + 1:02d}", first_name="Игорь")
    event_services.draw_make(event, seed="tests")
    for option in planner.plan(18).as_dict()["options"]:
        if len(option["rooms"]) == 2:
            return session_create(event, option)
    raise AssertionError("no option of two rooms for 18 players")
