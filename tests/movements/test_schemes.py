"""The seed's special schemes (fixture) and the validator of custom schemes."""

import copy
import json
from collections import Counter
from itertools import combinations

import pytest

from movements import engine
from movements.schemes import (
    FIXTURE,
    SchemeInvalid,
    builtin_counts,
    builtin_scheme,
    load_schemes,
    validate_scheme,
)

COUNTS = [8, 9, 12, 13, 16, 18, 24]
ROUTE_LENGTH = {8: 7, 9: 9, 12: 11, 13: 13, 16: 7, 18: 9, 24: 11}


def schedule(n):
    return engine.builtin_scheme_schedule(n)


def meetings(sched):
    met = Counter()
    for rp in sched.round_plans:
        for tp in rp.tables:
            for pair in combinations(sorted(tp.seats.values()), 2):
                met[pair] += 1
    return met


def seat_of(sched, who):
    """round number → (table, position) or None for a pause."""
    out = {}
    for rp in sched.round_plans:
        out[rp.number] = next(
            ((tp.table, pos) for tp in rp.tables for pos, w in tp.seats.items() if w == who),
            None,
        )
    return out


# --- the fixture -------------------------------------------------------------------------


def test_the_fixture_holds_the_seven_schemes_of_the_seed():
    assert builtin_counts() == COUNTS
    rows = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert {row["model"] for row in rows} == {"movements.scheme"}
    assert all(row["fields"]["builtin"] and row["fields"]["owner"] is None for row in rows)
    assert set(load_schemes()) == set(COUNTS)


@pytest.mark.parametrize("n", COUNTS)
def test_every_builtin_scheme_is_valid(n):
    assert validate_scheme(builtin_scheme(n)) == []


@pytest.mark.parametrize("n", COUNTS)
def test_every_scheme_seats_each_participant_once_per_round_or_pauses_him(n):
    sched = schedule(n)
    assert sched.kind == "scheme"
    assert sched.participants == n
    assert sched.rounds == len(sched.round_plans) == ROUTE_LENGTH[n]
    for rp in sched.round_plans:
        seated = [w for tp in rp.tables for w in tp.seats.values()]
        assert len(seated) == len(set(seated))
        assert sorted(seated + list(rp.pauses)) == list(range(1, n + 1))
        assert all(len(tp.seats) in (3, 4) for tp in rp.tables)


@pytest.mark.parametrize("n", COUNTS)
def test_every_scheme_gives_no_participant_a_set_twice(n):
    assert engine.metrics(schedule(n))["set_repeats"] == 0


@pytest.mark.parametrize("n", COUNTS)
def test_each_group_of_tables_sharing_a_set_gets_a_fresh_set_every_round(n):
    sched = schedule(n)
    data = builtin_scheme(n)
    seen = set()
    for rp in sched.round_plans:
        set_at = {tp.table: tp.set for tp in rp.tables}
        sets_this_round = set()
        for group in data["set_groups"]:
            values = {set_at[t] for t in group}
            assert len(values) == 1, (rp.number, group)
            sets_this_round |= values
        assert len(sets_this_round) == len(data["set_groups"])
        assert not sets_this_round & seen
        seen |= sets_this_round


@pytest.mark.parametrize("n", [8, 13])
def test_every_pair_meets_exactly_three_times_in_the_8_and_13_schemes(n):
    met = meetings(schedule(n))
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {3}


def test_every_pair_within_a_group_of_the_16_scheme_meets_three_times_and_groups_never_meet():
    met = meetings(schedule(16))
    for a, b in combinations(range(1, 17), 2):
        same_group = (a <= 8) == (b <= 8)
        assert met[a, b] == (3 if same_group else 0), (a, b)


@pytest.mark.parametrize(
    "n, who, seat",
    [
        (8, 8, (1, "N")),
        (12, 12, (1, "N")),
        (16, 8, (1, "N")),
        (16, 16, (3, "E")),
        (24, 12, (1, "N")),
        (24, 24, (4, "E")),
    ],
)
def test_a_fixed_participant_never_moves(n, who, seat):
    assert set(seat_of(schedule(n), who).values()) == {seat}


def test_scheme_8_round_one_puts_1_at_1s_and_8_at_1n_and_both_tables_share_a_set():
    first = {tp.table: tp for tp in schedule(8).round(1).tables}
    assert first[1].seats == {"N": 8, "E": 4, "S": 1, "W": 2}
    assert first[2].seats == {"N": 5, "E": 7, "S": 6, "W": 3}
    assert first[1].set == first[2].set


def test_participant_k_sits_at_route_entry_k_plus_r_minus_2_of_the_8_route():
    route = ["1S", "1W", "2W", "1E", "2N", "2S", "2E"]
    sched = schedule(8)
    for k in range(1, 8):
        for r, (table, pos) in seat_of(sched, k).items():
            assert f"{table}{pos}" == route[(k - 1 + r - 1) % 7]


def test_scheme_9_pauses_one_participant_a_round_each_once():
    sched = schedule(9)
    assert [rp.pauses for rp in sched.round_plans[:3]] == [(1,), (9,), (8,)]
    assert sorted(p for rp in sched.round_plans for p in rp.pauses) == list(range(1, 10))


def test_scheme_16_numbers_the_second_group_on_from_the_first():
    first = {tp.table: tp.seats for tp in schedule(16).round(1).tables}
    # participants 9–15 take entries 1–7 of 3W 3N 4N 3S 4E 4W 4S; 16 sits at 3E
    assert first[3] == {"N": 10, "E": 16, "S": 12, "W": 9}
    assert first[4] == {"N": 11, "E": 13, "S": 15, "W": 14}


def test_scheme_12_gives_each_table_its_own_set():
    sets = [tp.set for tp in schedule(12).round(1).tables]
    assert len(set(sets)) == 3


def test_scheme_13_plays_table_1_alone_and_tables_2_and_3_together():
    set_at = {tp.table: tp.set for tp in schedule(13).round(1).tables}
    assert set_at[2] == set_at[3] != set_at[1]
    assert schedule(13).round(1).pauses == (1,)


def test_scheme_24_shares_sets_between_tables_1_4_2_5_3_6():
    set_at = {tp.table: tp.set for tp in schedule(24).round(1).tables}
    assert set_at[1] == set_at[4] and set_at[2] == set_at[5] and set_at[3] == set_at[6]
    assert len({set_at[1], set_at[2], set_at[3]}) == 3
    first = {tp.table: tp.seats for tp in schedule(24).round(1).tables}
    assert first[4]["E"] == 24 and first[4]["W"] == 13


def test_scheme_18_has_two_groups_of_nine_that_never_meet():
    met = meetings(schedule(18))
    assert not any((a <= 9) != (b <= 9) for a, b in met)
    assert schedule(18).round(1).pauses == (1, 10)


def test_scheme_metrics_show_the_balance_of_the_uneven_routes():
    m = engine.metrics(schedule(12))
    assert m["coverage"] == 1.0
    assert len(m["pair_meetings"]) > 1  # not every pair meets equally often
    assert json.loads(json.dumps(m)) == m


def test_it_refuses_a_participant_count_without_a_scheme_and_lists_the_counts():
    with pytest.raises(engine.MovementError) as error:
        engine.builtin_scheme_schedule(10)
    assert "8, 9, 12, 13, 16, 18, 24" in str(error.value)


# --- the validator --------------------------------------------------------------------------


def eight():
    return copy.deepcopy(builtin_scheme(8))


def codes(errors):
    return [e.code for e in errors]


def only(errors, code):
    found = [e for e in errors if e.code == code]
    assert found, f"no {code} in {codes(errors)}"
    return found[0]


def test_it_names_round_and_seat_when_two_participants_share_a_seat():
    data = eight()
    data["groups"][0]["route"][6] = "2S"  # 2S twice, 2E nobody's
    error = only(validate_scheme(data), "seat_taken")
    assert (error.round, error.table, error.position) == (1, 2, "S")
    assert error.message == "тур 1, стол 2 S: участники 6 и 7 сидят на одном месте"
    assert error.message_en == "round 1, table 2 S: participants 6 and 7 both sit here"


def test_it_refuses_a_fixed_participant_on_a_seat_of_the_route():
    data = eight()
    data["groups"][0]["fixed"] = {"8": "1S"}
    error = only(validate_scheme(data), "fixed_on_route")
    assert (error.round, error.table, error.position) == (1, 1, "S")
    assert "закреплённый участник 8" in error.message


def test_it_refuses_a_participant_seated_twice_in_a_round():
    data = eight()
    data["groups"][0]["fixed"] = {"3": "1N"}  # 3 also walks the route
    errors = validate_scheme(data)
    error = only(errors, "seated_twice")
    assert error.round == 1 and error.table == 1 and error.position == "N"
    assert "участник 3" in error.message
    assert only(errors, "unseated").round == 1  # and 8 has no seat at all


def test_it_refuses_a_fixed_participant_who_pauses():
    data = eight()
    data["groups"][0]["fixed"] = {"8": "P"}
    assert "fixed_pause" in codes(validate_scheme(data))


def test_it_refuses_a_route_entry_that_is_not_a_seat():
    data = eight()
    data["groups"][0]["route"][2] = "2X"
    error = only(validate_scheme(data), "bad_seat")
    assert "«2X»" in error.message and "шаг 3" in error.message


def test_it_refuses_set_groups_naming_a_table_that_does_not_exist():
    data = eight()
    data["set_groups"] = [[1, 2, 3]]
    error = only(validate_scheme(data), "set_group_table")
    assert error.table == 3


def test_it_refuses_a_table_in_two_set_groups_or_in_none():
    data = eight()
    data["set_groups"] = [[1, 2], [2]]
    assert only(validate_scheme(data), "set_group_twice").table == 2
    data["set_groups"] = [[1]]
    assert only(validate_scheme(data), "set_group_missing").table == 2


def test_it_refuses_routes_of_different_lengths():
    data = copy.deepcopy(builtin_scheme(16))
    data["groups"][1]["route"].append("P")
    data["participants"] = 17
    assert codes(validate_scheme(data)) == ["route_lengths"]


def test_it_refuses_a_table_with_fewer_than_three_players():
    data = {
        "participants": 6,
        "groups": [{"route": ["1N", "1E", "1S", "2N", "2E", "P"], "fixed": {}}],
        "set_groups": [[1, 2]],
    }
    error = only(validate_scheme(data), "too_few")
    assert error.table == 2


def test_it_refuses_three_players_who_leave_a_seat_other_than_w_empty():
    data = {
        "participants": 6,
        "groups": [{"route": ["1N", "1E", "1S", "2N", "2E", "2W"], "fixed": {}}],
        "set_groups": [[1, 2]],
    }
    error = only(validate_scheme(data), "three_without_w")
    assert (error.table, error.position) == (2, "S")


def test_it_accepts_three_player_tables_with_w_empty():
    data = {
        "participants": 7,
        "groups": [{"route": ["1N", "1E", "1S", "2N", "2E", "2S", "P"], "fixed": {}}],
        "set_groups": [[1, 2]],
    }
    assert validate_scheme(data) == []
    sched = engine.scheme_schedule(data)
    assert sched.seats == 3 and sched.rounds == 7
    assert all(len(rp.pauses) == 1 for rp in sched.round_plans)


def test_it_refuses_a_declared_participant_count_the_routes_do_not_give():
    data = eight()
    data["participants"] = 9
    assert "participants" in codes(validate_scheme(data))


def test_it_refuses_a_gap_in_table_numbers():
    data = {
        "participants": 8,
        "groups": [{"route": ["1N", "1E", "1S", "1W", "3N", "3E", "3S", "3W"], "fixed": {}}],
        "set_groups": [[1, 3]],
    }
    assert only(validate_scheme(data), "table_gap").table == 2


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"groups": []},
        {"groups": [{"route": []}]},
        {"groups": [{"route": ["1N"]}], "set_groups": "1,2"},
    ],
)
def test_it_refuses_malformed_schemes_without_raising(data):
    errors = validate_scheme(data)
    assert errors and all(e.message and e.message_en for e in errors)


def test_errors_are_structured_for_the_interface():
    data = eight()
    data["groups"][0]["route"][6] = "2S"
    error = validate_scheme(data)[0].as_dict()
    assert set(error) == {"code", "message", "message_en", "round", "table", "position"}
    assert json.loads(json.dumps(error, ensure_ascii=False)) == error


def test_the_engine_refuses_to_build_an_invalid_scheme():
    data = eight()
    data["groups"][0]["route"][6] = "2S"
    with pytest.raises(SchemeInvalid) as error:
        engine.scheme_schedule(data)
    assert error.value.errors[0].code == "seat_taken"


# --- the model ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_fixture_loads_into_the_scheme_model_and_every_row_is_clean():
    from django.core.management import call_command

    from movements.models import Scheme

    call_command("loaddata", "schemes", verbosity=0)
    schemes = list(Scheme.objects.all())
    assert [s.participants for s in schemes] == COUNTS
    for scheme in schemes:
        scheme.full_clean()
        assert scheme.builtin and scheme.owner is None
        assert scheme.as_scheme() == builtin_scheme(scheme.participants)


@pytest.mark.django_db
def test_the_scheme_model_refuses_an_invalid_scheme_naming_round_and_seat(director):
    from django.core.exceptions import ValidationError

    from movements.models import Scheme

    data = eight()
    data["groups"][0]["route"][6] = "2S"
    scheme = Scheme(
        participants=8,
        name="моя схема",
        owner=director,
        data={"groups": data["groups"], "set_groups": data["set_groups"]},
    )
    with pytest.raises(ValidationError) as error:
        scheme.full_clean()
    assert "тур 1, стол 2 S" in " ".join(error.value.message_dict["data"])


def test_it_refuses_a_participant_who_sits_and_pauses_in_one_round():
    data = copy.deepcopy(builtin_scheme(9))
    data["participants"] = None
    data["groups"][0]["fixed"] = {"1": "3N"}  # 1 pauses in round 1 on the route
    error = only(validate_scheme(data), "seated_and_paused")
    assert (error.round, error.table, error.position) == (1, 3, "N")
    assert error.message == "тур 1, стол 3 N: участник 1 одновременно сидит и отдыхает"


BROKEN_SCHEMES = [
    {
        "groups": [{"route": ["1N", "1N", "1E", "3S", "4N", "4E", "4W", "P"]}],
        "set_groups": [[1], [1, 9]],
    },
    [],
    {"groups": []},
    {"groups": [{"route": []}], "set_groups": [[1]]},
    {"groups": [{"route": ["1N", "X9"], "fixed": {"a": "1S", "3": "P"}}], "set_groups": "no"},
    {
        "participants": 9,
        "groups": [{"route": ["1N", "1E", "1N", "3S"]}, {"route": ["2N"]}],
        "set_groups": [[1], [1, 7]],
    },
    {
        "groups": [{"route": ["1N", "1E", "1S", "1W", "P", "P"], "fixed": {"9": "1N"}}],
        "set_groups": [[1]],
    },
]


@pytest.mark.parametrize("data", BROKEN_SCHEMES)
def test_every_broken_rule_is_worded_in_both_languages_from_the_one_catalogue(data):
    """The validator's words are the project's catalogue's (events.catalogue): each error
    has its Russian and its English, every parameter filled in."""
    import re

    errors = validate_scheme(data)
    assert errors
    for error in errors:
        assert "{" not in error.message and "{" not in error.message_en, error
        assert re.search("[а-яё]", error.message), error.message
        assert not re.search("[а-яё]", error.message_en), error.message_en


def test_a_count_in_a_message_takes_its_plural_form_in_each_language():
    errors = validate_scheme(BROKEN_SCHEMES[0])
    few = {e.table: e for e in errors if e.code == "too_few"}
    assert "за столом 1 игрок," in few[3].message and "1 player," in few[3].message_en
    assert "за столом 2 игрока," in few[1].message and "2 players," in few[1].message_en
