"""An exact double-dummy solver for the play of a Preference deal (docs/analysis.md).

Given the cards of three seats, the declarer and the trump, :func:`solve` tells how many
tricks the declarer takes when every player sees every card and plays his best: the
declarer to take the most (at мизер the fewest), the defenders (both, or a lone whister)
the other way. With a talon the declarer first takes it and discards the best two.
:func:`deal_table` answers a whole ten-card deal: each of the three seats as declarer, in
each strain, with and without the talon.

One engine for every game: the game hands it its :class:`PlayRules` (the game's own,
``scoring.games.Game.play``, kept in ``scoring.games.common.play``) — the duty to beat the card
led or not, who leads the first trick, whether БК and мизер are played, whether a lone
whister plays alone. :data:`AUSTRIAN_PLAY` (the default: docs/game.md §2.5) and
:data:`RUSSIAN_PLAY` (docs/analysis.md, «Russian play rules»).

Cards are the ints of :mod:`events.cards` (``suit * 8 + rank``), seats the letters
W N E S, trumps the names of :data:`events.cards.SUIT_NAMES` and ``"notrump"``.

Pure: imports nothing from Django (the engine is compiled by numba when it is installed).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from events.cards import DECK_SIZE, HAND_SIZE, SUIT_NAMES, TALON_SIZE, card_name
from scoring import games
from scoring.games.common.play import MISERE, NOTRUMP, PlayRules
from scoring.solver import engine
from scoring.solver.messages import PositionError, Problems

#: The registered games' rules of play (each game's own: ``Game.play``); the Austrian one
#: is the default of every call.
AUSTRIAN_PLAY = games.AUSTRIAN_GAME.play
RUSSIAN_PLAY = games.RUSSIAN_GAME.play

__all__ = [
    "AUSTRIAN_PLAY",
    "MISERE",
    "NOTRUMP",
    "RUSSIAN_PLAY",
    "PlayRules",
    "PositionError",
    "SEATS",
    "deal_table",
    "discard_order",
    "solve",
]

#: The seats, clockwise.
SEATS = "WNES"
_SEAT_LETTERS = tuple(SEATS)

_lock = threading.Lock()
_state: dict[str, object] = {"gen": 0, "tables": None}


def _tables():
    """The transposition table, move buffer and stack, and a fresh generation for one call
    (an entry of an older generation is empty to a newer one)."""
    if _state["tables"] is None:
        _state["tables"] = engine.new_tables()
    gen = int(_state["gen"]) + 1
    _state["gen"] = gen
    table, buf, frames = _state["tables"]
    return table, buf, frames, gen


def check_position(
    hands: Mapping[str, Sequence[int]],
    declarer: str | None,
    trump: str | None,
    defence: str = "both",
    talon: Sequence[int] | None = None,
    problems: Problems | None = None,
    *,
    rules: PlayRules = AUSTRIAN_PLAY,
    leader: str | None = None,
    misere: bool = False,
) -> None:
    """Every rule of a position, by field; raises :class:`PositionError` (or adds to
    ``problems`` when given). ``declarer`` and ``trump`` both None: a whole-table deal."""
    own = problems is None
    p = Problems() if own else problems
    if not isinstance(hands, Mapping):
        p.add("hands", "not_object")
    else:
        _check_hands(hands, talon, p)
        seats = [s for s in SEATS if s in hands]
        if (declarer is None) != (trump is None):
            if declarer is None:
                if "declarer" not in p:
                    p.add("declarer", "declarer_missing")
            elif "trump" not in p and "contract" not in p:  # a contract stands for a trump
                p.add("trump", "trump_missing")
        elif declarer is None:
            if "hands" not in p and any(len(hands[s]) != HAND_SIZE for s in seats):
                p.add("hands", "whole_table")
            if talon is None:
                p.add("talon", "whole_table")
            if defence != "both":
                p.add("defence", "table_defence")
        else:
            if "declarer" in p:
                pass
            elif not isinstance(declarer, str) or declarer not in _SEAT_LETTERS:
                p.add("declarer", "seat", value=declarer)
            elif declarer not in hands and len(seats) == 3:
                p.add("declarer", "declarer_seat", seats=", ".join(seats))
            if "trump" not in p and trump not in rules.strains:
                p.add("trump", "choice", value=trump, choices=", ".join(rules.strains))
            defenders = [s for s in seats if s != declarer]
            if defence != "both" and not rules.lone_defence:
                p.add("defence", "both_defend")
            elif defence != "both" and (defence not in defenders or declarer not in hands):
                p.add("defence", "defence_seat", value=defence, seats=", ".join(defenders))
            if misere and not rules.misere:
                p.add("contract", "no_misere")
        _check_leader(hands, seats, declarer, defence, leader, rules, p)
    if own:
        p.raise_if_any()


def _check_leader(hands, seats, declarer, defence, leader, rules: PlayRules, p: Problems):
    if rules.declarer_leads:
        if leader is not None:
            p.add("leader", "declarer_leads")
        return
    alone = defence != "both" and rules.lone_defence
    in_play = [s for s in seats if not alone or s in (declarer, defence)]
    if leader is None:
        p.add("leader", "leader_missing", seats=", ".join(in_play))
    elif "leader" in p:
        pass
    elif not isinstance(leader, str) or leader not in _SEAT_LETTERS:
        p.add("leader", "seat", value=leader)
    elif leader not in in_play and len(seats) == 3:
        p.add("leader", "leader_seat", seats=", ".join(in_play))


def _check_hands(hands, talon, p: Problems) -> None:
    names = list(hands)
    if len(names) != 3:
        p.add("hands", "hand_count", count=len(names))
    cards: list[int] = []
    sizes = {}
    for seat in names:
        if seat not in _SEAT_LETTERS:
            p.add(f"hands.{seat}", "seat", value=seat)
            continue
        hand = hands[seat]
        if f"hands.{seat}" in p:
            continue
        if not 1 <= len(hand) <= HAND_SIZE:
            p.add(f"hands.{seat}", "hand_size")
        for card in hand:
            if not _is_card(card):
                p.add(f"hands.{seat}", "unknown_card", value=card)
        sizes[seat] = len(hand)
        cards.extend(c for c in hand if _is_card(c))
    if len(set(sizes.values())) > 1 and not any(n.startswith("hands") for n in p.by_field):
        counts = ", ".join(f"{seat} {n}" for seat, n in sizes.items())
        p.add("hands", "unequal_hands", counts=counts)
    if talon is not None:
        if len(talon) != TALON_SIZE:
            p.add("talon", "talon_size")
        for card in talon:
            if not _is_card(card):
                p.add("talon", "unknown_card", value=card)
        cards.extend(c for c in talon if _is_card(c))
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        p.add("hands", "card_twice", cards=", ".join(card_name(c) for c in twice))


def _is_card(card: object) -> bool:
    """A card number 0–31 (an ``int``, or a numpy integer; not a bool)."""
    return isinstance(card, Integral) and not isinstance(card, bool) and 0 <= card < DECK_SIZE


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << int(card)
    return out


def _table(seats: Sequence[str], out: int):
    """``nxt`` (the next player in play after each) and the number of players of a trick."""
    nxt = np.zeros(3, dtype=np.int64)
    for player in range(3):
        after = (player + 1) % 3
        if after == out:
            after = (after + 1) % 3
        nxt[player] = after
    return nxt, 2 if out >= 0 else 3


def _suit(trump: str) -> int:
    return engine.NOTRUMP if trump == NOTRUMP else SUIT_NAMES.index(trump)


def discard_order(cards: Sequence[int], trump: int, misere: bool = False) -> list[tuple[int, int]]:
    """Every pair of ``cards`` in the fixed order in which discards are tried and chosen,
    by the sum of the two cards' worth — the rank (7 = 0 … A = 7), a trump 8 more
    (``trump`` a suit 0–3, or 4: none) — then by card number (S7 = 0 … HA = 31): the
    cheapest first, or at мизер the dearest first (what a мизер declarer sheds)."""

    def worth(card: int) -> int:
        return card % 8 + (8 if card // 8 == trump else 0)

    ordered = sorted(cards)
    pairs = [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    sign = -1 if misere else 1
    return sorted(pairs, key=lambda ab: (sign * (worth(ab[0]) + worth(ab[1])), ab))


@dataclass(frozen=True)
class _Cell:
    """One declarer and strain of a position, ready for the engine."""

    hands: np.ndarray
    nxt: np.ndarray
    nplay: int
    decl: int
    trump: int
    beat: int
    maxd: int
    leader: int


def _solve_cell(cell: _Cell, talon_mask: int, tables, plain_too: bool = True):
    """(tricks without the talon, (tricks with it, discard)) for one declarer and strain;
    the second is None when ``talon_mask`` is 0. At мизер with the talon the first is
    None unless ``plain_too``: the discards do not need it (it would only bound the best
    of them, and counting the first discard from 0 costs less)."""
    table, buf, frames, gen = tables
    arr = cell.hands
    rules = (cell.nxt, cell.nplay, cell.decl, cell.trump, cell.beat, cell.maxd, cell.leader)
    left = int(engine.popcount(arr[cell.decl]))
    if talon_mask and not cell.maxd and not plain_too:
        plain, bound = None, left
    else:
        plain = int(engine.value(arr, *rules, 0, left, table, buf, frames, gen))
        bound = plain
    if not talon_mask:
        return plain, None
    own = int(arr[cell.decl])
    full = own | talon_mask
    cards = [c for c in range(DECK_SIZE) if full >> c & 1]
    pairs = discard_order(cards, cell.trump, misere=not cell.maxd)
    masks = np.array([(1 << a) | (1 << b) for a, b in pairs], dtype=np.int64)
    best, choice = engine.best_discard(arr, *rules, full, masks, bound, table, buf, frames, gen)
    arr[cell.decl] = own
    return plain, (int(best), pairs[int(choice)])


def _cell(hands, seats, declarer, trump, defence, rules: PlayRules, leader, misere) -> _Cell:
    decl = seats.index(declarer)
    out = -1
    if defence != "both":
        out = next(i for i, s in enumerate(seats) if s not in (declarer, defence))
    nxt, nplay = _table(seats, out)
    arr = np.array([0 if i == out else _mask(hands[s]) for i, s in enumerate(seats)], np.int64)
    first = decl if rules.declarer_leads else seats.index(leader)
    return _Cell(arr, nxt, nplay, decl, _suit(trump), int(rules.beat_led), int(not misere), first)


def solve(
    hands: Mapping[str, Sequence[int]],
    declarer: str,
    trump: str,
    defence: str = "both",
    talon: Sequence[int] | None = None,
    *,
    rules: PlayRules = AUSTRIAN_PLAY,
    leader: str | None = None,
    misere: bool = False,
) -> tuple[int, tuple[int, int] | None]:
    """The declarer's tricks against the best defence, and his discard (the first best in
    :func:`discard_order`; None without a talon). ``defence`` is ``"both"`` or the seat of
    a lone whister (the other defender's cards are then out of play), where ``rules``
    allow it. ``leader`` leads the first trick where the declarer does not (``rules``).
    ``misere``: the declarer plays to take the fewest tricks (мизер has ``trump``
    ``"notrump"``), and his discard is the one that leaves him the fewest."""
    check_position(
        hands, declarer, trump, defence, talon, rules=rules, leader=leader, misere=misere
    )
    seats = [s for s in SEATS if s in hands]
    cell = _cell(hands, seats, declarer, trump, defence, rules, leader, misere)
    with _lock, engine.quiet():
        talon_mask = _mask(talon) if talon is not None else 0
        plain, with_talon = _solve_cell(cell, talon_mask, _tables(), plain_too=False)
    if with_talon is None:
        return plain, None
    return with_talon


def deal_table(
    hands: Mapping[str, Sequence[int]],
    talon: Sequence[int],
    *,
    rules: PlayRules = AUSTRIAN_PLAY,
    leader: str | None = None,
) -> dict:
    """A ten-card deal's whole table, both defenders playing: seat → column (the strains of
    ``rules``, then ``misere`` where it is played) → ``{"talon": n, "no_talon": m}`` — the
    declarer's tricks when he takes the talon and discards the best two (at мизер: the
    fewest he can be held to), and when the talon stays out of play. ``leader``: first
    hand, who leads the first trick where the declarer does not (``rules``)."""
    check_position(hands, None, None, "both", talon, rules=rules, leader=leader)
    seats = [s for s in SEATS if s in hands]
    talon_mask = _mask(talon)
    answer: dict[str, dict[str, dict[str, int]]] = {}
    with _lock, engine.quiet():
        tables = _tables()
        for seat in seats:
            answer[seat] = {}
            for column in rules.columns:
                misere = column == MISERE
                trump = NOTRUMP if misere else column
                cell = _cell(hands, seats, seat, trump, "both", rules, leader, misere)
                plain, (best, _) = _solve_cell(cell, talon_mask, tables)
                answer[seat][column] = {"talon": best, "no_talon": plain}
    return answer
