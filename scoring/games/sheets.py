"""The interface every game's sheets adapter keeps (see the package's docstring), and what
the games' adapters share: the deal's layout as the cores read it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from fractions import Fraction

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events.boards import TABLE_ORDER, board_layout


def lang() -> str:
    """The language of the request for the cores' words and messages: ``en`` or ``ru``."""
    return "en" if (get_language() or "").startswith("en") else "ru"


def in_order(mapping, order: str = "") -> list[tuple[str, object]]:
    """(seat, value) of a sheet's per-seat mapping round the table (``events.boards``'
    ``TABLE_ORDER``), or in ``order`` when one is given: never as stored, for a JSON column
    keeps no order of its own (PostgreSQL's reads back E N S W)."""
    mapping = mapping if isinstance(mapping, dict) else {}
    return [(seat, mapping[seat]) for seat in order or TABLE_ORDER if seat in mapping]


class SheetGame(ABC):
    """One game's sheets. Subclasses fill in every method; the callers use only these."""

    #: What a scorer types, in the order of the form.
    input_fields: tuple[str, ...] = ()
    #: The contracts that take the talon (the picker's ``data-numeric``).
    talon_contracts: tuple[str, ...] = ()

    @abstractmethod
    def request(
        self, event, deal, entered: dict, *, earlier: Callable[[], dict] | None = None
    ) -> dict:
        """The core's JSON for ``entered`` (the scorer's fields): with the event's rules and
        the deal's layout. ``earlier``, asked only by a game whose deals carry over from one
        to the next at a table (:meth:`carries_over`: the Austrian running pot), reads the
        stored results of the set's earlier deals at this table, ``{number: result}``;
        without it the request is the essence's, which needs nothing carried."""

    def carries_over(self, event) -> bool:
        """Whether a deal's settlement depends on the earlier deals of its set at the same
        table (a correction then settles the later ones again). No, unless a game says so."""
        return False

    @abstractmethod
    def settle(self, request: dict) -> tuple[object, object]:
        """(the parsed deal, its settlement); raises the core's ``InvalidInput``."""

    @abstractmethod
    def result(self, parsed, settlement) -> dict:
        """The stored ``result`` JSON: ``scores`` per seat (exact), ``failed``, ``sheet``
        (the essence), and the game's own figures. A game other than the default one also
        keeps its ``rules`` with their ``game`` there: that is how a stored result names its
        game (``scoring.games.of_result``) to the pages and files that read it."""

    def talon(self, parsed) -> tuple[int, ...] | None:
        """The talon the sheet records (card numbers), compared with the deal's known one
        when the sheet is saved (``scoring.sheets.boxes``); None for a sheet without one —
        and for a game whose sheets never record it."""
        return getattr(parsed, "talon", None)

    @abstractmethod
    def essence(self, parsed) -> dict:
        """What makes two sheets «the same result»."""

    def passed_out(self, parsed) -> bool:
        """Nobody plays the deal and every seat scores 0."""
        return False

    def preview(self, result: dict, deal, players: dict[str, str]) -> list[dict]:
        """What «Check» shows of each seat: a line per active seat (:func:`preview_rows`)."""
        return preview_rows(result, deal, players)

    # --- its words on the pages and in the files (scoring.sheets.display, scoring.standings.exports) -------
    #
    # ``sheet`` is the stored essence (``result["sheet"]``), ``result`` the stored result;
    # either may be None (no result yet): the words are then empty.

    @abstractmethod
    def word(self, value: str | None) -> str:
        """A contract or a defender's decision of a sheet as a word of the language."""

    @abstractmethod
    def contract_text(self, sheet: dict | None) -> str:
        """The contract with its declarer: «N: три ♦», «N: 6♠»; the passed-out deal's word."""

    @abstractmethod
    def contract_word(self, sheet: dict | None) -> str:
        """The contract alone (the table's result names the declarer with his name)."""

    def trump(self, sheet: dict | None) -> str:
        """The trump a contract names apart, as the page shows it («♦ бубны»), if the game
        names one apart."""
        return ""

    def defence_text(self, sheet: dict | None, order: str = "") -> str:
        """«E вист · S пас»: the defenders' decisions, round the table (:func:`in_order`)."""
        if not sheet:
            return ""
        defenders = in_order(sheet.get("defenders"), order)
        return " · ".join(f"{seat} {self.word(d)}" for seat, d in defenders)

    def tricks_text(self, sheet: dict | None, order: str = "") -> str:
        """«N 6 · E 4 · S 0»: the tricks the sheet counts, round the table."""
        if not sheet:
            return ""
        return " · ".join(f"{seat} {n}" for seat, n in in_order(sheet.get("tricks"), order))

    def tricks_of(self, sheet: dict | None, position: str) -> str:
        """One seat's tricks, as text («» when the sheet counts none of his)."""
        if not sheet:
            return ""
        value = (sheet.get("tricks") or {}).get(position)
        return "" if value is None else str(value)

    @abstractmethod
    def score_head(self) -> str:
        """The heading of a seat's score (what is compared): «Points», «Balance»."""

    def figure_heads(self) -> list[str]:
        """The headings of what else each seat writes on a deal, besides his tricks and his
        score (none in a game where the score is all he writes)."""
        return []

    def seat_figures(self, result: dict | None, position: str) -> list:
        """What ``position`` writes on the deal, one value per :meth:`figure_heads`: a
        number (exact, a JSON number or text) or a text; None for a seat that writes none."""
        return []

    def trick_value(self, event) -> Fraction:
        """What one trick is worth in the unit of the deal's score, for the comparison (an
        artificial score in points, the cross scale): the stake's tenth."""
        return Fraction(event.stake) / 10

    def suit_order(self, event) -> str:
        """The suits from the lowest, as the game ranks them («spades-clubs-diamonds-hearts»):
        the event's own setting where the game has one."""
        return event.suit_order

    def event_part(self):
        """The game's own part of the event's form (``events.gamesettings.Part``): the
        ``Event`` fields only its events use; None for a game with none."""
        return None

    def label(self, convention: str):
        """The game's (convention's) name as the pages show it, lazily translated: what the
        event's form offers and its pages name (``events.gamesettings``)."""
        return convention

    def settings_lines(self, event) -> list[tuple[str, str]]:
        """The event page's lines of the game's settings (``events.gamesettings``): the
        scoring method; a game with settings of its own adds them."""
        return [(_("Scoring"), event.get_scoring_method_display())]

    def failed_word(self) -> str:
        """The word next to the score of a seat that missed his obligation."""
        return _("failed")

    def file_heads(self, event) -> list[str]:
        """The cells a file of the event's results adds at the end of its header row (the
        first row: bold and frozen in XLSX) to name the game, where the game needs naming."""
        return []


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
        for seat in TABLE_ORDER
        if seat in deal.active_seats
    ]
