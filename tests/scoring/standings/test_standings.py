"""Comparison and standings: every cached figure equals the pure core's answer computed here
independently on the same data; ties shared; sit-outs and pauses not scored; Neuberg when a
table has no result; adjustments; the cache kept deal by deal equals a full rebuild."""

import random
from collections import defaultdict
from fractions import Fraction

import pytest

from events.models import Event, Seat
from movements.services import session_create
from scoring import compare, standings
from scoring.models import Adjustment, Deal, DealScore, ScoreSheet, SessionTotal, TablePlay
from scoring.sheets import services
from tests.factories import deal_of, entry_at, play_of, seat_at, sheet

pytestmark = pytest.mark.django_db

SUITS = ["spades", "clubs", "diamonds", "hearts"]


def random_sheet(rng: random.Random, active: str) -> dict:
    """A valid sheet for a deal played by the seats ``active``."""
    if rng.random() < 0.08:
        return {"contract": "passed"}
    declarer = rng.choice(active)
    first, second = [s for s in active if s != declarer]
    decisions = rng.choice(
        [
            ("whist", "whist"),
            ("whist", "pass"),
            ("pass", "whist"),
            ("whist", "invited"),
            ("invited", "whist"),
            ("pass", "pass"),
        ]
    )
    defenders = {first: decisions[0], second: decisions[1]}
    contract = rng.choice(["one", "two", "three", "four", "game", "hearts"])
    trump = {
        "one": rng.choice(SUITS),
        "two": rng.choice(SUITS[1:]),
        "three": rng.choice(SUITS[2:]),
        "four": "hearts",
        "game": rng.choice(SUITS[:3]),
        "hearts": "hearts",
    }[contract]
    data = {"declarer": declarer, "contract": contract, "trump": trump, "defenders": defenders}
    playing = [declarer] + [s for s, d in defenders.items() if d != "pass"]
    if len(playing) > 1:
        cuts = sorted(rng.randint(0, 10) for _ in range(len(playing) - 1))
        bounds = [0, *cuts, 10]
        data["tricks"] = {s: bounds[i + 1] - bounds[i] for i, s in enumerate(playing)}
    return data


def fill(session, director, *, seed=1, skip=()):
    """Record a random sheet for every deal of every table-round (but those in ``skip``:
    (round, table, deal number))."""
    rng = random.Random(seed)
    plays = TablePlay.objects.filter(round__room__session=session).select_related(
        "round__room__session__event", "table", "board_set"
    )
    for play in plays.order_by("round__number", "table__number"):
        for deal in play.board_set.deals.order_by("number").select_related("board_set"):
            if (play.round.number, play.table.number, deal.number) in skip:
                continue
            services.sheet_record(
                play, deal, random_sheet(rng, deal.active_seats), by_user=director
            )


# --- the independent computation ----------------------------------------------------------


def expected_figures(session):
    """{(deal, play, position): (entry, net figure)} computed from the rows with the core."""
    event = Event.objects.get(pk=session.event_id)
    options = {
        "artificial": compare.ArtificialScores(
            Fraction(event.average_plus), Fraction(event.average), Fraction(event.average_minus)
        ),
        "stake": Fraction(event.stake),
    }
    main = {"matchpoints": "percent", "points": "points", "cross": "imps"}[event.scoring_method]
    found = {}
    for deal in Deal.objects.filter(board_set__session=session).order_by("pk"):
        plays = list(TablePlay.objects.filter(board_set=deal.board_set).order_by("pk"))
        tables, owners = [], []
        for play in plays:
            row, who = {}, {}
            current = ScoreSheet.objects.filter(play=play, deal=deal).first()
            for seat in Seat.objects.filter(round=play.round, table=play.table):
                if seat.position not in deal.active_seats:
                    continue
                art = Adjustment.objects.filter(
                    play=play, deal=deal, entry=seat.entry, kind="artificial"
                ).first()
                if art:
                    row[seat.position] = compare.Artificial(art.score)
                elif current:
                    row[seat.position] = Fraction(
                        str(current.current.result["scores"][seat.position])
                    )
                else:
                    continue
                who[seat.position] = seat.entry_id
            tables.append(row)
            owners.append(who)
        if not any(tables):
            continue
        compared = compare.compare_pockets(
            tables, event.scoring_method, expected=len(plays), **options
        )
        for play, who, figures in zip(plays, owners, compared, strict=True):
            for position, values in figures.items():
                penalty = sum(
                    (
                        Fraction(a.penalty)
                        for a in Adjustment.objects.filter(
                            play=play, deal=deal, entry_id=who[position], kind="penalty"
                        )
                    ),
                    Fraction(0),
                )
                (net,) = compare.apply_penalties([values[main]], [penalty])
                found[(deal.pk, play.pk, position)] = (who[position], net)
    return found


def expected_standing(session):
    event = Event.objects.get(pk=session.event_id)
    figures = defaultdict(list)
    for entry_id, net in expected_figures(session).values():
        figures[entry_id].append(net)
    by = {"matchpoints": "average", "points": "sum", "cross": "sum"}[event.scoring_method]
    return {row.key: (row.rank, row.total, row.deals) for row in compare.standings(figures, by)}


def cached_figures(session):
    return {
        (s.deal_id, s.play_id, s.position): (s.entry_id, Fraction(s.net_num, s.net_den))
        for s in DealScore.objects.filter(session=session)
    }


def got_standing(session):
    return {
        row.entry.pk: (row.rank, row.total, row.deals)
        for row in standings.session_standings(session)
        if row.deals
    }


# --- tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["matchpoints", "points", "cross"])
def test_every_figure_and_the_standing_equal_the_pure_core(session15, director, method):
    Event.objects.filter(pk=session15.event_id).update(scoring_method=method)
    fill(session15, director, seed=7, skip={(2, 3, 1), (4, 1, 2)})
    session15.refresh_from_db()
    want = expected_standing(session15)
    assert got_standing(session15) == want
    assert cached_figures(session15) == expected_figures(session15)
    assert len(want) == 15


def test_neuberg_when_a_table_has_no_result(session15, director):
    fill(session15, director, seed=3, skip={(2, 2, 1)})
    standings.session_standings(session15)
    missing = play_of(session15, 2, 2)
    deal = deal_of(missing, 1)
    plays = list(
        TablePlay.objects.filter(board_set=deal.board_set).exclude(pk=missing.pk).order_by("pk")
    )
    results = [
        Fraction(str(ScoreSheet.objects.get(play=p, deal=deal).current.result["scores"]["N"]))
        for p in plays
    ]
    want = compare.matchpoints(results, expected=5).percent
    got = [DealScore.objects.get(deal=deal, play=p, position="N") for p in plays]
    assert [Fraction(s.net_num, s.net_den) for s in got] == list(want)
    assert want != compare.matchpoints(results).percent  # Neuberg did change something
    assert not DealScore.objects.filter(deal=deal, play=missing).exists()


def test_ties_share_the_place(session15, director):
    # Deal 1.1 only, the same result at every table: everybody who played it has 50 %.
    set1 = Deal.objects.get(board_set__session=session15, board_set__number=1, number=1)
    for play in TablePlay.objects.filter(board_set=set1.board_set):
        services.sheet_record(play, set1, sheet(), by_user=director)
    rows = standings.session_standings(session15)
    scored = [r for r in rows if r.deals]
    assert len(scored) == 15
    assert {r.rank for r in scored} == {"1\u201315"}
    assert all(r.total == 50 for r in scored)
    # One table's N does better: he is first alone, the other N of that deal share 2–5.
    play = TablePlay.objects.filter(board_set=set1.board_set).order_by("pk").first()
    services.sheet_record(play, set1, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    labels = {r.entry.pk: r.rank for r in standings.session_standings(session15)}
    assert labels == {k: v[0] for k, v in expected_standing(session15).items()}
    assert labels[entry_at(play, "N").pk] == "1"
    assert sorted(labels.values()).count("2\u20135") == 4


def test_the_dealer_who_sits_out_is_not_scored(session20, director):
    fill(session20, director, seed=5)
    want = expected_standing(session20)
    assert got_standing(session20) == want
    # Each player sits out one deal of four in each of the five rounds.
    assert {deals for _rank, _total, deals in want.values()} == {15}
    for deal in Deal.objects.filter(board_set__session=session20):
        assert DealScore.objects.filter(deal=deal).count() == 5 * 3
        assert not DealScore.objects.filter(deal=deal, position=deal.dealer).exists()


def test_a_player_on_a_pause_is_not_scored_that_round(session9, director):
    fill(session9, director, seed=11)
    want = expected_standing(session9)
    assert got_standing(session9) == want
    paused = Seat.objects.filter(round__room__session=session9, table__isnull=True).first()
    assert not DealScore.objects.filter(entry=paused.entry, play__round=paused.round).exists()
    card = standings.player_card(paused.entry)
    pauses = [r for r in card.rows if r.deal is None]
    assert [r.round_number for r in pauses] == [paused.round.number]


def test_artificial_scores_and_penalties(session15, director):
    fill(session15, director, seed=13)
    play = play_of(session15, 1, 1)
    deal = deal_of(play, 1)
    north, east = entry_at(play, "N"), entry_at(play, "E")
    standings.session_standings(session15)  # the cache is built; the rest goes deal by deal
    services.adjustment_create(
        play, entry=north, kind="artificial", score="A+", deal=deal, by_user=director, reason="x"
    )
    services.adjustment_create(
        play, entry=east, kind="penalty", penalty="2.5", deal=deal, by_user=director, reason="y"
    )
    services.adjustment_create(
        play, entry=east, kind="penalty", penalty="1", by_user=director, reason="late"
    )
    rows = {r.entry.pk: r for r in standings.session_standings(session15)}
    north_score = DealScore.objects.get(deal=deal, play=play, position="N")
    assert (
        north_score.artificial == "A+" and Fraction(north_score.net_num, north_score.net_den) == 60
    )
    assert cached_figures(session15) == expected_figures(session15)
    want = expected_standing(session15)
    # The round penalty comes off the total, in the standing's unit.
    assert rows[east.pk].total == want[east.pk][1] - 1
    assert rows[east.pk].penalty == 1
    assert rows[north.pk].total == want[north.pk][1]


def test_an_artificial_score_cannot_go_to_a_dealer_who_sits_out(session20, director):
    from django.core.exceptions import ValidationError

    play = play_of(session20, 1, 1)
    deal = deal_of(play, 1)  # W deals and sits out
    with pytest.raises(ValidationError) as excinfo:
        services.adjustment_create(
            play,
            entry=seat_at(play, deal.dealer).entry,
            kind="artificial",
            score="A",
            deal=deal,
            by_user=director,
            reason="x",
        )
    assert "entry" in excinfo.value.message_dict


def test_the_cache_kept_deal_by_deal_equals_a_full_rebuild(session15, director):
    fill(session15, director, seed=17, skip={(3, 3, 3)})
    standings.session_standings(session15)
    play = play_of(session15, 2, 4)
    deal = deal_of(play, 2)
    services.sheet_record(
        play, deal, sheet(declarer="S", trump=None, contract="hearts"), by_user=director
    )
    services.adjustment_create(
        play,
        entry=entry_at(play, "E"),
        kind="artificial",
        score="A-",
        deal=deal_of(play, 3),
        by_user=director,
        reason="slow",
    )
    gone = services.adjustment_create(
        play,
        entry=entry_at(play, "N"),
        kind="penalty",
        penalty=3,
        deal=deal,
        by_user=director,
        reason="x",
    )
    standings.session_standings(session15)
    services.adjustment_delete(gone, by_user=director)
    late = play_of(session15, 3, 3)
    services.sheet_record(late, deal_of(late, 3), {"contract": "passed"}, by_user=director)
    kept = standings.session_standings(session15)
    figures = cached_figures(session15)
    totals = dict(SessionTotal.objects.filter(session=session15).values_list("entry_id", "total"))
    standings.session_recompute(session15)
    assert cached_figures(session15) == figures
    assert {
        k: Fraction(v)
        for k, v in SessionTotal.objects.filter(session=session15).values_list("entry_id", "total")
    } == {k: Fraction(v) for k, v in totals.items()}
    assert [(r.rank, r.entry.pk, r.total) for r in standings.session_standings(session15)] == [
        (r.rank, r.entry.pk, r.total) for r in kept
    ]
    assert figures == expected_figures(session15)


def test_a_change_of_the_events_method_rebuilds_the_figures(session15, director):
    fill(session15, director, seed=19)
    before = got_standing(session15)
    Event.objects.filter(pk=session15.event_id).update(scoring_method="points")
    session15.refresh_from_db()
    after = got_standing(session15)
    assert after != before
    assert after == expected_standing(session15)


def test_the_event_standing_spans_every_session(session15, director):
    from movements import planner

    option = next(
        o for o in planner.plan(15).as_dict()["options"] if o["rooms"][0]["kind"] == "prime"
    )
    second = session_create(Event.objects.get(pk=session15.event_id), option, rounds=2)
    fill(session15, director, seed=23)
    fill(second, director, seed=29)
    event = Event.objects.get(pk=session15.event_id)
    figures = defaultdict(list)
    for session in (session15, second):
        for entry_id, net in expected_figures(session).values():
            figures[entry_id].append(net)
    want = {r.key: (r.rank, r.total, r.deals) for r in compare.standings(figures, "average")}
    got = {r.entry.pk: (r.rank, r.total, r.deals) for r in standings.event_standings(event)}
    assert got == want
    assert {deals for _r, _t, deals in got.values()} == {15 + 6}
