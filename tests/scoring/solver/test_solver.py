"""The double-dummy solver (scoring.solver, docs/analysis.md): against a plain minimax of the
rules on many small random positions, on hand-worked examples of each rule of play
(docs/game.md §2.5), and its whole table of a ten-card deal against each cell solved alone.
No database."""

from __future__ import annotations

import functools
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.cards import SUIT_NAMES, deal_from_seed, parse_card
from scoring.solver import PositionError, deal_table, discard_order, engine, solve

# --- The plain reference: a minimax straight from the rules, no pruning ------------------

SEATS = "WNES"


def legal(hand, led, trump):
    """Follow suit and beat the card led if you can; void, trump if you can; else any."""
    if led is None:
        return list(hand)
    same = [c for c in hand if c // 8 == led // 8]
    if same:
        higher = [c for c in same if c % 8 > led % 8]
        return higher or same
    trumps = [c for c in hand if c // 8 == trump]
    return trumps or list(hand)


def winner(trick, trump):
    """The player of the highest trump of the trick, else of the highest card led."""
    trumps = [(c, p) for p, c in trick if c // 8 == trump]
    if trumps:
        return max(trumps)[1]
    led_suit = trick[0][1] // 8
    return max((c, p) for p, c in trick if c // 8 == led_suit)[1]


def play(hands, order, declarer, trump, leader, legal=legal):
    """The declarer's tricks from here, every player at his best; ``order`` is the seats in
    play, clockwise; ``leader`` leads."""
    if not hands[leader]:
        return 0
    start = order.index(leader)
    players = order[start:] + order[:start]

    def turn(k, trick, hands):
        if k == len(players):
            won = winner(trick, trump)
            return (won == declarer) + play(hands, order, declarer, trump, won, legal)
        seat = players[k]
        led = trick[0][1] if trick else None
        results = []
        for card in legal(hands[seat], led, trump):
            rest = dict(hands)
            rest[seat] = tuple(c for c in hands[seat] if c != card)
            results.append(turn(k + 1, [*trick, (seat, card)], rest))
        return max(results) if seat == declarer else min(results)

    return turn(0, [], hands)


def tricks(hands, declarer, trump, defence="both", legal=legal, leader=None):
    """The declarer's tricks; ``trump`` a suit index; a lone whister's partner sits out."""
    order = [s for s in SEATS if s in hands]
    if defence != "both":
        order = [s for s in order if s in (declarer, defence)]
    in_play = {s: tuple(hands[s]) for s in order}
    return play(in_play, order, declarer, trump, leader or declarer, legal)


def with_talon(hands, declarer, trump, talon, defence="both"):
    """{discard pair: tricks} over every pair of the declarer's hand and the talon."""
    full = sorted([*hands[declarer], *talon])
    out = {}
    for pair in combinations(full, 2):
        kept = dict(hands)
        kept[declarer] = tuple(c for c in full if c not in pair)
        out[pair] = tricks(kept, declarer, trump, defence)
    return out


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def position(**hands: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    return {seat: cards(*names) for seat, names in hands.items()}


# --- Hand-worked examples, one per rule ---------------------------------------------------


def test_the_led_card_must_be_beaten_not_the_trick_winner():
    """N leads H7, E must beat it (HJ); S must beat the H7 — not E's HJ — so H10 will do:
    S keeps HA for E's S9 lead, which N must ruff with HK. Had S been made to beat HJ, he
    would spend HA at once and N's HK would take the H10 after: 1 trick."""
    hands = position(N=("H7", "HK"), E=("S9", "HJ"), S=("H10", "HA"))
    assert engine.legal(sum(1 << c for c in hands["S"]), parse_card("H7"), 3) == (
        1 << parse_card("H10")
    ) | (1 << parse_card("HA"))
    assert solve(hands, "N", "hearts") == (0, None)
    assert tricks(hands, "N", 3) == 0


def test_beating_the_led_card_is_compulsory_when_possible():
    """Holding SJ and S7 over a led S8, only SJ may be played; below the led card (or void
    of higher ones) any card of the suit."""
    hand = sum(1 << c for c in cards("SJ", "S7", "D7"))
    assert engine.legal(hand, parse_card("S8"), 3) == 1 << parse_card("SJ")
    assert engine.legal(hand, parse_card("SQ"), 3) == sum(1 << c for c in cards("SJ", "S7"))


def test_void_in_the_suit_led_one_must_trump():
    """N leads HJ; E, void in hearts, must ruff with his only trump SA (S's HK would have
    won it), and N's SQ then ruffs E's DQ: 1 trick. Allowed to throw DQ, E would keep SA
    and N would take nothing."""
    hands = position(N=("SQ", "HJ"), E=("SA", "DQ"), S=("DA", "HK"))
    assert solve(hands, "N", "spades") == (1, None)
    assert tricks(hands, "N", 0) == 1
    hand = sum(1 << c for c in cards("SA", "DQ"))
    assert engine.legal(hand, parse_card("HJ"), 0) == 1 << parse_card("SA")


def test_no_obligation_to_overtrump():
    """N leads SJ; E ruffs with H10; S, void too, must trump but may underruff with H7 and
    keep HA over N's HJ at the last trick: 0 tricks. Made to overtrump, S would spend HA
    and N's HJ would beat the H7 led after: 1."""
    hands = position(N=("SJ", "HJ"), E=("D7", "H10"), S=("H7", "HA"))
    assert solve(hands, "N", "hearts") == (0, None)
    assert tricks(hands, "N", 3) == 0
    hand = sum(1 << c for c in cards("H7", "HA"))
    assert engine.legal(hand, parse_card("SJ"), 3) == hand


def test_trump_led_is_followed_and_beaten_like_any_suit():
    hand = sum(1 << c for c in cards("H9", "HK", "S7"))
    assert engine.legal(hand, parse_card("H10"), 3) == 1 << parse_card("HK")
    assert engine.legal(hand, parse_card("HA"), 3) == sum(1 << c for c in cards("H9", "HK"))


def test_void_in_both_any_card():
    hand = sum(1 << c for c in cards("C7", "DA"))
    assert engine.legal(hand, parse_card("S9"), 3) == hand


def test_the_declarer_leads_the_first_trick():
    """N's C9 takes the trick when he leads it; led to by E's H10 it would lose."""
    hands = position(N=("C9",), E=("H10",), S=("H8",))
    assert solve(hands, "N", "diamonds") == (1, None)
    assert tricks(hands, "N", 2, leader="E") == 0


def test_the_winner_of_a_trick_leads_the_next():
    """N wins D10 (S cannot beat it and plays D9) and leads again: D7 also wins, 2 tricks.
    Had E led the second trick, his SK would have won it."""
    hands = position(N=("D7", "D10"), E=("SK", "HK"), S=("S8", "D9"))
    assert solve(hands, "N", "clubs") == (2, None)


def test_a_lone_whister_plays_two_handed():
    """Both defending, S ruffs N's SA and takes both; S passing (out of play), E alone
    cannot stop SA and takes SK over S7: tricks of two cards, N then E."""
    hands = position(N=("SA", "S7"), E=("SK", "SQ"), S=("H7", "H8"))
    assert solve(hands, "N", "hearts") == (0, None)
    assert solve(hands, "N", "hearts", defence="E") == (1, None)
    assert tricks(hands, "N", 3, defence="E") == 1


def test_any_three_seats_clockwise():
    """W, N, S: W → N → S → W. N declares and leads; S plays after N, W last."""
    hands = position(W=("S8",), N=("S9",), S=("SA",))
    assert solve(hands, "N", "hearts") == (0, None)
    hands = position(W=("H7",), N=("S9",), S=("S8",))
    assert solve(hands, "N", "hearts") == (0, None)
    assert solve(hands, "N", "hearts", defence="S") == (1, None)


def test_the_talon_keeps_the_aces():
    hands = position(N=("S7", "C7"), E=("SK", "CK"), S=("SQ", "CQ"))
    tricks_, discard = solve(hands, "N", "diamonds", talon=cards("SA", "CA"))
    assert tricks_ == 2 and set(discard) == set(cards("S7", "C7"))


def test_the_discard_is_the_first_best_in_the_fixed_order():
    hands = position(N=("SA", "SK"), E=("S7", "C7"), S=("S8", "C8"))
    tricks_, discard = solve(hands, "N", "hearts", talon=cards("D7", "D8"))
    assert tricks_ == 2
    order = discard_order(cards("SA", "SK", "D7", "D8"), 3)
    assert discard == order[0] == cards("D7", "D8")


def test_bad_input_raises_position_error():
    with pytest.raises(PositionError) as error:
        solve({"N": (0, 0), "E": (1, 2), "S": (3, 4)}, "N", "hearts")
    assert "hands" in error.value.errors
    with pytest.raises(PositionError) as error:
        solve({"N": (0,), "E": (1,), "S": (3,)}, "W", "trumps", defence="N")
    assert set(error.value.errors) == {"declarer", "trump", "defence"}


# --- Against the reference on random small positions --------------------------------------


@st.composite
def small_positions(draw):
    seats = draw(st.sampled_from(["WNE", "NES", "ESW", "SWN", "WNS", "WES", "NEW", "NSW"]))
    seats = [s for s in SEATS if s in seats]
    has_talon = draw(st.booleans())
    n = draw(st.integers(1, 3 if has_talon else 4))
    # Cards from one to four suits: few suits make following, beating and ruffing common.
    room = 3 * n + (2 if has_talon else 0)
    suits = draw(st.lists(st.integers(0, 3), min_size=(room + 7) // 8, max_size=4, unique=True))
    deck = draw(st.permutations([s * 8 + r for s in suits for r in range(8)]))
    hands = {s: tuple(deck[i * n : (i + 1) * n]) for i, s in enumerate(seats)}
    talon = tuple(deck[3 * n : 3 * n + 2]) if has_talon else None
    declarer = draw(st.sampled_from(seats))
    defence = draw(st.sampled_from(["both", *[s for s in seats if s != declarer]]))
    trump = draw(st.integers(0, 3))
    return hands, declarer, trump, defence, talon


@settings(
    max_examples=400,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_positions())
def test_the_solver_agrees_with_the_plain_minimax(case):
    hands, declarer, trump, defence, talon = case
    got, discard = solve(hands, declarer, SUIT_NAMES[trump], defence, talon)
    if talon is None:
        assert discard is None
        assert got == tricks(hands, declarer, trump, defence)
        return
    every = with_talon(hands, declarer, trump, talon, defence)
    assert got == max(every.values())
    full = [*hands[declarer], *talon]
    first_best = next(p for p in discard_order(full, trump) if every[tuple(sorted(p))] == got)
    assert discard == first_best


def memoised_tricks(hands, declarer, trump, defence="both"):
    """The same minimax with a memo of positions at trick boundaries (no pruning, no bounds,
    no equivalent cards): fast enough for five-card hands, where the solver's table and its
    relative-rank keys are used in earnest."""
    order = tuple(
        s for s in SEATS if s in hands and (defence == "both" or s in (declarer, defence))
    )

    @functools.cache
    def from_here(held, leader):
        if not held[order.index(leader)]:
            return 0
        start = order.index(leader)
        players = order[start:] + order[:start]

        def turn(k, trick, held):
            if k == len(players):
                won = winner(trick, trump)
                return (won == declarer) + from_here(held, won)
            seat = players[k]
            i = order.index(seat)
            led = trick[0][1] if trick else None
            results = [
                turn(k + 1, [*trick, (seat, c)], held[:i] + (held[i] - {c},) + held[i + 1 :])
                for c in legal(sorted(held[i]), led, trump)
            ]
            return max(results) if seat == declarer else min(results)

        return turn(0, [], held)

    return from_here(tuple(frozenset(hands[s]) for s in order), declarer)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(
    st.integers(4, 5),
    st.lists(st.integers(0, 3), min_size=2, max_size=3, unique=True),
    st.randoms(use_true_random=False),
)
def test_five_card_positions_agree_with_a_memoised_minimax(n, suits, rnd):
    deck = [s * 8 + r for s in suits for r in range(8)]
    if len(deck) < 3 * n:
        deck = list(range(32))
    rnd.shuffle(deck)
    seats = rnd.choice(["WNE", "NES", "WES", "WNS"])
    hands = {s: tuple(deck[i * n : (i + 1) * n]) for i, s in enumerate(seats)}
    declarer = rnd.choice(seats)
    defence = rnd.choice(["both", "both", *[s for s in seats if s != declarer]])
    trump = rnd.choice([*suits, rnd.randrange(4)])
    got = solve(hands, declarer, SUIT_NAMES[trump], defence)
    assert got == (memoised_tricks(hands, declarer, trump, defence), None)


def test_positions_alike_but_for_gone_low_cards_share_a_key():
    """The table's key is the order of the cards still in play, suit by suit, by owner:
    N's SA SK over E's S9 is N's SK SQ over E's S8 once the others are gone; it is not
    E's S9 over N's S8."""
    key = engine._relative_key

    def masks(n, e, s):
        return np.array([sum(1 << c for c in cards(*h)) for h in (n, e, s)], np.int64)

    one = masks(("SA", "SK"), ("S9", "H7"), ("C7", "D7"))
    two = masks(("SK", "SQ"), ("S8", "H8"), ("C9", "DJ"))
    three = masks(("S8", "SK"), ("S9", "H7"), ("C7", "D7"))
    swapped = masks(("SA", "SK"), ("C7", "H7"), ("S9", "D7"))
    live = [int(m[0] | m[1] | m[2]) for m in (one, two, three, swapped)]
    assert key(one, live[0], 0, 0, 3) == key(two, live[1], 0, 0, 3)
    assert key(one, live[0], 0, 0, 3) != key(three, live[2], 0, 0, 3)
    assert key(one, live[0], 0, 0, 3) != key(swapped, live[3], 0, 0, 3)
    assert key(one, live[0], 0, 0, 3) != key(one, live[0], 1, 0, 3)
    assert key(one, live[0], 0, 0, 3) != key(one, live[0], 0, 0, 2)


# --- The whole table ----------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_the_whole_table_is_each_cell_solved_alone(number):
    deal = deal_from_seed("analysis-table", 1, 1, number, ("E", "S", "W"))
    hands = {seat: list(hand) for seat, hand in deal.by_seat()}
    table = deal_table(hands, list(deal.talon))
    assert list(table) == ["W", "E", "S"]
    for seat in table:
        assert list(table[seat]) == list(SUIT_NAMES)
        for suit in SUIT_NAMES:
            alone = solve(hands, seat, suit)[0]
            talon, discard = solve(hands, seat, suit, talon=deal.talon)
            assert table[seat][suit] == {"talon": talon, "no_talon": alone}
            assert talon >= alone
            kept = {s: h for s, h in hands.items()}
            kept[seat] = [c for c in [*hands[seat], *deal.talon] if c not in discard]
            assert solve(kept, seat, suit) == (talon, None)


def test_a_ten_card_position_is_solved_the_same_after_any_earlier_one():
    """The table of one call is never read by another (a new generation per call)."""
    deal = deal_from_seed("analysis-order", 1, 1, 1, ("N", "E", "S"))
    hands = {seat: list(hand) for seat, hand in deal.by_seat()}
    first = solve(hands, "N", "spades")
    other = deal_from_seed("analysis-order", 1, 1, 2, ("N", "E", "S"))
    solve({seat: list(hand) for seat, hand in other.by_seat()}, "N", "spades")
    assert solve(hands, "N", "spades") == first


WITHOUT_NUMBA = """
import importlib.abc, sys

class NoNumba(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "numba" or name.startswith("numba."):
            raise ImportError(name)
        return None

sys.meta_path.insert(0, NoNumba())
from events.cards import parse_card
from scoring.solver import engine, solve

def hand(*names):
    return [parse_card(n) for n in names]

assert not engine.COMPILED
print(solve({"N": hand("SQ", "HJ"), "E": hand("SA", "DQ"), "S": hand("DA", "HK")}, "N", "spades"))
print(solve({"N": hand("S7", "C7"), "E": hand("SK", "CK"), "S": hand("SQ", "CQ")}, "N",
            "diamonds", talon=hand("SA", "CA")))
"""


def test_without_numba_the_same_engine_runs_as_plain_python():
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", WITHOUT_NUMBA],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["(1, None)", "(2, (0, 8))"]
