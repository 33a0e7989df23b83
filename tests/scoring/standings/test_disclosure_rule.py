"""The rule of what anyone may see (``scoring.standings.disclosure.may_see``, docs/game.md §4.5), over
every combination of who asks and the deal's state — and the states read from the rows,
against an independent reading of random evenings.

The expected table is written out here by hand from the docs, not computed from the rule."""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring.standings.disclosure import DealState, Part, Who, deal_state, may_see

S = DealState
ALL = frozenset(Part)
PUBLIC = frozenset({Part.OWN_RESULT, Part.TALON, Part.CARDS, Part.RESULTS, Part.TOTALS})
OWN = frozenset({Part.OWN_RESULT})
OWN_TALON = frozenset({Part.OWN_RESULT, Part.TALON})
NONE = frozenset()

#: (who, round over) → the parts shown in each state, NOT_PLAYED … SHOWN.
EXPECTED = {
    (Who.DIRECTOR, False): [ALL] * 6,
    (Who.DIRECTOR, True): [ALL] * 6,
    (Who.ANYONE, False): [NONE, NONE, NONE, NONE, PUBLIC, PUBLIC],
    (Who.ANYONE, True): [NONE, NONE, NONE, NONE, PUBLIC, PUBLIC],
    (Who.PLAYER, False): [NONE, OWN, OWN_TALON, OWN_TALON, PUBLIC, PUBLIC],
    (Who.PLAYER, True): [NONE, OWN, OWN_TALON, OWN_TALON, PUBLIC, PUBLIC],
    (Who.TABLE_PROVEN, False): [NONE, OWN, OWN_TALON, OWN_TALON, PUBLIC, PUBLIC],
    (Who.TABLE_PROVEN, True): [NONE, OWN, OWN_TALON, OWN_TALON, PUBLIC, PUBLIC],
    (Who.TABLE, False): [NONE, OWN, OWN_TALON, OWN_TALON, PUBLIC, PUBLIC],
    # A finished round's page on a phone nobody proved himself on: nothing of its own.
    (Who.TABLE, True): [NONE, NONE, NONE, NONE, PUBLIC, PUBLIC],
}

STATES = [
    S.NOT_PLAYED,
    S.ENTERED,  # played at this table unproven: a sheet, not confirmed by a second person
    S.CONFIRMED,  # proven and confirmed (or the director's)
    S.ROUND_OVER,
    S.PLAYED_OUT,
    S.SHOWN,  # by the director
]


@pytest.mark.parametrize("who", list(Who))
@pytest.mark.parametrize("round_over", [False, True])
@pytest.mark.parametrize("state", STATES)
def test_the_rule_shows_exactly_the_documented_parts(who, round_over, state):
    assert may_see(who, state, round_over=round_over) == EXPECTED[(who, round_over)][state]


def test_every_viewer_and_state_is_in_the_table():
    assert set(EXPECTED) == {(w, o) for w in Who for o in (False, True)}
    assert sorted(DealState) == STATES


@given(st.sampled_from(list(Who)), st.booleans(), st.sampled_from(STATES), st.sampled_from(STATES))
def test_a_deal_further_on_never_shows_less_but_to_an_unproven_finished_round(who, over, a, b):
    low, high = sorted((a, b))
    if who is Who.TABLE and over and high < S.PLAYED_OUT:
        assert may_see(who, high, round_over=over) == NONE
        return
    assert may_see(who, low, round_over=over) <= may_see(who, high, round_over=over)


@given(st.sampled_from(list(Who)), st.booleans(), st.sampled_from(STATES))
def test_nobody_but_the_director_sees_cards_results_or_totals_before_the_deal_is_played_out(
    who, over, state
):
    shown = may_see(who, state, round_over=over)
    secret = {Part.CARDS, Part.RESULTS, Part.TOTALS}
    if who is Who.DIRECTOR or state >= S.PLAYED_OUT:
        assert secret <= shown
    else:
        assert not secret & shown
        # The talon only once played at the asker's own table.
        assert (Part.TALON in shown) == (
            state >= S.CONFIRMED and who is not Who.ANYONE and not (who is Who.TABLE and over)
        )


@given(
    sheet=st.booleans(),
    played=st.booleans(),
    closed=st.booleans(),
    played_out=st.booleans(),
    shown=st.booleans(),
)
def test_the_state_is_the_furthest_that_holds(sheet, played, closed, played_out, shown):
    state = deal_state(
        sheet=sheet, played=played, closed=closed, played_out=played_out, shown=shown
    )
    if shown:
        assert state is S.SHOWN
    elif played_out:
        assert state is S.PLAYED_OUT
    elif closed:
        assert state is S.ROUND_OVER
    elif played:
        assert state is S.CONFIRMED
    else:
        assert state is (S.ENTERED if sheet else S.NOT_PLAYED)


# --- the states read from the rows, against an independent reading -------------------------

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["enter", "confirm", "director", "artificial", "close", "open"]),
        st.integers(1, 5),  # the round
        st.integers(1, 5),  # the table
        st.integers(1, 3),  # the deal
    ),
    max_size=30,
)


@pytest.mark.django_db
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
@example(actions=[("close", r, 1, 1) for r in range(1, 6)])  # everything played out
@example(  # four rounds closed; in the fifth one deal scored, one only entered
    actions=[("close", r, 1, 1) for r in range(1, 5)]
    + [("director", 5, 2, 1), ("enter", 5, 3, 2), ("enter", 5, 4, 3), ("confirm", 5, 4, 3)]
)
def test_a_deal_is_played_out_once_every_table_holding_it_has_played_it(director, actions):
    """The five-table prime room, every round over and each table-round opened again by
    the director (so all may be written, none closed), under random writes: a deal is
    played out exactly when every table-round holding its set has played it — its sheet
    confirmed by a second person or the director, a score of the director's there, or the
    table-round closed — and an entered sheet alone never counts. Read independently here."""
    from events import clockdoc
    from events.models import Round
    from events.services import event_create
    from scoring.models import Adjustment, Proof, ScoreSheet, TablePlay
    from scoring.sheets import services
    from scoring.standings import disclosure
    from tests.factories import THREE_DIAMONDS, entry_at, finish, play_of, seat_players

    # A fresh event for each example: the examples share one test's database.
    event = event_create(owner=director, name="Свойство", date="2026-12-05", venue="ЦДШ")
    session15 = seat_players(event, 15)
    for number in range(1, 6):
        finish(Round.objects.get(room__session=session15, number=number))
    TablePlay.objects.filter(round__room__session=session15).update(
        players_access=TablePlay.Access.OPEN
    )
    room = session15.rooms.get()
    plays = {(r, t): play_of(session15, r, t) for r in range(1, 6) for t in range(1, 6)}
    played: set[tuple[int, int]] = set()
    closed: set[int] = set()
    scored: set[tuple[int, int]] = set()
    for action, number, table, deal_number in actions:
        play = plays[(number, table)]
        play.refresh_from_db()
        deal = play.board_set.deals.get(number=deal_number)
        writable = play.pk not in closed
        if action == "enter" and writable:
            services.sheet_record(
                play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"), proof=Proof.PIN
            )
        elif action == "confirm" and writable:
            sheet = ScoreSheet.objects.filter(play=play, deal=deal).first()
            if sheet is None or sheet.status != ScoreSheet.Status.ENTERED:
                continue
            services.sheet_confirm(
                sheet, by_entry=entry_at(play, "E"), proof=Proof.PIN, device="east"
            )
            played.add((play.pk, deal.pk))
        elif action == "director":
            services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
            played.add((play.pk, deal.pk))
        elif action == "artificial":
            if (play.pk, deal.pk) in scored:
                continue  # one artificial score per player and deal: the service refuses more
            scored.add((play.pk, deal.pk))
            services.adjustment_create(
                play,
                entry=entry_at(play, "N"),
                deal=deal,
                kind=Adjustment.Kind.ARTIFICIAL,
                score="A",
                reason="тест",
                by_user=director,
            )
            played.add((play.pk, deal.pk))
        elif action in ("close", "open"):
            # The director closes (or opens again) the whole round: its five table-rounds.
            access = TablePlay.Access.CLOSED if action == "close" else TablePlay.Access.OPEN
            TablePlay.objects.filter(round=play.round).update(players_access=access)
            clockdoc.room_changed(room.pk, clock=False)
            for t in range(1, 6):
                pk = plays[(number, t)].pk
                (closed.add if action == "close" else closed.discard)(pk)
    holders: dict[int, list[int]] = {}
    for play in plays.values():
        holders.setdefault(play.board_set_id, []).append(play.pk)
    expected = {
        deal.pk
        for play in plays.values()
        for deal in play.board_set.deals.all()
        if all(p in closed or (p, deal.pk) in played for p in holders[play.board_set_id])
    }
    assert disclosure.session_disclosure(session15).shown == frozenset(expected)
