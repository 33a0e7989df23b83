"""An exact double-dummy solver for the play of a Preference deal (docs/analysis.md).

Given the cards of three seats, the declarer and the trump, :func:`solve` tells how many
tricks the declarer takes when every player sees every card and plays his best: the
declarer to take the most, the defenders (both, or a lone whister) the fewest. With a
talon the declarer first takes it and discards the best two. :func:`deal_table` answers a
whole ten-card deal: each of the three seats as declarer, in each trump, with and without
the talon. The rules of play are docs/game.md §2.5.

Cards are the ints of :mod:`events.cards` (``suit * 8 + rank``), seats the letters
W N E S, trumps the names of :data:`events.cards.SUIT_NAMES`.

Pure: imports nothing from Django (the engine is compiled by numba when it is installed).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from numbers import Integral

import numpy as np

from events.cards import DECK_SIZE, HAND_SIZE, SUIT_NAMES, TALON_SIZE, card_name
from scoring.solver import engine
from scoring.solver.messages import PositionError, Problems

__all__ = ["PositionError", "SEATS", "deal_table", "discard_order", "solve"]

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
    keys, bounds, buf, frames = _state["tables"]
    return keys, bounds, buf, frames, gen


def check_position(
    hands: Mapping[str, Sequence[int]],
    declarer: str | None,
    trump: str | None,
    defence: str = "both",
    talon: Sequence[int] | None = None,
    problems: Problems | None = None,
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
                p.add("declarer", "declarer_missing")
            else:
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
            if "trump" not in p and trump not in SUIT_NAMES:
                p.add("trump", "choice", value=trump, choices=", ".join(SUIT_NAMES))
            defenders = [s for s in seats if s != declarer]
            if defence != "both" and (defence not in defenders or declarer not in hands):
                p.add("defence", "defence_seat", value=defence, seats=", ".join(defenders))
    if own:
        p.raise_if_any()


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


def discard_order(cards: Sequence[int], trump: int) -> list[tuple[int, int]]:
    """Every pair of ``cards`` in the fixed order in which discards are tried and chosen:
    the cheapest first — by the sum of the two cards' ranks (7 = 0 … A = 7, a trump 8
    more), then by card number (S7 = 0 … HA = 31)."""

    def worth(card: int) -> int:
        return card % 8 + (8 if card // 8 == trump else 0)

    ordered = sorted(cards)
    pairs = [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    return sorted(pairs, key=lambda ab: (worth(ab[0]) + worth(ab[1]), ab))


def _solve_cell(hands_arr, nxt, nplay, decl, trump, talon_mask, tables):
    """(tricks without the talon, (tricks with it, discard)) for one declarer and trump;
    the second is None when ``talon_mask`` is 0."""
    keys, bounds, buf, frames, gen = tables
    plain = int(engine.value(hands_arr, nxt, nplay, decl, trump, 0, keys, bounds, buf, frames, gen))
    if not talon_mask:
        return plain, None
    own = int(hands_arr[decl])
    full = own | talon_mask
    cards = [c for c in range(DECK_SIZE) if full >> c & 1]
    pairs = discard_order(cards, trump)
    masks = np.array([(1 << a) | (1 << b) for a, b in pairs], dtype=np.int64)
    best, choice = engine.best_discard(
        hands_arr, nxt, nplay, decl, trump, full, masks, plain, keys, bounds, buf, frames, gen
    )
    hands_arr[decl] = own
    return plain, (int(best), pairs[int(choice)])


def solve(
    hands: Mapping[str, Sequence[int]],
    declarer: str,
    trump: str,
    defence: str = "both",
    talon: Sequence[int] | None = None,
) -> tuple[int, tuple[int, int] | None]:
    """The declarer's tricks against the best defence, and his discard (the first best in
    :func:`discard_order`; None without a talon). ``defence`` is ``"both"`` or the seat of
    a lone whister (the other defender's cards are then out of play)."""
    check_position(hands, declarer, trump, defence, talon)
    seats = [s for s in SEATS if s in hands]
    decl = seats.index(declarer)
    out = -1
    if defence != "both":
        out = next(i for i, s in enumerate(seats) if s not in (declarer, defence))
    nxt, nplay = _table(seats, out)
    arr = np.array([0 if i == out else _mask(hands[s]) for i, s in enumerate(seats)], np.int64)
    suit = SUIT_NAMES.index(trump)
    with _lock, engine.quiet():
        plain, with_talon = _solve_cell(
            arr, nxt, nplay, decl, suit, _mask(talon) if talon is not None else 0, _tables()
        )
    if with_talon is None:
        return plain, None
    return with_talon


def deal_table(hands: Mapping[str, Sequence[int]], talon: Sequence[int]) -> dict:
    """A ten-card deal's whole table, both defenders playing: seat → trump (suit name) →
    ``{"talon": n, "no_talon": m}`` — the declarer's tricks when he takes the talon and
    discards the best two, and when the talon stays out of play."""
    check_position(hands, None, None, "both", talon)
    seats = [s for s in SEATS if s in hands]
    nxt, nplay = _table(seats, -1)
    arr = np.array([_mask(hands[s]) for s in seats], np.int64)
    talon_mask = _mask(talon)
    answer: dict[str, dict[str, dict[str, int]]] = {}
    with _lock, engine.quiet():
        tables = _tables()
        for decl, seat in enumerate(seats):
            answer[seat] = {}
            for suit, name in enumerate(SUIT_NAMES):
                plain, (best, _) = _solve_cell(arr, nxt, nplay, decl, suit, talon_mask, tables)
                answer[seat][name] = {"talon": best, "no_talon": plain}
    return answer
