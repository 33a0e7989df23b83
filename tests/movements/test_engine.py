"""The prime rule and the skip procedure, checked over every table count they promise."""

import json
from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movements import engine
from movements.engine import LINE_STEP, MovementError, is_prime

PRIMES = [t for t in range(5, 102) if is_prime(t)]
SKIP_TABLES = list(range(4, 61))
SEATS = (3, 4)


@cache
def prime(tables, seats, rounds=None):
    return engine.prime_schedule(tables, seats, rounds)


@cache
def skip(tables, seats, rounds=None):
    return engine.skip_schedule(tables, seats, rounds)


def sittings(schedule):
    """round → participant → (table, position, set)."""
    return _sittings(schedule.kind, schedule.tables, schedule.seats, schedule.rounds)


@cache
def _sittings(kind, tables, seats, rounds):
    schedule = (prime if kind == "prime" else skip)(tables, seats, rounds)
    out = []
    for rp in schedule.round_plans:
        where = {}
        for tp in rp.tables:
            for position, who in tp.seats.items():
                assert who not in where, f"round {rp.number}: {who} seated twice"
                where[who] = (tp.table, position, tp.set)
        out.append(where)
    return out


def assert_every_seat_filled_once(schedule):
    lines = engine.lines_for(schedule.seats)
    everybody = set(range(1, schedule.participants + 1))
    for rp, where in zip(schedule.round_plans, sittings(schedule), strict=True):
        assert [tp.table for tp in rp.tables] == list(range(1, schedule.tables + 1))
        for tp in rp.tables:
            assert tuple(tp.seats) == lines
        assert set(where) == everybody
        assert rp.pauses == ()
        sets = [tp.set for tp in rp.tables]
        assert sorted(sets) == list(range(1, schedule.tables + 1))


def set_plays(schedule):
    plays = Counter()
    for rp in schedule.round_plans:
        for tp in rp.tables:
            for who in tp.seats.values():
                plays[who, tp.set] += 1
    return plays


def meetings(schedule):
    met = Counter()
    for rp in schedule.round_plans:
        for tp in rp.tables:
            for pair in combinations(sorted(tp.seats.values()), 2):
                met[pair] += 1
    return met


def line_of(schedule, who):
    return engine.lines_for(schedule.seats)[(who - 1) // schedule.tables]


# --- the prime rule ---------------------------------------------------------------------
# Each property runs over every prime 5…101 (and, below, every T 4…60) inside one test per
# seat count: the assertion messages name T, and the suite stays at a few seconds.


def check_seats_filled(schedule, kind):
    assert schedule.kind == kind
    assert schedule.rounds == len(schedule.round_plans) == schedule.tables
    assert schedule.participants == schedule.seats * schedule.tables
    assert_every_seat_filled_once(schedule)


def check_each_set_once(schedule):
    plays = set_plays(schedule)
    assert set(plays.values()) == {1}, f"T={schedule.tables}: a set played twice"
    assert len(plays) == schedule.participants * schedule.tables, (
        f"T={schedule.tables}: someone missed a set"
    )


def check_meet_once_across_lines(schedule):
    met = meetings(schedule)
    for a, b in combinations(range(1, schedule.participants + 1), 2):
        same_line = line_of(schedule, a) == line_of(schedule, b)
        assert met[a, b] == (0 if same_line else 1), (schedule.tables, a, b)


def check_prime_moves(schedule):
    tables = schedule.tables
    rounds = sittings(schedule)
    for r in range(1, schedule.rounds):
        before, after = rounds[r - 1], rounds[r]
        for who, (table, position, _) in before.items():
            assert after[who][1] == position
            assert (after[who][0] - table) % tables == LINE_STEP[position] % tables, (
                tables,
                r + 1,
                who,
            )
        set_at = {tp.table: tp.set for tp in schedule.round_plans[r - 1].tables}
        for tp in schedule.round_plans[r].tables:
            # the set table t plays came from table t + 1 (sets move −1)
            assert tp.set == set_at[tp.table % tables + 1], (tables, r + 1, tp.table)


def check_round_one(schedule):
    tables = schedule.tables
    for tp in schedule.round(1).tables:
        t = tp.table
        expected = {"N": t, "E": tables + t, "S": 2 * tables + t, "W": 3 * tables + t}
        assert tp.seats == {p: expected[p] for p in engine.lines_for(schedule.seats)}
        assert tp.set == t


@pytest.mark.parametrize("seats", SEATS)
def test_prime_seats_everybody_once_and_fills_every_seat_each_round(seats):
    for tables in PRIMES:
        check_seats_filled(prime(tables, seats), "prime")


@pytest.mark.parametrize("seats", SEATS)
def test_prime_gives_each_participant_each_set_exactly_once_in_a_full_circle(seats):
    for tables in PRIMES:
        check_each_set_once(prime(tables, seats))


@pytest.mark.parametrize("seats", SEATS)
def test_prime_makes_lines_meet_exactly_once_and_never_within_a_line(seats):
    for tables in PRIMES:
        check_meet_once_across_lines(prime(tables, seats))


@pytest.mark.parametrize("seats", SEATS)
def test_prime_moves_n_stays_e_plus1_s_plus2_w_minus2_sets_minus1(seats):
    for tables in PRIMES:
        check_prime_moves(prime(tables, seats))


@pytest.mark.parametrize("seats", SEATS)
def test_prime_round_one_seats_n_t_e_T_plus_t_s_2T_plus_t_w_3T_plus_t(seats):
    for tables in PRIMES:
        check_round_one(prime(tables, seats))


def test_prime_round_two_passes_set_two_to_table_one():
    second = prime(5, 4).round(2)
    assert second.tables[0].set == 2
    assert second.tables[1].seats["E"] == 6 and second.tables[1].seats["N"] == 2


@settings(max_examples=25, deadline=None)
@given(data=st.data(), tables=st.sampled_from(PRIMES), seats=st.sampled_from(SEATS))
def test_a_shortened_prime_session_keeps_every_promise(data, tables, seats):
    rounds = data.draw(st.integers(1, tables), label="rounds")
    schedule = engine.prime_schedule(tables, seats, rounds)
    assert schedule.rounds == len(schedule.round_plans) == rounds
    assert_every_seat_filled_once(schedule)
    assert set(set_plays(schedule).values()) == {1}
    assert max(meetings(schedule).values()) == 1
    assert engine.metrics(schedule) == engine.generic_metrics(schedule)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), tables=st.sampled_from(PRIMES), seats=st.sampled_from(SEATS))
def test_any_two_players_of_different_lines_share_one_table_once(data, tables, seats):
    n = tables * seats
    a = data.draw(st.integers(1, n), label="a")
    b = data.draw(st.integers(1, n).filter(lambda x: x != a), label="b")
    schedule = prime(tables, seats)
    together = [
        rp.number
        for rp in schedule.round_plans
        for tp in rp.tables
        if a in tp.seats.values() and b in tp.seats.values()
    ]
    same_line = (a - 1) // tables == (b - 1) // tables
    assert len(together) == (0 if same_line else 1)


# --- the skip procedure ------------------------------------------------------------------


def check_skip_rule(schedule):
    """Every line moves as a block; N stays; a line goes past its base step only while
    each shorter move would give some member a set he already played; sets move −1."""
    tables, seats = schedule.tables, schedule.seats
    rounds = sittings(schedule)
    played = {who: {s} for who, (_, _, s) in rounds[0].items()}
    extra_seen = []
    for r in range(1, schedule.rounds):
        set_at = {tp.table: tp.set for tp in schedule.round_plans[r].tables}
        for i, line in enumerate(engine.lines_for(seats)):
            members = range(i * tables + 1, (i + 1) * tables + 1)
            moves = {(rounds[r][w][0] - rounds[r - 1][w][0]) % tables for w in members}
            assert len(moves) == 1, f"T={tables}: a line moves as one block"
            assert all(rounds[r][w][1] == line for w in members)
            base = LINE_STEP[line]
            direction = 1 if base >= 0 else -1
            extra = next(j for j in range(tables) if (base + direction * j) % tables in moves)
            if line == "N":
                assert extra == 0, f"T={tables}: N stays"
            for j in range(extra + 1):
                lands = {
                    w: (rounds[r - 1][w][0] - 1 + base + direction * j) % tables + 1
                    for w in members
                }
                meets_played = any(set_at[lands[w]] in played[w] for w in members)
                assert meets_played == (j < extra), (tables, r + 1, line, j)
            if extra:
                extra_seen.append((r + 1, line, extra))
        for who, (_, _, s) in rounds[r].items():
            played[who].add(s)
        before = {tp.table: tp.set for tp in schedule.round_plans[r - 1].tables}
        assert all(set_at[t] == before[t % tables + 1] for t in set_at), "sets move −1"
    assert sorted(extra_seen) == sorted((s.round, s.line, s.extra) for s in schedule.skips)
    assert engine.metrics(schedule)["skips"] == sum(e for _, _, e in extra_seen)


@pytest.mark.parametrize("seats", SEATS)
def test_skip_never_gives_a_participant_a_set_twice_in_t_rounds(seats):
    for tables in SKIP_TABLES:
        schedule = skip(tables, seats)
        # T rounds, never the same set twice: everyone plays every set exactly once
        check_each_set_once(schedule)
        assert engine.metrics(schedule)["set_repeats"] == 0


@pytest.mark.parametrize("seats", SEATS)
def test_skip_seats_everybody_once_and_fills_every_seat_each_round(seats):
    for tables in SKIP_TABLES:
        check_seats_filled(skip(tables, seats), "skip")
        check_round_one(skip(tables, seats))


@pytest.mark.parametrize("seats", SEATS)
def test_skip_moves_a_line_further_only_when_its_base_step_meets_played_sets(seats):
    for tables in SKIP_TABLES:
        check_skip_rule(skip(tables, seats))


@pytest.mark.parametrize("seats", SEATS)
def test_skip_takes_no_skip_when_tables_are_coprime_to_six(seats):
    for tables in SKIP_TABLES:
        schedule = skip(tables, seats)
        if tables % 6 in (1, 5):
            assert schedule.skips == (), tables
        if is_prime(tables) and tables >= 5:
            assert schedule.round_plans == prime(tables, seats).round_plans, tables


@pytest.mark.parametrize("seats", SEATS)
def test_skip_metrics_from_offsets_match_a_walk_over_every_table(seats):
    for tables in SKIP_TABLES:
        schedule = skip(tables, seats)
        assert engine.metrics(schedule) == engine.generic_metrics(schedule), tables


@pytest.mark.parametrize("seats", SEATS)
def test_prime_metrics_from_offsets_match_a_walk_over_every_table(seats):
    for tables in PRIMES:
        schedule = prime(tables, seats)
        assert engine.metrics(schedule) == engine.generic_metrics(schedule), tables


def test_skip_for_six_tables_moves_s_three_tables_in_round_three():
    schedule = skip(6, 4)
    assert (3, "S", 1) in [(s.round, s.line, s.extra) for s in schedule.skips]
    # 13 started at S of table 1: +2 to table 3 for round 2, then +3 to table 6
    table_of_13 = next(tp.table for tp in schedule.round(3).tables if tp.seats["S"] == 13)
    assert table_of_13 == 6


@settings(max_examples=25, deadline=None)
@given(data=st.data(), tables=st.sampled_from(SKIP_TABLES), seats=st.sampled_from(SEATS))
def test_a_shortened_skip_session_keeps_its_promise(data, tables, seats):
    rounds = data.draw(st.integers(1, tables), label="rounds")
    schedule = engine.skip_schedule(tables, seats, rounds)
    assert schedule.rounds == rounds
    assert set(set_plays(schedule).values()) == {1}
    assert all(s.round <= rounds for s in schedule.skips)
    assert engine.metrics(schedule) == engine.generic_metrics(schedule)


# --- refusals --------------------------------------------------------------------------


def test_it_refuses_a_table_count_that_is_not_prime_and_names_what_works():
    with pytest.raises(MovementError) as error:
        engine.prime_schedule(6, 4)
    assert "--skip" in str(error.value)
    assert "5 or 7" in str(error.value)


@pytest.mark.parametrize("tables", [1, 2, 3, 4])
def test_it_refuses_the_prime_rule_below_five_tables(tables):
    with pytest.raises(MovementError, match="5"):
        engine.prime_schedule(tables, 4)


@pytest.mark.parametrize("tables", [0, 1, 2, 3])
def test_it_refuses_the_skip_procedure_below_four_tables(tables):
    with pytest.raises(MovementError, match="at least 4 tables"):
        engine.skip_schedule(tables, 4)


@pytest.mark.parametrize("seats", [0, 2, 5])
def test_it_refuses_tables_of_other_than_three_or_four(seats):
    with pytest.raises(MovementError, match="3 or 4"):
        engine.prime_schedule(5, seats)


@pytest.mark.parametrize("rounds", [0, -1, 6])
def test_it_refuses_rounds_outside_one_to_t(rounds):
    with pytest.raises(MovementError, match="1 to 5"):
        engine.prime_schedule(5, 4, rounds)


# --- metrics ---------------------------------------------------------------------------


def test_metrics_are_json_serialisable_and_count_the_prime_balance():
    m = engine.metrics(prime(5, 4))
    assert json.loads(json.dumps(m)) == m
    # 20 participants: 150 cross-line pairs meet once, 4 lines × C(5, 2) never
    assert m["pair_meetings"] == {"0": 40, "1": 150}
    assert m["coverage"] == round(150 / 190, 4)
    assert m["opponents_met"] == {"min": 15, "max": 15, "possible": 19}
    assert m["set_repeats"] == 0 and m["pauses"] == 0 and m["skips"] == 0
    assert m["tables_per_set"] == {"min": 5, "max": 5, "sets": 5}
    assert m["positions"]["N"] == {"min": 0, "max": 5}
    assert m["positions"]["distinct"] == {"min": 1, "max": 1}


def test_metrics_of_three_seat_tables_have_no_w():
    m = engine.metrics(prime(7, 3))
    assert m["positions"]["W"] == {"min": 0, "max": 0}


def test_schedule_as_dict_has_the_command_line_shape():
    doc = prime(5, 4).as_dict()
    assert {"kind", "tables", "seats", "rounds", "participants", "schedule", "metrics"} <= set(doc)
    assert doc["schedule"][0]["tables"][0] == {
        "table": 1,
        "set": 1,
        "seats": {"N": 1, "E": 6, "S": 11, "W": 16},
    }
    assert json.loads(json.dumps(doc)) == doc


def test_the_engine_planner_and_scheme_reader_import_nothing_from_django():
    import subprocess
    import sys

    code = (
        "import sys, movements.engine, movements.planner, movements.schemes; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
