"""What the table's pages share: the round link's state (the play, its seats, its deals, kept per key between the clock's ticks), who the phone is (his own link, a seat proven by PIN, the signed cookie of a finished round), the page's context and a recorded result in its game's words."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import OuterRef, Subquery
from django.shortcuts import redirect
from django.urls import reverse

from events import clockdoc
from events.boards import TABLE_ORDER
from events.links import LinkNotFound, table_by_key
from events.models import Round, Seat, Table
from scoring.models import Deal, TablePlay
from scoring.sheets import proof, services
from scoring.sheets.device import device_hash
from scoring.sheets.views import _seats
from scoring.standings import disclosure
from scoring.standings.disclosure import DealState, Who


def _in_table_order(positions):
    return sorted(positions, key=TABLE_ORDER.index)


def _play_by_key(key: str) -> TablePlay | None:
    """The table-round of a round link with its round, table, room, session, event and set,
    and the room's following round (who may still write a finished round asks it): one
    query, reading one row."""
    later = Round.objects.filter(
        room_id=OuterRef("round__room_id"), number__gt=OuterRef("round__number")
    ).order_by("number")
    play = (
        TablePlay.objects.select_related("round__room__session__event", "table", "board_set")
        .annotate(
            next_number=Subquery(later.values("number")[:1]),
            next_state=Subquery(later.values("state")[:1]),
        )
        .filter(key=key)
        .order_by()
        .first()
    )
    if play is not None:
        rnd = play.round
        play.table.room = rnd.room  # a table never changes rooms: no second join up to it
        rnd.following_round = (
            Round(room_id=rnd.room_id, number=play.next_number, state=play.next_state)
            if play.next_number is not None
            else None
        )
    return play


def _me(request, seats: list[Seat]) -> Seat | None:
    """The player entering: chosen seat (POST «as»), else the player's own key (?me=)."""
    chosen = request.POST.get("as") or request.GET.get("as")
    if chosen:
        return next((s for s in seats if s.position == chosen), None)
    key = request.POST.get("me") or request.GET.get("me")
    if key:
        return next((s for s in seats if s.entry.key == key), None)
    return None


def _who_query(request, me: Seat | None) -> str:
    """How links name the player: by his own key if he came with it, else by his seat (the
    table's shared device must not learn a player's private key)."""
    if me is None:
        return ""
    key = request.POST.get("me") or request.GET.get("me")
    return f"me={key}" if key == me.entry.key else f"as={me.position}"


def _linked(request, seats: list[Seat]) -> Seat | None:
    key = request.POST.get("me") or request.GET.get("me")
    return next((s for s in seats if key and s.entry.key == key), None)


def _identify(request, ctx: dict, *, named: bool = True) -> tuple[proof.Identity | None, str]:
    """Who writes (the seat chosen, else the player whose link it is) and how he proved it;
    with the PIN's problem, if any, in the user's language. The round's access goes first:
    a PIN for a round its players may not write is neither compared nor counted. Wrong PINs
    are counted per phone and per player (``scoring.sheets.proof``)."""
    try:
        return (
            proof.identify(
                ctx["seats"],
                access=ctx["access"],
                position=request.POST.get("as") or request.GET.get("as"),
                key=request.POST.get("me") or request.GET.get("me"),
                pin=request.POST.get("pin"),
                named=named,
                device=device_hash(request),
            ),
            "",
        )
    except ValidationError as error:
        return None, " ".join(error.message_dict.get("pin", error.messages))


@dataclass(frozen=True)
class _TableState:
    """What a round link's pages read at every request of its phone: the table-round with
    its table (room, session, event), its round (with its following round) and set, and
    the seats."""

    table: Table
    round: Round
    play: TablePlay
    seats: tuple[Seat, ...]
    # The set's deals, in order: fixed once the session is made (only their stale mark for
    # the standings moves, which no page here reads).
    deals: tuple[Deal, ...] = ()
    set_label: str = ""  # the set as the cards print it: «3», or «A3» (BoardSet.label)


def _play_ids(key: str, read: list | None = None) -> tuple[int, int] | None:
    """The table's and the room's ids of a round link (None: no round's key), kept in this
    process (a table-round never moves). ``read``: gets the table-round if it was read."""

    def ids_of():
        play = _play_by_key(key)
        if play is None:
            return None  # not kept: a key that is no round's is looked up again
        if read is not None:
            read.append(play)
        return play.table_id, play.round.room_id

    return clockdoc.local_by_tokens(("play-ids", key), ids_of)


def _table_state(key: str) -> _TableState | None:
    """The table-round of a round link (None when ``key`` is no round's: perhaps a table's).

    The phone asks for the same rows at every page, deal form, «Check» and «Save», each
    perhaps served by another process: they are kept in the shared cache and in this
    process under the tokens that change with them — the setup (seating, the event's
    details and rules), the room's clock (every round's state) and the table's own (its
    players' access, its sheets: ``events.clockdoc.table_key``). One round trip to the cache
    then, no query; a change bumps a token, so the next request reads the rows again. The
    writes read what they decide on again under their lock (``scoring.sheets.services``). The
    process's threads share the objects: nothing here or in the views changes them."""
    read = []  # the table-round, if its ids had to be read (the state below then reuses it)
    ids = _play_ids(key, read)
    if ids is None:
        return None
    table_id, room_id = ids
    tokens = clockdoc.tokens(
        [clockdoc.SETUP, clockdoc.clock_key(room_id), clockdoc.table_key(table_id)]
    )
    memo_key = ":".join(["table-round", key, *(tokens[k] for k in sorted(tokens))])
    return clockdoc.by_tokens(memo_key, lambda: _read_state(read[0] if read else key))


def _read_state(play: TablePlay | str) -> _TableState:
    if isinstance(play, str):
        found = _play_by_key(play)
        if found is None:  # made again since this process learnt its ids
            raise LinkNotFound("table")
        play = found
    seats = sorted(_seats(play), key=lambda s: TABLE_ORDER.index(s.position))
    play.__dict__["_seated_entries"] = [s.entry_id for s in seats]  # the writes check it
    deals = tuple(play.board_set.deals.order_by("number"))
    for deal in deals:
        deal.board_set = play.board_set
    return _TableState(play.table, play.round, play, tuple(seats), deals, play.board_set.label)


def _state_or_gate(key: str) -> _TableState:
    """A round link's state; under a table's key (an old address of a table's page) the
    table's gate instead, which leads its players on (a redirect, raised); else a 404."""
    state = _table_state(key)
    if state is None:
        table_by_key(key)  # no table either: LinkNotFound
        raise _ToGate(key)
    return state


class _ToGate(Exception):
    def __init__(self, key: str):
        self.key = key


def _gated(view):
    """A round link's page asked under a table's key (an address of before round links, or
    typed from the card) goes to the table's gate: nothing of any round is read for it."""

    @functools.wraps(view)
    def wrapped(request, key, *args, **kwargs):
        try:
            return view(request, key, *args, **kwargs)
        except _ToGate:
            return redirect("table:home", key)

    return wrapped


#: How long a PIN typed at a finished round's page shows its sheets on that phone.
SEEN_SECONDS = 15 * 60
_SEEN_SALT = "scoring.table.seen"


def _seen_cookie(play: TablePlay) -> str:
    return f"seen_{play.pk}"


def _seen_seat(request, play: TablePlay, seats: list[Seat]) -> Seat | None:
    """The seat whose player typed his PIN at this finished round's page on this phone in
    the last :data:`SEEN_SECONDS` (a signed cookie of the round's pages only)."""
    found = request.get_signed_cookie(
        _seen_cookie(play), default=None, salt=_SEEN_SALT, max_age=SEEN_SECONDS
    )
    return next((s for s in seats if found and str(s.entry_id) == found), None)


def _context(request, state: _TableState) -> dict:
    table, rnd, play, seats = state.table, state.round, state.play, list(state.seats)
    following = rnd.following_round
    not_started = rnd.state == Round.State.PENDING
    if not_started:
        # A round not started shows neither its set nor its seats.
        seats, deals = [], []
    else:
        deals = list(state.deals)
    me = _me(request, seats)
    linked = _linked(request, seats)
    # Asked of the service before any button is offered: the page never offers what the
    # write would refuse, and says why instead.
    access = services.players_access(play)
    # Once «Конец тура!» is given, a round's page shows its sheets only to someone who
    # proves he sat there (docs/game.md §4.5): his own link, or his PIN typed here lately.
    round_over = rnd.state == Round.State.FINISHED
    proven = linked or (_seen_seat(request, play, seats) if round_over else None)
    who = Who.TABLE_PROVEN if proven is not None else Who.TABLE
    # The seat the page marks «(you)»: his own link's or the one proven here, or the seat
    # the gate led him to after his PIN (?as=); never a seat merely chosen in a form whose
    # PIN was refused.
    you = proven or next((s for s in seats if s.position == request.GET.get("as")), None)
    return {
        "table": table,
        "room": table.room,
        "event": table.room.session.event,
        "round": rnd,
        "play": play,
        "not_started": not_started,
        # Over, and the table has moved on to its next round: this link shows this round only.
        "moved_on": rnd.state == Round.State.FINISHED
        and following is not None
        and following.state != Round.State.PENDING,
        "seats": seats,
        "deals": deals,
        "me": me,
        "me_key": request.GET.get("me", "") or request.POST.get("me", ""),
        # The seat of the player whose own link the page came from: proven without a PIN.
        "linked": linked,
        "you": you,
        "set_label": state.set_label,
        "who": _who_query(request, me),
        "access": access,
        "open_to_players": access.open,
        "round_url": reverse("table:round", args=[play.key]),
        "round_over": round_over,
        "who_asks": who,
        "proven_seat": proven,
        # Nothing of the round's sheets for this phone: «Тур окончен» and the gate.
        "gated": not not_started
        and not disclosure.may_see(who, DealState.ENTERED, round_over=round_over),
    }
