"""Who sits where in the deals of one set: the pure layout of the duplicate box
(docs/game.md §5).

A box has pockets W, N, E, S. The seats go clockwise W → N → E → S → W, so the player on
a seat's *left* is the next one clockwise: he speaks and plays after him.

- **3 players** (W empty): a set has 3 deals; the talon always lies in the W pocket and N
  answers for it; the box's ``dealer`` label marks *first hand* — N, E, S in deal order —
  so each player is first hand once per round. Active seats: N, E, S.
- **4 players**: a set has 4 deals; the dealer is W, N, E, S in turn, sits the deal out and
  his pocket holds the talon (decision, standard for 4-handed Preference); first hand is on
  the dealer's left. Each player is first hand once and sits out once per round.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Seat(StrEnum):
    """A position at the table and the pocket of the box with the same letter."""

    W = "W"
    N = "N"
    E = "E"
    S = "S"


CLOCKWISE: tuple[Seat, ...] = (Seat.W, Seat.N, Seat.E, Seat.S)
#: The seats as every page and file lists them: round the table, W N E S (N E S at a table of
#: three) — the one order of seats; a JSON column keeps none (PostgreSQL's reads back E N S W).
TABLE_ORDER: str = "".join(CLOCKWISE)
THREE_PLAYER_SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S)


def family_letter(family: int, *, families: int) -> str:
    """The letter a set's family gets in a session of several families of sets (twin rooms
    with different movements play different boxes, docs/game.md §5.5): «A», «B» …; none
    when the session has one family."""
    if families <= 1:
        return ""
    return chr(ord("A") + family - 1) if 1 <= family <= 26 else f"{family}."


def set_label(letter: str, number: int) -> str:
    """A set as the players read it, on the cards, the grid and the phones: «3», or «A3»
    with several families (``letter``: :func:`family_letter`, kept with the set)."""
    return f"{letter}{number}"


def deal_label(set_label: str, number: int) -> str:
    """A deal as every surface names it — the grid, the phones, the cards, the travellers,
    the hand records and their text file, and the titles: «3.2», «A3.2» (docs/game.md §5.5).
    Two deals of one session never share it."""
    return f"{set_label}.{number}"


def left_of(seat: Seat) -> Seat:
    """The seat on ``seat``'s left: the next one clockwise."""
    return CLOCKWISE[(CLOCKWISE.index(seat) + 1) % 4]


def clockwise_from(first: Seat, seats: Iterable[Seat]) -> tuple[Seat, ...]:
    """``seats`` in clockwise order beginning with ``first`` (which must be one of them)."""
    chosen = set(seats)
    if first not in chosen:
        raise ValueError(f"{first} is not among {sorted(chosen)}")
    start = CLOCKWISE.index(first)
    ring = CLOCKWISE[start:] + CLOCKWISE[:start]
    return tuple(seat for seat in ring if seat in chosen)


def inferred_first_hand(active_seats: Iterable[Seat]) -> Seat | None:
    """First hand as far as the three active seats alone tell it.

    When a seat other than W sits out, the table has 4 players, that seat is the dealer and
    first hand is on his left. When W is the missing seat it is either a 3-player table (any
    of N, E, S may be first hand) or W dealing at a 4-player table: not decidable → None.
    """
    active = set(active_seats)
    missing = [seat for seat in CLOCKWISE if seat not in active]
    if len(active) != 3 or len(missing) != 1 or missing[0] is Seat.W:
        return None
    return left_of(missing[0])


@dataclass(frozen=True)
class BoardLayout:
    """One deal of a set: who speaks first, who sits out, where the talon is."""

    players: int
    number: int  # 1-based, within the set; deals are played in this order
    dealer: Seat | None  # the dealer who sits out (4 players); None at a 3-player table
    dealer_label: Seat  # the seat the box's ``dealer`` label points at
    first_hand: Seat
    talon_pocket: Seat
    talon_keeper: Seat  # the player who answers for the talon
    sits_out: Seat | None
    active_seats: tuple[Seat, ...]  # in speaking order, first hand first


def deals_per_set(players: int) -> int:
    """3 deals for a table of 3, 4 deals for a table of 4."""
    if players not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, not {players}")
    return players


def board_layout(players: int, number: int) -> BoardLayout:
    """The layout of deal ``number`` (1-based) of a set played by ``players`` players."""
    count = deals_per_set(players)
    if not 1 <= number <= count:
        raise ValueError(f"a set for {players} players has deals 1–{count}, not {number}")
    if players == 3:
        first = THREE_PLAYER_SEATS[number - 1]
        return BoardLayout(
            players=3,
            number=number,
            dealer=None,
            dealer_label=first,
            first_hand=first,
            talon_pocket=Seat.W,
            talon_keeper=Seat.N,
            sits_out=None,
            active_seats=clockwise_from(first, THREE_PLAYER_SEATS),
        )
    dealer = CLOCKWISE[number - 1]
    first = left_of(dealer)
    return BoardLayout(
        players=4,
        number=number,
        dealer=dealer,
        dealer_label=dealer,
        first_hand=first,
        talon_pocket=dealer,
        talon_keeper=dealer,
        sits_out=dealer,
        active_seats=clockwise_from(first, [seat for seat in CLOCKWISE if seat is not dealer]),
    )


def set_layout(players: int) -> tuple[BoardLayout, ...]:
    """Every deal of one set, in playing order."""
    return tuple(board_layout(players, n) for n in range(1, deals_per_set(players) + 1))


def board_position(board: int, players: int) -> tuple[int, int]:
    """(set number, deal number within the set) of a board numbered 1, 2, … across sets."""
    count = deals_per_set(players)
    if board < 1:
        raise ValueError(f"boards are numbered from 1, not {board}")
    return (board - 1) // count + 1, (board - 1) % count + 1
