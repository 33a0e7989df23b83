"""Comparing results of one pocket across tables, and standings (scoring/compare/)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.compare import (
    CROSS_SCALE,
    Artificial,
    ArtificialScores,
    apply_penalties,
    compare_json,
    compare_pockets,
    cross,
    cross_imps,
    matchpoints,
    neuberg,
    points,
    rank_labels,
    standings,
)
from scoring.games.austrian import InvalidInput

scores_lists = st.lists(st.integers(-200, 100), min_size=1, max_size=30)


def refused(data) -> dict[str, list[str]]:
    with pytest.raises(InvalidInput) as caught:
        compare_json(data)
    return caught.value.problems.codes()


# --- Matchpoints --------------------------------------------------------------------------


def test_matchpoints_give_two_per_result_beaten_and_one_per_tie():
    result = matchpoints([60, 30, 30, -50])
    assert result.matchpoints == (6, 3, 3, 0)
    assert result.percent == (100, 50, 50, 0)
    assert result.top == 6


def test_the_contract_case_in_json():
    answer = compare_json({"method": "matchpoints", "scores": [60, 30, 30, -50], "expected": 4})
    assert answer["percent"] == [100.0, 50.0, 50.0, 0.0]
    assert answer["matchpoints"] == [6, 3, 3, 0]


def test_one_result_alone_gets_fifty_percent():
    assert matchpoints([70]).percent == (50,)
    assert compare_json({"scores": [70]})["percent"] == [50.0]
    assert matchpoints([70], expected=5).percent == (50,)


def test_neuberg_follows_the_formula_of_the_domain():
    # n = 3 of N = 5: P_N = (P_n − 50)·(2/3)·(5/4) + 50.
    result = matchpoints([60, 30, -50], expected=5)
    assert result.percent == (Fraction(275, 3), 50, Fraction(25, 3))
    assert result.top == 8
    assert result.matchpoints == tuple(p * 8 / 100 for p in result.percent)
    assert neuberg(Fraction(100), 3, 5) == Fraction(275, 3)


def test_neuberg_keeps_the_classic_form():
    # The bridge form on a top of 2(n − 1): MP_N = MP_n·N/n + (N/n − 1).
    for n, expected in [(2, 3), (3, 7), (5, 6)]:
        for mp in range(0, 2 * (n - 1) + 1):
            percent = Fraction(100 * mp, 2 * (n - 1))
            classic = Fraction(mp * expected, n) + Fraction(expected, n) - 1
            assert neuberg(percent, n, expected) * 2 * (expected - 1) / 100 == classic


def test_artificial_scores_get_their_percentages_and_stay_out_of_the_comparison():
    result = matchpoints([60, Artificial.PLUS, 30, Artificial.MINUS, Artificial.AVERAGE])
    # The two real results are Neuberg-adjusted from 2 to the 5 expected entries.
    assert result.percent[1::2] == (60, 40)
    assert result.percent[4] == 50
    assert result.percent[0] == neuberg(Fraction(100), 2, 5)
    assert result.played == 2


def test_artificial_percentages_are_configurable():
    custom = ArtificialScores(plus=Fraction(65), average=Fraction(50), minus=Fraction(35))
    assert matchpoints([10, Artificial.PLUS], artificial=custom).percent[1] == 65
    answer = compare_json({"scores": [10, "A-", 20], "artificial": {"A-": 30}})
    assert answer["percent"][1] == 30.0


def test_a_time_penalty_is_taken_from_the_penalised_only():
    answer = compare_json({"scores": [60, 30, 30, -50], "penalties": [0, 10, 0, 0]})
    assert answer["percent"] == [100.0, 50.0, 50.0, 0.0]
    assert answer["net"] == [100.0, 40.0, 50.0, 0.0]
    assert apply_penalties([Fraction(50), Fraction(10)], [0, 25]) == (50, -15)


def test_it_rejects_fewer_expected_results_than_given():
    assert refused({"scores": [1, 2, 3], "expected": 2}) == {"expected": ["expected_small"]}
    with pytest.raises(ValueError):
        matchpoints([1, 2, 3], expected=2)


def test_it_rejects_a_result_that_is_not_a_number():
    assert refused({"scores": [1, "x", True]}) == {
        "scores.1": ["score_value"],
        "scores.2": ["score_value"],
    }


def test_it_rejects_an_empty_comparison_and_an_unknown_method():
    assert refused({"scores": []}) == {"scores": ["scores_empty"]}
    assert refused({"method": "butler", "scores": [1]}) == {"method": ["choice"]}
    assert refused({"scores": [1], "extra": 1}) == {"extra": ["unknown_field"]}


def test_penalties_must_match_the_results():
    assert refused({"scores": [1, 2], "penalties": [1]}) == {"penalties": ["same_length"]}
    assert refused({"scores": [1, 2], "penalties": [1, -1]}) == {"penalties.1": ["amount"]}


@given(scores_lists)
def test_percentages_lie_between_zero_and_one_hundred_and_average_fifty(scores):
    result = matchpoints(scores)
    assert all(0 <= p <= 100 for p in result.percent)
    assert sum(result.percent) == Fraction(50) * len(scores)
    assert sum(result.matchpoints) == len(scores) * (len(scores) - 1)


@given(scores_lists, st.integers(0, 20))
def test_neuberg_percentages_stay_between_zero_and_one_hundred(scores, missing):
    result = matchpoints(scores, expected=len(scores) + missing)
    assert all(0 <= p <= 100 for p in result.percent)
    # Neuberg keeps the average at 50 %.
    assert sum(result.percent) == Fraction(50) * len(scores)


@given(scores_lists)
def test_neuberg_with_the_expected_count_equals_plain_matchpoints(scores):
    plain = matchpoints(scores)
    assert matchpoints(scores, expected=len(scores)) == plain
    assert all(neuberg(p, len(scores), len(scores)) == p for p in plain.percent)


@given(scores_lists)
def test_a_better_result_never_gets_a_lower_percentage(scores):
    result = matchpoints(scores)
    for a, pa in zip(scores, result.percent, strict=True):
        for b, pb in zip(scores, result.percent, strict=True):
            if a > b:
                assert pa > pb
            if a == b:
                assert pa == pb


# --- Points and cross ---------------------------------------------------------------------


def test_points_are_the_scores_with_shared_ranks():
    result = points([60, 30, 30, -50])
    assert result.points == (60, 30, 30, -50)
    assert result.rank == ("1", "2\u20133", "2\u20133", "4")


def test_artificial_points_are_the_average_plus_or_minus_a_trick():
    result = points([60, 20, Artificial.PLUS, Artificial.MINUS], stake=100)
    assert result.points[2:] == (50, 30)


def test_cross_compares_with_the_average_of_the_others():
    result = cross([60, 30, 30, -50])
    assert result.difference == (Fraction(170, 3), Fraction(50, 3), Fraction(50, 3), -90)
    # 60 vs 30, 30, −50: 3, 3 and 11 tricks → 3 + 3 + 7 = 13 over 3 others.
    assert result.imps[0] == Fraction(13, 3)


def test_cross_alone_is_zero():
    assert cross([40]) == cross([40]).__class__((0,), (0,))


@pytest.mark.parametrize(
    ("difference", "imps"),
    [(0, 0), (9, 0), (10, 1), (-10, -1), (35, 3), (50, 4), (60, 5), (100, 7), (200, 10), (900, 10)],
)
def test_the_cross_scale_counts_tricks(difference, imps):
    assert cross_imps(difference, stake=100) == imps
    assert cross_imps(difference * 2, stake=200) == imps


def test_the_cross_scale_is_monotonic():
    assert [t for t, _ in CROSS_SCALE] == sorted(t for t, _ in CROSS_SCALE)
    assert [i for _, i in CROSS_SCALE] == sorted(i for _, i in CROSS_SCALE)


@given(scores_lists)
def test_cross_differences_and_imps_sum_to_zero(scores):
    result = cross(scores)
    assert sum(result.difference) == 0
    assert sum(result.imps) == 0


def test_cross_in_json():
    answer = compare_json({"method": "cross", "scores": [60, 30, 30, -50]})
    assert answer["difference"] == [56.67, 16.67, 16.67, -90]
    assert answer["imps"] == [4.33, 1, 1, -6.33]


# --- Several pockets ----------------------------------------------------------------------


def test_each_pocket_is_compared_only_with_the_same_pocket():
    tables = [{"N": 60, "E": 30, "S": -90}, {"N": -100, "E": 50, "S": 50}, {"N": 70}]
    result = compare_pockets(tables)
    assert [t["N"]["percent"] for t in result] == [50, 0, 100]
    assert [t["E"]["percent"] for t in result[:2]] == [0, 100]
    assert "E" not in result[2]  # not played there: not scored


def test_pockets_in_json():
    answer = compare_json({"results": [{"N": 60, "E": 30}, {"N": 10, "E": 30}]})
    assert answer["percent"] == [{"N": 100.0, "E": 50.0}, {"N": 0.0, "E": 50.0}]


# --- Standings ----------------------------------------------------------------------------


def test_ties_share_the_rank():
    assert rank_labels([50, 70, 50, 40, 50]) == ["2\u20134", "1", "2\u20134", "5", "2\u20134"]
    assert rank_labels([3, 1], higher_is_better=False) == ["2", "1"]


def test_the_standing_is_the_average_percentage_over_scored_deals():
    table = standings({"Анна": [50, 60], "Борис": [55, 55], "Вера": [70], "Глеб": []})
    assert [(r.rank, r.key, r.total, r.deals) for r in table] == [
        ("1", "Вера", 70, 1),
        ("2\u20133", "Анна", 55, 2),
        ("2\u20133", "Борис", 55, 2),
        ("4", "Глеб", None, 0),
    ]


def test_the_standing_may_be_a_point_sum():
    table = standings({"a": [60, -90], "b": [10]}, by="sum")
    assert [(r.key, r.total) for r in table] == [("b", 10), ("a", -30)]
    with pytest.raises(ValueError):
        standings({"a": [1]}, by="median")


def test_the_standing_in_json():
    answer = compare_json({"method": "standing", "players": {"a": [50, 61], "b": [40]}})
    assert answer == {
        "standing": [
            {"rank": "1", "player": "a", "total": 55.5, "deals": 2},
            {"rank": "2", "player": "b", "total": 40, "deals": 1},
        ]
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.floats()
    | st.sampled_from(["A+", "A", "A-", "x", "N", "average", "sum", "points", "cross"]),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(["N", "E", "S", "A+", "a", "b"]), inner, max_size=3),
    max_leaves=15,
)  # fmt: skip
request_keys = st.sampled_from(
    ["method", "scores", "results", "expected", "penalties", "artificial", "stake", "players", "by"]
)


@given(st.dictionaries(request_keys, json_values, max_size=4))
def test_any_request_gets_an_answer_or_named_errors_never_a_crash(payload):
    try:
        compare_json(payload)
    except InvalidInput as error:
        assert error.render() and error.render("en")
