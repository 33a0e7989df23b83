"""The solver under the Russian game's play rules (docs/analysis.md «Russian play rules»): no duty to beat the card led, first hand leads the
first trick whatever the contract, БК (no trump) and мизер (the declarer takes the fewest
tricks he can, his discard too), the defence always both hands.

One engine with the rules as parameters, so it is checked against a plain minimax written
here from the rules, for every combination of them — duty to beat on and off × a trump or
none × maximise or minimise × with or without the talon × the declarer or a named seat
leading — and each rule is shown to matter: the same minimax with one rule broken gives
another answer on some position, and the solver answers as the right one. No database.
"""

from __future__ import annotations

import functools
import random
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.cards import SUIT_NAMES, deal_from_seed, parse_card
from scoring.solver import (
    AUSTRIAN_PLAY,
    MISERE,
    NOTRUMP,
    RUSSIAN_PLAY,
    PlayRules,
    PositionError,
    deal_table,
    discard_order,
    engine,
    solve,
)

SEATS = "WNES"

# --- The plain reference: a minimax straight from the rules ------------------------------


def legal(hand, led, trump, beat):
    """Follow suit (and, with the duty, beat the card led if you can); void, trump if you
    can; else any card. ``trump`` None: no trump."""
    if led is None:
        return list(hand)
    same = [c for c in hand if c // 8 == led // 8]
    if same:
        if beat:
            return [c for c in same if c % 8 > led % 8] or same
        return same
    trumps = [c for c in hand if trump is not None and c // 8 == trump]
    return trumps or list(hand)


def winner(trick, trump):
    """The player of the highest trump of the trick, else of the highest card led."""
    trumps = [(c, p) for p, c in trick if trump is not None and c // 8 == trump]
    if trumps:
        return max(trumps)[1]
    led_suit = trick[0][1] // 8
    return max((c, p) for p, c in trick if c // 8 == led_suit)[1]


def reference(hands, declarer, trump, leader, *, beat, misere, alone=None):
    """The declarer's tricks, every player at his best: the declarer the most (at мизер
    the fewest), the defenders the other way. Every card of every player is tried (no
    pruning, no bounds, no equivalent cards); positions at trick boundaries are
    remembered so that four-card hands with a talon stay quick. ``alone``: a lone
    defender, his partner's cards out of play (a rule the Russian game does not have)."""
    order = tuple(s for s in SEATS if s in hands and (alone is None or s in (declarer, alone)))
    best, worst = (min, max) if misere else (max, min)

    @functools.cache
    def from_here(held, lead):
        start = order.index(lead)
        if not held[start]:
            return 0
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
                for c in legal(sorted(held[i]), led, trump, beat)
            ]
            return best(results) if seat == declarer else worst(results)

        return turn(0, [], held)

    return from_here(tuple(frozenset(hands[s]) for s in order), leader)


def reference_talon(hands, declarer, trump, leader, talon, *, beat, misere):
    """{discard: tricks} over every pair of the declarer's cards and the talon."""
    full = sorted([*hands[declarer], *talon])
    out = {}
    for pair in combinations(full, 2):
        kept = dict(hands)
        kept[declarer] = tuple(c for c in full if c not in pair)
        out[pair] = reference(kept, declarer, trump, leader, beat=beat, misere=misere)
    return out


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def position(**hands: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    return {seat: cards(*names) for seat, names in hands.items()}


def russian(hands, declarer, trump, leader, talon=None, misere=False):
    return solve(
        hands, declarer, trump, talon=talon, rules=RUSSIAN_PLAY, leader=leader, misere=misere
    )


#: The Russian rules but with the duty to beat (no game's rules: to show what it changes).
WITH_DUTY = PlayRules(
    beat_led=True, declarer_leads=False, notrump=True, misere=True, lone_defence=False
)


# --- Hand-worked examples ------------------------------------------------------------------


def test_in_notrump_a_void_player_discards_and_first_hand_leads():
    """БК: N leads SA and S7, E and S void of spades discard: 2 tricks. In hearts E ruffs
    the SA and cashes H8: 0. First hand E leading in БК cashes his hearts: 0."""
    hands = position(N=("SA", "S7"), E=("H7", "H8"), S=("C7", "C8"))
    assert russian(hands, "N", NOTRUMP, "N") == (2, None)
    assert russian(hands, "N", "hearts", "N") == (0, None)
    assert russian(hands, "N", NOTRUMP, "E") == (0, None)
    assert reference(hands, "N", None, "E", beat=False, misere=False) == 0


def test_no_duty_to_beat_the_card_led():
    """БК, first hand E leads D8, then S, then N. S takes it with DA; N, free to play
    under, keeps DQ over S's DJ: 1 trick. Made to beat the D8 (Austrian rule), N must
    spend DQ under the DA and S's DJ takes the last trick over D7: 0."""
    hands = position(N=("D7", "DQ"), E=("D8", "D9"), S=("DJ", "DA"))
    assert russian(hands, "N", NOTRUMP, "E") == (1, None)
    assert solve(hands, "N", NOTRUMP, rules=WITH_DUTY, leader="E") == (0, None)
    assert engine.legal_free(sum(1 << c for c in hands["N"]), parse_card("D8"), 4) == sum(
        1 << c for c in hands["N"]
    )


def test_misere_the_declarer_plays_under_the_card_led():
    """Мизер, first hand E leads S9 (then S, then N): N plays S8 under it and later SK
    under the SA: no trick. Made to beat the S9, N would take S10 with SK: 1 trick."""
    hands = position(N=("S8", "SK"), E=("S9", "SA"), S=("S10", "SQ"))
    assert russian(hands, "N", NOTRUMP, "E", misere=True) == (0, None)
    assert solve(hands, "N", NOTRUMP, rules=WITH_DUTY, leader="E", misere=True) == (1, None)


def test_misere_first_hand_leads_even_against_the_declarer():
    """Мизер: first hand E leads H7 and N must follow with HA: 1 trick. Had N led, C7
    would lose to S's C9 and N would shed HA on S's D7: 0."""
    hands = position(N=("C7", "HA"), E=("C8", "H7"), S=("C9", "D7"))
    assert russian(hands, "N", NOTRUMP, "E", misere=True) == (1, None)
    assert russian(hands, "N", NOTRUMP, "N", misere=True) == (0, None)


def test_misere_with_the_talon_discards_the_dangerous_cards():
    """Мизер, first hand E: N's bare SA is caught (E leads S7, S follows S8): 1 trick.
    With the talon S9 D10 he discards S9 and SA and sheds D10 on the spade: no trick. The
    first pair tried, SA D10, leaves S9 over E's S7 and S's S8: 1."""
    hands = position(N=("SA", "D7"), E=("S7", "D8"), S=("S8", "D9"))
    assert russian(hands, "N", NOTRUMP, "E", misere=True) == (1, None)
    talon = cards("S9", "D10")
    assert russian(hands, "N", NOTRUMP, "E", talon=talon, misere=True) == (0, cards("S9", "SA"))
    order = discard_order([*hands["N"], *talon], engine.NOTRUMP, misere=True)
    assert order[:2] == [cards("SA", "D10"), cards("S9", "SA")]


def test_the_misere_discard_order_is_dearest_first():
    """At мизер the discards are tried (and among equals chosen) dearest first: the sum of
    the ranks high to low, then by card number."""
    order = discard_order(cards("S7", "SK", "HA", "D9"), engine.NOTRUMP, misere=True)
    assert order == [
        cards("SK", "HA"),
        cards("D9", "HA"),
        cards("SK", "D9"),
        cards("S7", "HA"),
        cards("S7", "SK"),
        cards("S7", "D9"),
    ]


def test_no_trump_means_no_card_is_a_trump():
    hand = sum(1 << c for c in cards("H7", "S8"))
    assert engine.legal_free(hand, parse_card("C9"), engine.NOTRUMP) == hand
    assert engine.legal_free(hand, parse_card("C9"), 3) == 1 << parse_card("H7")
    assert engine.legal_free(hand, parse_card("SA"), 3) == 1 << parse_card("S8")


def test_the_russian_defence_is_always_both_hands():
    hands = position(N=("SA", "S7"), E=("SK", "SQ"), S=("H7", "H8"))
    with pytest.raises(PositionError) as error:
        solve(hands, "N", "hearts", defence="E", rules=RUSSIAN_PLAY, leader="N")
    assert set(error.value.errors) == {"defence"}


def test_the_leader_is_given_and_in_play():
    hands = position(N=("SA",), E=("SK",), S=("H7",))
    with pytest.raises(PositionError) as error:
        solve(hands, "N", "hearts", rules=RUSSIAN_PLAY)
    assert set(error.value.errors) == {"leader"}
    with pytest.raises(PositionError) as error:
        solve(hands, "N", "hearts", rules=RUSSIAN_PLAY, leader="W")
    assert "N, E, S" in error.value.errors["leader"]
    with pytest.raises(PositionError) as error:
        solve(hands, "N", "hearts", leader="E")  # the Austrian declarer leads
    assert set(error.value.errors) == {"leader"}


def test_the_austrian_game_has_neither_notrump_nor_misere():
    hands = position(N=("SA",), E=("SK",), S=("H7",))
    with pytest.raises(PositionError) as error:
        solve(hands, "N", NOTRUMP)
    assert set(error.value.errors) == {"trump"}
    with pytest.raises(PositionError) as error:
        solve(hands, "N", "hearts", misere=True)
    assert set(error.value.errors) == {"contract"}
    assert AUSTRIAN_PLAY.columns == tuple(SUIT_NAMES)
    assert RUSSIAN_PLAY.columns == (*SUIT_NAMES, NOTRUMP, MISERE)


# --- Against the reference on random small positions, every combination of rules -----------

#: (duty to beat, a trump or none, мизер, with the talon, the declarer leads)
COMBINATIONS = list(product([False, True], repeat=5))


def combination_id(combo):
    beat, trump, misere, talon, declarer_leads = combo
    return "-".join(
        [
            "duty" if beat else "free",
            "trump" if trump else "notrump",
            "misere" if misere else "max",
            "talon" if talon else "no_talon",
            "declarer_leads" if declarer_leads else "first_hand_leads",
        ]
    )


@st.composite
def small_positions(draw, has_trump, has_talon):
    seats = draw(st.sampled_from(["WNE", "NES", "ESW", "SWN", "WNS", "WES", "NEW", "NSW"]))
    seats = [s for s in SEATS if s in seats]
    n = draw(st.integers(2, 4))
    # Cards from one to four suits: few suits make following, beating and ruffing common.
    room = 3 * n + (2 if has_talon else 0)
    suits = draw(st.lists(st.integers(0, 3), min_size=(room + 7) // 8, max_size=4, unique=True))
    deck = draw(st.permutations([s * 8 + r for s in suits for r in range(8)]))
    hands = {s: tuple(deck[i * n : (i + 1) * n]) for i, s in enumerate(seats)}
    talon = tuple(deck[3 * n : 3 * n + 2]) if has_talon else None
    declarer = draw(st.sampled_from(seats))
    leader = draw(st.sampled_from(seats))
    trump = draw(st.sampled_from([*suits, *range(4)])) if has_trump else None
    return hands, declarer, leader, trump, talon


@pytest.mark.parametrize("combo", COMBINATIONS, ids=combination_id)
def test_the_solver_agrees_with_the_plain_minimax(combo):
    beat, has_trump, misere, has_talon, declarer_leads = combo
    rules = PlayRules(
        beat_led=beat,
        declarer_leads=declarer_leads,
        notrump=True,
        misere=True,
        lone_defence=False,
    )

    @settings(
        max_examples=25,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(small_positions(has_trump, has_talon))
    def agrees(case):
        hands, declarer, leader, trump, talon = case
        leader = declarer if declarer_leads else leader
        name = NOTRUMP if trump is None else SUIT_NAMES[trump]
        got, discard = solve(
            hands,
            declarer,
            name,
            talon=talon,
            rules=rules,
            leader=None if declarer_leads else leader,
            misere=misere,
        )
        if talon is None:
            assert discard is None
            assert got == reference(hands, declarer, trump, leader, beat=beat, misere=misere)
            return
        every = reference_talon(hands, declarer, trump, leader, talon, beat=beat, misere=misere)
        assert got == (min if misere else max)(every.values())
        full = [*hands[declarer], *talon]
        order = discard_order(full, 4 if trump is None else trump, misere=misere)
        assert discard == next(p for p in order if every[tuple(sorted(p))] == got)

    agrees()


def test_the_discard_order_is_the_documented_one():
    """Cheapest first (a trump 8 more than its rank) for a suit or БК; dearest first at
    мизер; between equals, by card number."""
    hand = cards("S7", "HA", "H8")
    assert discard_order(hand, 3) == [cards("S7", "H8"), cards("S7", "HA"), cards("H8", "HA")]
    assert discard_order(hand, 4) == [cards("S7", "H8"), cards("S7", "HA"), cards("H8", "HA")]
    assert discard_order(hand, 0) == [cards("H8", "HA"), cards("S7", "H8"), cards("S7", "HA")]
    assert discard_order(hand, 4, misere=True) == [
        cards("H8", "HA"),
        cards("S7", "HA"),
        cards("S7", "H8"),
    ]


# --- A rule broken on purpose gives other answers, and the solver keeps the right ones -------


def random_position(rnd: random.Random, n: int, talon: bool):
    suits = rnd.sample(range(4), rnd.choice([1, 2, 2, 3]))
    deck = [s * 8 + r for s in suits for r in range(8)]
    if len(deck) < 3 * n + 2:
        deck = list(range(32))
    rnd.shuffle(deck)
    hands = {s: tuple(deck[i * n : (i + 1) * n]) for i, s in enumerate("NES")}
    return hands, (tuple(deck[3 * n : 3 * n + 2]) if talon else None)


def right(hands, trump, talon, misere):
    """The Russian rules: N declares, first hand E leads."""
    if talon is None:
        return reference(hands, "N", trump, "E", beat=False, misere=misere)
    every = reference_talon(hands, "N", trump, "E", talon, beat=False, misere=misere)
    return (min if misere else max)(every.values())


#: Each broken rule: (what the broken reference answers, the strain it breaks, мизер, talon).
BROKEN = {
    "duty_to_beat": (
        lambda h, t, talon, m: reference(h, "N", t, "E", beat=True, misere=m),
        None,
        False,
        False,
    ),
    "duty_to_beat_at_misere": (
        lambda h, t, talon, m: reference(h, "N", t, "E", beat=True, misere=m),
        None,
        True,
        False,
    ),
    "the_declarer_leads": (
        lambda h, t, talon, m: reference(h, "N", t, "N", beat=False, misere=m),
        None,
        False,
        False,
    ),
    "the_declarer_leads_at_misere": (
        lambda h, t, talon, m: reference(h, "N", t, "N", beat=False, misere=m),
        None,
        True,
        False,
    ),
    "misere_maximised": (
        lambda h, t, talon, m: reference(h, "N", t, "E", beat=False, misere=False),
        None,
        True,
        False,
    ),
    "notrump_played_in_spades": (
        lambda h, t, talon, m: reference(h, "N", 0, "E", beat=False, misere=m),
        None,
        False,
        False,
    ),
    "a_lone_whister_alone": (
        lambda h, t, talon, m: reference(h, "N", t, "E", beat=False, misere=m, alone="E"),
        1,
        False,
        False,
    ),
    "the_misere_discard_that_keeps_most": (
        lambda h, t, talon, m: max(
            reference_talon(h, "N", t, "E", talon, beat=False, misere=m).values()
        ),
        None,
        True,
        True,
    ),
    "no_discard_at_misere": (
        lambda h, t, talon, m: reference(h, "N", t, "E", beat=False, misere=m),
        None,
        True,
        True,
    ),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_rule_broken_on_purpose_is_caught(broken):
    """A position on which the rule matters is found (seeded); there the solver gives the
    right answer, which the broken rule does not."""
    answer, trump, misere, talon = BROKEN[broken]
    rnd = random.Random(broken)
    for _ in range(3000):
        hands, talon_cards = random_position(rnd, rnd.choice([2, 3]), talon)
        good = right(hands, trump, talon_cards, misere)
        bad = answer(hands, trump, talon_cards, misere)
        if good != bad:
            break
    else:
        pytest.fail(f"no position found on which {broken} matters")
    name = NOTRUMP if trump is None else SUIT_NAMES[trump]
    got, _ = russian(hands, "N", name, "E", talon=talon_cards, misere=misere)
    assert got == good != bad


# --- The whole table --------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2])
def test_the_russian_whole_table_is_each_cell_solved_alone(number):
    deal = deal_from_seed("analysis-russian-table", 1, 1, number, ("N", "E", "S"))
    hands = {seat: list(hand) for seat, hand in deal.by_seat()}
    talon = list(deal.talon)
    first = "ENS"[number % 3]
    table = deal_table(hands, talon, rules=RUSSIAN_PLAY, leader=first)
    assert list(table) == ["N", "E", "S"]
    for seat, row in table.items():
        assert list(row) == [*SUIT_NAMES, NOTRUMP, MISERE]
        for column, cell in row.items():
            misere = column == MISERE
            trump = NOTRUMP if misere else column
            alone = russian(hands, seat, trump, first, misere=misere)[0]
            tricks, discard = russian(hands, seat, trump, first, talon=talon, misere=misere)
            assert cell == {"talon": tricks, "no_talon": alone}
            assert (tricks <= alone) if misere else (tricks >= alone)
            kept = dict(hands)
            kept[seat] = [c for c in [*hands[seat], *talon] if c not in discard]
            assert russian(kept, seat, trump, first, misere=misere) == (tricks, None)


def test_the_whole_table_needs_first_hand():
    deal = deal_from_seed("analysis-russian-table", 1, 1, 1, ("N", "E", "S"))
    hands = {seat: list(hand) for seat, hand in deal.by_seat()}
    with pytest.raises(PositionError) as error:
        deal_table(hands, list(deal.talon), rules=RUSSIAN_PLAY)
    assert set(error.value.errors) == {"leader"}


def test_five_card_russian_positions_agree_with_the_minimax():
    """Deeper than the random ones, where the table and its keys are used in earnest."""
    rnd = random.Random(23)
    for misere in (False, True):
        for _ in range(3):
            hands, _ = random_position(rnd, 5, False)
            trump = None if misere else rnd.choice([None, 0, 1, 2, 3])
            name = NOTRUMP if trump is None else SUIT_NAMES[trump]
            leader = rnd.choice("NES")
            got = russian(hands, "N", name, leader, misere=misere)
            assert got == (reference(hands, "N", trump, leader, beat=False, misere=misere), None)
