"""The talon on a score sheet (docs/game.md §2.7): the two cards the declarer took with a
numeric contract, as the table writes them.

A card is its suit and its rank (``events.cards``): ``SA``, ``H10``, ``D7``. On input the
suit may also be its symbol (♠ ♣ ♦ ♥) and either may be lower case; the talon is a list of
two cards or one string of two cards separated by a space or a comma. Inside, cards are
``events.cards`` numbers; on the way out they are names in the order S C D H (``talon_text``).

Part of the games' pure kernel ``scoring.games.common``: both games' sheets write the talon so."""

from __future__ import annotations

import re

from events.cards import RANKS, SUIT_LETTERS, SUIT_SYMBOLS, TALON_SIZE, card_name, sorted_cards
from scoring.games.common.messages import Problems

_SYMBOL_LETTER = dict(zip(SUIT_SYMBOLS, SUIT_LETTERS, strict=True))
_MAX_SHOWN = 20  # a long bad value is cut in the message
#: The talon is written in the suits' letter order, S C D H, each from the ace: «SA H7».
TALON_ORDER = (0, 1, 2, 3)


def read_card(text: object) -> int | None:
    """``"SA"``, ``"♠a"``, ``"h10"`` → the card's number; None when it is no card."""
    if not isinstance(text, str):
        return None
    value = text.strip().upper()
    if not value:
        return None
    suit = _SYMBOL_LETTER.get(value[0], value[0])
    rank = value[1:]
    if suit not in SUIT_LETTERS or rank not in RANKS:
        return None
    return SUIT_LETTERS.index(suit) * 8 + RANKS.index(rank)


def read_talon(value: object, name: str, problems: Problems) -> tuple[int, ...] | None:
    """The talon from its JSON form, its problems noted under ``name``; None when broken."""
    if isinstance(value, str):
        parts = [p for p in re.split(r"[\s,;]+", value.strip()) if p]
    elif isinstance(value, list):
        parts = value
    else:
        problems.add(name, "talon_format")
        return None
    if len(parts) != TALON_SIZE:
        problems.add(name, "talon_format")
        return None
    cards = []
    for part in parts:
        card = read_card(part)
        if card is None:
            shown = part if isinstance(part, str) else repr(part)
            problems.add(name, "talon_card", value=shown[:_MAX_SHOWN])
            return None
        cards.append(card)
    if cards[0] == cards[1]:
        problems.add(name, "talon_twice")
        return None
    return tuple(sorted_cards(cards, TALON_ORDER))


def talon_text(cards) -> str:
    """The talon as stored: card names in the order S C D H, one space between (``"SA H7"``)."""
    return " ".join(card_name(c) for c in sorted_cards(cards, TALON_ORDER))
