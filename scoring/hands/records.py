"""Hand records: a deal's cards as people read them (the diagram by pocket, the talon, the
double-dummy table), and a session's hand records as plain text (docs/hand-records.md).

Shown wherever the deal's cards are known — on the public pages once the results are
published and the deal is played out (``scoring.standings.disclosure``; the director always).

The double-dummy table and «по картам» follow the event's game (``scoring.games``: its
play rules' columns — the suits, БК and мизер in the Russian game — its first trick's
leader, and the position a sheet played), asked of the game and never of its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from events import cards
from events.boards import TABLE_ORDER
from events.dealing import deal_cards, session_deals
from events.models import Deal, Event, Seat, Session, TablePlay
from scoring import games
from scoring.games import Game, NoValue, Position
from scoring.games.common.play import DEFAULT_PLAY, MISERE, NOTRUMP

SUIT_KEYS = {"spades": 0, "clubs": 1, "diamonds": 2, "hearts": 3}
RED = {2, 3}


def suit_order(event: Event) -> list[int]:
    """The suits as the event's game ranks them, lowest first (the Austrian game: the
    event's ``suit_order``; the Russian one's is fixed)."""
    names = (games.sheets_of(event).suit_order(event) or "spades-clubs-diamonds-hearts").split("-")
    order = [SUIT_KEYS[n] for n in names if n in SUIT_KEYS]
    return order if len(order) == 4 else [0, 1, 2, 3]


@dataclass(frozen=True)
class SuitLine:
    symbol: str
    name: str  # spades, clubs …
    red: bool
    ranks: str  # «A K 10 7», or «—» when void


@dataclass(frozen=True)
class Pocket:
    seat: str
    talon: bool  # the talon's pocket (W at three players, the dealer's at four)
    lines: list[SuitLine]
    player: str = ""  # who sat there at that table, where it is known
    first_hand: bool = False


@dataclass
class HandRecord:
    deal: Deal
    pockets: dict[str, Pocket]  # W N E S
    ppn: str
    # The table's columns (symbol, name, red): the suits in the event's order, then БК and
    # мизер where the game plays them.
    suits: list[SuitLine]
    table: list[tuple[str, list[tuple[int | None, int | None]]]] = field(default_factory=list)
    analysed: bool = False
    #: Who leads the first trick in the table's play: first hand (the Russian game), or ""
    #: where the declarer leads.
    leader: str = ""
    #: The table has a мизер column (the fewest tricks the declarer can be held to).
    misere: bool = False

    @property
    def square(self) -> list[Pocket]:
        return [self.pockets[s] for s in TABLE_ORDER]


def rank_text(rank: int) -> str:
    """7 … 10 as they are; the picture cards in the page's language (``events.cards``)."""
    return cards.rank_text(rank, get_language())


def _lines(hand, order: list[int]) -> list[SuitLine]:
    grouped = cards.by_suit(hand)
    return [
        SuitLine(
            cards.SUIT_SYMBOLS[s],
            cards.SUIT_NAMES[s],
            s in RED,
            " ".join(rank_text(c % 8) for c in grouped[s]) or "—",
        )
        for s in order
    ]


def current_analysis(deal: Deal, game: Game) -> dict | None:
    """The deal's stored analysis if it was computed under ``game``'s play rules (an analysis
    stored with no rules is of the Austrian play, as every one was before there was a choice
    of game); None while none is."""
    analysis = deal.analysis
    if not deal.analysed_at or not isinstance(analysis, dict) or not analysis:
        return None
    if analysis.get("play", DEFAULT_PLAY.as_json()) != game.play.as_json():
        return None
    return analysis


def _column(name: str) -> SuitLine:
    """A column of the table that is no suit: БК, мизер."""
    symbol = {
        NOTRUMP: pgettext("no trump, a column of the double-dummy table", "NT"),
        MISERE: pgettext("a column of the double-dummy table", "misère"),
    }[name]
    return SuitLine(symbol, name, False, "")


def hand_record(deal: Deal, event: Event, players: dict[str, str] | None = None):
    """The deal's hand record, or None while its cards are unknown."""
    dealt = deal_cards(deal)
    if dealt is None:
        return None
    order = suit_order(event)
    players = players or {}
    pockets = {}
    for seat in TABLE_ORDER:
        if seat in deal.active_seats:
            hand, talon = dealt.hand(seat), False
        else:
            hand, talon = dealt.talon, True
        pockets[seat] = Pocket(
            seat,
            talon,
            _lines(hand, order),
            players.get(seat, ""),
            seat == deal.first_hand,
        )
    play = games.of_event(event).play
    columns = [SuitLine(cards.SUIT_SYMBOLS[s], cards.SUIT_NAMES[s], s in RED, "") for s in order]
    columns += [_column(name) for name in play.columns if name not in cards.SUIT_NAMES]
    record = HandRecord(
        deal,
        pockets,
        deal.cards,
        columns,
        leader=play.leader(deal.first_hand) or "",
        misere=MISERE in play.columns,
    )
    analysis = current_analysis(deal, games.of_event(event))
    if analysis:
        record.analysed = True
        for seat in [s for s in TABLE_ORDER if s in deal.active_seats]:
            row = analysis.get(seat) or {}
            record.table.append(
                (
                    seat,
                    [
                        (
                            (row.get(c.name) or {}).get("talon"),
                            (row.get(c.name) or {}).get("no_talon"),
                        )
                        for c in columns
                    ],
                )
            )
    return record


def table_players(play: TablePlay) -> dict[str, str]:
    """Who sat at each position of that table in that round."""
    return {
        s.position: s.entry.full_name
        for s in Seat.objects.filter(round=play.round_id, table=play.table_id).select_related(
            "entry"
        )
        if s.position
    }


# --- the position each table played ---------------------------------------------------------


def position_key(sheet: dict | None, game: Game = games.DEFAULT) -> str | None:
    """«N.spades.talon.both», «E.misere.talon.both»: declarer, strain, talon taken or not,
    defence (both, or the lone whister's seat) of the position ``game``'s sheet played; None
    for a deal not played out (passed, both defenders passed, распасы)."""
    position = game.position(sheet)
    return position.key if isinstance(position, Position) else None


def by_cards(deal: Deal, result: dict | None, game: Game = games.DEFAULT) -> int | None:
    """The declarer's tricks the cards allowed in the position the table played, if known."""
    key = position_key((result or {}).get("sheet") if result else None, game)
    analysis = current_analysis(deal, game)
    if key is None or not analysis:
        return None
    return (analysis.get("positions") or {}).get(key)


def no_value(result: dict | None, game: Game = games.DEFAULT) -> bool:
    """The table played the deal, but the play has no double-dummy value (распасы)."""
    return isinstance(game.position((result or {}).get("sheet") if result else None), NoValue)


# --- the plain text export ------------------------------------------------------------------


def session_text(event: Event, session: Session, *, shows=None) -> str:
    """One line a deal, «<label> <PPN>» (the deal's label, ``Deal.code``: «3.2», «A3.2»),
    under a header of comments; ``shows``: which deals the reader may see
    (``scoring.standings.disclosure``; all when None)."""
    every = session_deals(session)
    deals = [d for d in every if d.cards and (shows is None or shows(d))]
    letters = sorted(
        {(d.board_set.letter, d.board_set.family) for d in every if d.board_set.letter}
    )
    # The comments are in the reader's language, like every other file's header; the data
    # lines are the same in every language.
    lines = [
        f"% {event.name}",
        f"% {session}",
        "% "
        + _(
            "Format: <set>.<deal> <PPN>; PPN = hands of the active seats in speaking order "
            "(first hand first), then the talon."
        ),
        "% " + _("PPN alphabet: 1-8 spades 7..A, 9-G diamonds, H-O hearts, P-W clubs."),
    ]
    layouts = sorted(
        {(d.board_set.players, d.number, d.active_seats, d.talon_pocket) for d in deals}
    )
    for players, number, seats, pocket in layouts:
        lines.append(
            "% "
            + ngettext(
                "%(players)d player, deal %(number)d: %(seats)s, then the talon (pocket %(pocket)s)",
                "%(players)d players, deal %(number)d: %(seats)s, then the talon (pocket %(pocket)s)",
                players,
            )
            % {"players": players, "number": number, "seats": " ".join(seats), "pocket": pocket}
        )
    if letters:
        # Where a reader needs a number (a PBN board), the family and set are these.
        lines.append(
            "% "
            + _(
                "Several families of sets (rooms with different movements): a set's letter "
                "names its family — %(families)s; A3.2 is family 1, set 3, deal 2."
            )
            % {"families": ", ".join(f"{letter} = {family}" for letter, family in letters)}
        )
    for deal in deals:
        lines.append(f"{deal.code} {deal.cards}")
    return "\n".join(lines) + "\n"


# --- the pages that show a deal ---------------------------------------------------------------


def traveller_hands(found, event: Event):
    """The traveller's hand record; each row gets ``by_cards``: the declarer's tricks the
    cards allowed in the position that table played (None when not known)."""
    deal = found.deal
    record = hand_record(deal, event)
    game = games.of_event(event)
    for row in found.rows:
        row.by_cards = None
        row.no_value = False
        if record is None or row.sheet is None or row.sheet.current is None:
            continue
        # Распасы: «по картам» is not counted, whatever the cards (and the page says so).
        row.no_value = no_value(row.sheet.current.result, game)
        # A fouled box's version other than the first was played with other cards
        # (docs/game.md §2.7: the same rule as the comparison's).
        if getattr(row, "version", None) not in (None, 1):
            continue
        row.by_cards = by_cards(deal, row.sheet.current.result, game)
    return record


def card_hands(card, event: Event) -> list[HandRecord]:
    """The hand records of the deals on a player's card, each with the names of who sat at
    his table in that round."""
    entry = card.entry
    tables = {
        (s.round.room.session_id, s.round.number): (s.round_id, s.table_id)
        for s in Seat.objects.filter(entry=entry, table__isnull=False).select_related("round__room")
    }
    names: dict[tuple[int, int], dict[str, str]] = {}
    wanted = set(tables.values())
    if wanted:
        for s in Seat.objects.filter(
            round_id__in={r for r, _t in wanted}, table_id__in={t for _r, t in wanted}
        ).select_related("entry"):
            if (s.round_id, s.table_id) in wanted and s.position:
                names.setdefault((s.round_id, s.table_id), {})[s.position] = s.entry.full_name
    found = []
    for row in card.rows:
        if row.deal is None or row.hidden or not row.deal.cards:
            continue
        at = tables.get((row.session.pk, row.round_number))
        record = hand_record(row.deal, event, names.get(at, {}) if at else {})
        if record is not None:
            found.append(record)
    return found
