"""The 32 cards: their notation, a deal's hands and talon, PPN, and dealing from a seed
(docs/game.md §2.1, §2.7, §8).

- A card is written as its suit letter and its rank: S C D H and 7 8 9 10 J Q K A
  (``SA``, ``H10``, ``D7``): the notation, Latin in every language. A page names a card
  in its own language with :func:`card_text` («♠Т» in Russian, «♠A» in English), the one
  place that names the ranks per language. Inside, a card is a number 0–31:
  ``suit * 8 + rank``, the suits in the letter order S C D H and the ranks 7 … A as 0 … 7.
- A deal's cards are the hands of its three active seats and the talon. Stored and
  exported as PPN (prefko's Portable Preferans Notation): one 32-character string, the
  hands of the active seats in speaking order (first hand first, each as ten characters)
  and then the two talon cards. PPN's alphabet writes 7♠…A♠ as 1–8, ♦ as 9–G, ♥ as H–O
  and ♣ as P–W.
- **Dealing from a seed** (computer-dealt sets): the cards of a deal are a Fisher–Yates
  shuffle of the 32 cards in the order S7 … HA, drawing from SHA-256 of
  ``"<seed>:<family>:<set>:<deal>:<counter>"``; the first ten go to first hand, the next
  ten and ten to the next seats in speaking order and the last two to the talon. The seed
  is published after the session and its SHA-256 before it, so anyone can deal the
  session again and check that nobody chose the cards.

Pure: imports nothing from Django.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SUIT_LETTERS = "SCDH"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
DECK_SIZE = 32
HAND_SIZE = 10
TALON_SIZE = 2

# PPN's alphabet, in its own suit order (♠ ♦ ♥ ♣), each suit 7 … A.
_PPN_ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVW"
_PPN_SUITS = "SDHC"
_TO_PPN = {
    suit * 8 + rank: _PPN_ALPHABET[_PPN_SUITS.index(SUIT_LETTERS[suit]) * 8 + rank]
    for suit in range(4)
    for rank in range(8)
}
_FROM_PPN = {char: card for card, char in _TO_PPN.items()}

#: The ranks as each language names them (docs/game.md §8.1): валет, дама, король, туз are
#: В Д К Т in Russian. Every page, message and grid that names a card asks :func:`rank_text`.
RANK_NAMES = {
    "en": RANKS,
    "ru": ("7", "8", "9", "10", "В", "Д", "К", "Т"),
}

_NAMES = [SUIT_LETTERS[c // 8] + RANKS[c % 8] for c in range(DECK_SIZE)]
_BY_NAME = {name: card for card, name in enumerate(_NAMES)}


class CardError(ValueError):
    """A card, hand or deal that is not well formed; ``code`` names the rule broken."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(detail or code)
        self.code = code
        self.detail = detail


def card_name(card: int) -> str:
    return _NAMES[card]


def rank_text(rank: int, language: str) -> str:
    """Rank 0 … 7 (7 … ace) as ``language`` names it: English for «en…», else Russian (the
    app's first language): ``rank_text(7, "ru")`` → «Т»."""
    names = RANK_NAMES["en"] if (language or "").startswith("en") else RANK_NAMES["ru"]
    return names[rank]


def card_text(card: int, language: str) -> str:
    """A card as a page names it: its suit's symbol and its rank in ``language`` («♠Т»)."""
    return SUIT_SYMBOLS[card // 8] + rank_text(card % 8, language)


def parse_card(text: object) -> int:
    """``"SA"`` → 28 + 3 … ; lower case and a Latin «T» for ten are not accepted."""
    if not isinstance(text, str) or text not in _BY_NAME:
        raise CardError("unknown_card", str(text))
    return _BY_NAME[text]


def suit_of(card: int) -> int:
    return card // 8


def rank_of(card: int) -> int:
    return card % 8


def sorted_cards(cards: Iterable[int], suit_order: Sequence[int] = (3, 2, 1, 0)) -> list[int]:
    """By suit (highest suit first, as a hand is held) and, within a suit, from the ace."""
    place = {suit: i for i, suit in enumerate(suit_order)}
    return sorted(cards, key=lambda c: (place[suit_of(c)], -rank_of(c)))


def by_suit(cards: Iterable[int]) -> dict[int, list[int]]:
    """Each suit's cards, ace first; every suit present as a key (empty when void)."""
    out: dict[int, list[int]] = {suit: [] for suit in range(4)}
    for card in sorted(cards, key=lambda c: -rank_of(c)):
        out[suit_of(card)].append(card)
    return out


@dataclass(frozen=True)
class DealCards:
    """The cards of one box: the active seats' hands in speaking order, and the talon."""

    seats: tuple[str, ...]  # e.g. ("N", "E", "S"), first hand first
    hands: tuple[tuple[int, ...], ...]
    talon: tuple[int, int]

    def hand(self, seat: str) -> tuple[int, ...]:
        return self.hands[self.seats.index(seat)]

    def as_names(self) -> dict[str, list[str]]:
        out = {seat: [card_name(c) for c in sorted_cards(h)] for seat, h in self.by_seat()}
        out["talon"] = [card_name(c) for c in sorted_cards(self.talon)]
        return out

    def by_seat(self) -> list[tuple[str, tuple[int, ...]]]:
        return list(zip(self.seats, self.hands, strict=True))

    def ppn(self) -> str:
        return "".join(_TO_PPN[c] for hand in self.hands for c in hand) + "".join(
            _TO_PPN[c] for c in self.talon
        )


def check_deal(seats: Sequence[str], hands: Sequence[Sequence[int]], talon: Sequence[int]):
    """Three hands of ten and a talon of two, every card once; CardError otherwise."""
    if len(seats) != 3 or len(hands) != 3:
        raise CardError("three_hands")
    for hand in hands:
        if len(hand) != HAND_SIZE:
            raise CardError("hand_size")
    if len(talon) != TALON_SIZE:
        raise CardError("talon_size")
    every = [c for hand in hands for c in hand] + list(talon)
    if len(set(every)) != DECK_SIZE:
        raise CardError("card_twice")
    return DealCards(tuple(seats), tuple(tuple(h) for h in hands), (talon[0], talon[1]))


def from_ppn(text: str, seats: Sequence[str]) -> DealCards:
    """A 32-character PPN string, the hands of ``seats`` (speaking order) then the talon."""
    if not isinstance(text, str) or len(text) != DECK_SIZE:
        raise CardError("ppn_length")
    try:
        cards = [_FROM_PPN[char] for char in text]
    except KeyError as error:
        raise CardError("unknown_card", str(error.args[0])) from None
    hands = [cards[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(3)]
    return check_deal(seats, hands, cards[3 * HAND_SIZE :])


def new_seed() -> str:
    """A fresh random seed: 64 hex characters."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """What is shown before the session: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def seed_matches(seed: str, shown_hash: str) -> bool:
    return hmac.compare_digest(seed_hash(seed), shown_hash.strip().lower())


def _stream(seed: str, family: int, set_number: int, deal_number: int):
    """An endless stream of 32-bit numbers from SHA-256 in counter mode."""
    counter = 0
    while True:
        block = hashlib.sha256(
            f"{seed}:{family}:{set_number}:{deal_number}:{counter}".encode()
        ).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def _below(stream, bound: int) -> int:
    """A uniform number in 0 … bound − 1 (rejection sampling: no modulo bias)."""
    limit = (1 << 32) - (1 << 32) % bound
    while True:
        value = next(stream)
        if value < limit:
            return value % bound


def deal_from_seed(
    seed: str, family: int, set_number: int, deal_number: int, seats: Sequence[str]
) -> DealCards:
    """The cards of deal ``set_number.deal_number`` (of twin-room ``family``) from ``seed``."""
    stream = _stream(seed, family, set_number, deal_number)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = _below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = [sorted_cards(deck[k * HAND_SIZE : (k + 1) * HAND_SIZE]) for k in range(3)]
    return check_deal(seats, hands, sorted_cards(deck[3 * HAND_SIZE :]))
