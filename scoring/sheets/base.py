"""The interface every game's sheets adapter keeps (see the package's docstring), and what
the games' adapters share: the deal's layout as the cores read it."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from events.boards import board_layout


class SheetGame:
    """One game's sheets. Subclasses fill in every method; the callers use only these."""

    #: What a scorer types, in the order of the form.
    input_fields: tuple[str, ...] = ()
    #: The contracts that take the talon (the picker's ``data-numeric``).
    talon_contracts: tuple[str, ...] = ()

    def request(
        self, event, deal, entered: dict, *, pot_before: Callable[[], Fraction] | None = None
    ) -> dict:
        """The core's JSON for ``entered`` (the scorer's fields): with the event's rules and
        the deal's layout. ``pot_before``, asked only by a game that needs it, reads the pot
        the deal starts with; without it the essence's request needs no pot."""
        raise NotImplementedError

    def settle(self, request: dict) -> tuple[object, object]:
        """(the parsed deal, its settlement); raises the core's ``InvalidInput``."""
        raise NotImplementedError

    def result(self, parsed, settlement) -> dict:
        """The stored ``result`` JSON: ``scores`` per seat (exact), ``failed``, ``sheet``
        (the essence), and the game's own figures."""
        raise NotImplementedError

    def essence(self, parsed) -> dict:
        """What makes two sheets «the same result»."""
        raise NotImplementedError

    def passed_out(self, parsed) -> bool:
        """Nobody plays the deal and every seat scores 0."""
        return False

    def preview(self, result: dict, deal, players: dict[str, str]) -> list[dict]:
        """What «Check» shows of each seat: a line per active seat (:func:`preview_rows`)."""
        return preview_rows(result, deal, players)

    #: The name of its scorer form in ``scoring.forms.SCORER_FORMS`` (the forms read the
    #: pages' helpers, which read the services, which read this: no import of the forms).
    form = ""


def layout_fields(deal, data: dict, *, seats_needed: Callable[[dict], bool]) -> dict:
    """The deal's layout for a core. The box layout of the set (``board``) when the row
    agrees with it (it always does for sets built by ``session_create``); else the row's own
    first hand and, when ``seats_needed(data)`` (a sheet that names no seats itself), its
    active seats."""
    layout = board_layout(deal.board_set.players, deal.number)
    if (
        "".join(s.value for s in layout.active_seats) == deal.active_seats
        and layout.first_hand.value == deal.first_hand
    ):
        return {"board": {"players": deal.board_set.players, "number": deal.number}}
    fields = {"first_hand": deal.first_hand}
    if seats_needed(data):
        fields["seats"] = list(deal.active_seats)
    return fields


def preview_rows(result: dict, deal, players: dict[str, str]) -> list[dict]:
    """Each active seat's line of a checked sheet, round the table (W N E S)."""
    return [
        {
            "seat": seat,
            "player": players.get(seat, ""),
            "tricks": (result["sheet"].get("tricks") or {}).get(seat, ""),
            "score": result["scores"].get(seat),
            "failed": seat in result["failed"],
        }
        for seat in "WNES"  # round the table, as the pages list seats
        if seat in deal.active_seats
    ]
