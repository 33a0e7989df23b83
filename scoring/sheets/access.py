"""Who may write a table's sheets, and when (docs/game.md §7.2): the director of the event at any time; a seated player while his table's round is on the clock and after «Конец тура!» until the table's next round starts, unless the director closed or opened the table-round for the players."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Subquery
from django.utils.translation import gettext as _

from events import clockdoc, staff
from events.actionlog import log_action
from events.models import Event, Round, Seat, Table
from scoring.ladder import services as ladders
from scoring.models import Deal, Proof, ScoreSheet, TablePlay
from scoring.queue import queue_after_commit
from scoring.sheets.check import _event_of
from scoring.sheets.stale import _mark_stale, _recompute_here

# --- who may write --------------------------------------------------------------------------


def _check_director(user, event: Event, action: str = "sheets", room=None) -> None:
    """A director's write: the account's role in the event allows ``action`` (in ``room``,
    for a room director) — the rule of events.staff, asked again where the change is made,
    whatever door it came through."""
    staff.require(user, event, action, room=room)


def _log_play(play: TablePlay, by_user, kind: str, **line) -> None:
    """The event's log line of a director's write at this table-round (``events.actionlog``),
    in the write's transaction: the room and the table where it was done. Never on a
    player's own write (no ``by_user``): his writes are no director's action."""
    log_action(_event_of(play), by_user, kind, room=play.round.room, table=play.table, **line)


def _seated_entries(play: TablePlay) -> list[int]:
    """The entries seated at the table in the round: one query per ``play`` object (a write
    checks the writer against them and then tells their phones, from the same read)."""
    seated = play.__dict__.get("_seated_entries")
    if seated is None:
        seated = list(
            Seat.objects.filter(round_id=play.round_id, table_id=play.table_id)
            .order_by()
            .values_list("entry_id", flat=True)
        )
        play.__dict__["_seated_entries"] = seated
    return seated


def _player_seat(play: TablePlay, entry) -> None:
    if entry.pk not in _seated_entries(play) or entry.event_id != _event_of(play).pk:
        raise PermissionDenied(
            _("%(name)s does not sit at table %(table)d in round %(round)d.")
            % {"name": entry.full_name, "table": play.table.number, "round": play.round.number}
        )


# --- when a table's players may write ---------------------------------------------------


@dataclass(frozen=True)
class PlayersAccess:
    """Whether the players of a table-round may enter and confirm its sheets now.

    ``late``: open after «Конец тура!» — what they write then is marked late for the
    director. ``reason``: why it is closed, or until when it stays open (the user's
    language); empty while the round is on the clock. ``at_table_now``: the round is the one
    at the table now (on the clock, or over and the table's next round not started): only
    then may a player write without showing who he is (``scoring.sheets.proof``)."""

    open: bool
    late: bool
    reason: str
    at_table_now: bool = False


def _access(play: TablePlay, following: Round | None) -> PlayersAccess:
    """The rule. On the clock: open. Before it: closed. After «Конец тура!» the table may
    finish writing until its next round (the room's following round) starts — the last round
    of the session until the director closes it; the director may close a table earlier or
    open it again later."""
    rnd = play.round
    n = rnd.number
    if rnd.is_on_clock:
        return PlayersAccess(True, False, "", at_table_now=True)
    # Over, and the table has not moved on: the round is still the one at the table.
    here = rnd.state == Round.State.FINISHED and (
        following is None or following.state == Round.State.PENDING
    )
    if rnd.state == Round.State.PENDING:
        return PlayersAccess(
            False,
            False,
            _("Round %(n)d has not started yet: sheets can be entered once it starts.") % {"n": n},
        )
    if play.players_access == TablePlay.Access.OPEN:
        return PlayersAccess(
            True,
            True,
            _(
                "The director has opened round %(n)d again for this table: its sheets can be "
                "entered and confirmed; they are marked late."
            )
            % {"n": n},
            at_table_now=here,
        )
    if play.players_access == TablePlay.Access.CLOSED:
        return PlayersAccess(
            False,
            False,
            _(
                "Round %(n)d is over and the director has closed it: only the director can "
                "record or correct its sheets now."
            )
            % {"n": n},
        )
    if following is not None and following.state != Round.State.PENDING:
        return PlayersAccess(
            False,
            False,
            _(
                "Round %(n)d is over and round %(next)d has started: only the director can "
                "record or correct the sheets of round %(n)d now."
            )
            % {"n": n, "next": following.number},
        )
    if following is not None:
        return PlayersAccess(
            True,
            True,
            _(
                "Round %(n)d is over: its sheets can still be entered and confirmed until round "
                "%(next)d starts. They are marked late for the director."
            )
            % {"n": n, "next": following.number},
            at_table_now=True,
        )
    return PlayersAccess(
        True,
        True,
        _(
            "Round %(n)d is over: its sheets can still be entered and confirmed until the "
            "director closes the round. They are marked late for the director."
        )
        % {"n": n},
        at_table_now=True,
    )


def _following(rounds) -> dict[int, Round | None]:
    """Each round's following round in its room (None for the last), in one query that
    returns only those rounds (not the room's hundred others)."""
    rounds = list(rounds)
    if not rounds:
        return {}
    if len(rounds) == 1:  # a table's page or write: the plainest query
        (rnd,) = rounds
        if "following_round" in rnd.__dict__:  # read with the round (events.rounds)
            return {rnd.pk: rnd.following_round}
        nxt = (
            Round.objects.filter(room_id=rnd.room_id, number__gt=rnd.number)
            .order_by("number")
            .first()
        )
        return {rnd.pk: nxt}
    next_pk = Subquery(
        Round.objects.filter(room_id=OuterRef("room_id"), number__gt=OuterRef("number"))
        .order_by("number")
        .values("pk")[:1]
    )
    given = Round.objects.filter(pk__in=[r.pk for r in rounds]).annotate(next_pk=next_pk)
    later = list(Round.objects.filter(pk__in=given.values("next_pk")).order_by("number"))
    return {
        r.pk: next((o for o in later if o.room_id == r.room_id and o.number > r.number), None)
        for r in rounds
    }


def players_access(play: TablePlay) -> PlayersAccess:
    """May the players of ``play`` enter and confirm its sheets now (see :func:`_access`)?
    The table's pages ask this before they offer a button; the writes below ask it again."""
    return _access(play, _following([play.round])[play.round_id])


def plays_access(plays) -> dict[int, PlayersAccess]:
    """:func:`players_access` of several table-rounds (``round`` selected), in one query."""
    plays = list(plays)
    following = _following({p.round_id: p.round for p in plays}.values())
    return {p.pk: _access(p, following[p.round_id]) for p in plays}


@dataclass(frozen=True)
class EntryPlay:
    """A table-round where a player sat: ``play`` with its ``round`` (number, state) and
    ``table`` (number, key), his seat, his session's number, and whether his table may
    write its sheets now (:func:`players_access`)."""

    play: TablePlay
    position: str
    session_number: int
    access: PlayersAccess


def entry_plays(entry) -> list[EntryPlay]:
    """Every table-round where ``entry`` sat, once its round has started, in the order he
    played them: one query (his
    seats joined to their tables' rounds, each with the room's following round, which the
    rule of who may write reads), plain values, no model rows read twice. His phone builds
    both his open sheets and his results from it; it grows with what he played, never with
    the tables or the rounds planned."""
    later = Round.objects.filter(
        room_id=OuterRef("round__room_id"), number__gt=OuterRef("round__number")
    ).order_by("number")
    rows = (
        TablePlay.objects.filter(
            round__placements__entry=entry, round__placements__table=F("table")
        )
        # A round not started has neither sheets nor a table that may write.
        .exclude(round__state=Round.State.PENDING)
        # The same join as the filter: the seat he had at that table.
        .annotate(
            position=F("round__placements__position"),
            next_number=Subquery(later.values("number")[:1]),
            next_state=Subquery(later.values("state")[:1]),
        )
        .order_by()
        .values_list(
            "pk",
            "key",
            "round_id",
            "table_id",
            "board_set_id",
            "players_access",
            "round__number",
            "round__state",
            "round__room_id",
            "round__room__session__number",
            "table__number",
            "table__key",
            "position",
            "next_number",
            "next_state",
        )
    )
    found = []
    for (
        pk,
        key,
        round_id,
        table_id,
        board_set_id,
        access,
        number,
        state,
        room_id,
        session_number,
        table_number,
        table_key,
        position,
        next_number,
        next_state,
    ) in rows:
        play = TablePlay(
            pk=pk,
            key=key,  # the round link his phone opens
            round_id=round_id,
            table_id=table_id,
            board_set_id=board_set_id,
            players_access=access,
        )
        play.round = Round(pk=round_id, room_id=room_id, number=number, state=state)
        play.table = Table(pk=table_id, room_id=room_id, number=table_number, key=table_key)
        following = (
            Round(room_id=room_id, number=next_number, state=next_state)
            if next_number is not None
            else None
        )
        found.append(EntryPlay(play, position, session_number, _access(play, following)))
    found.sort(key=lambda p: (p.session_number, p.play.round.number))
    return found


def entry_open_plays(entry, plays: list[EntryPlay] | None = None) -> list[TablePlay]:
    """The finished table-rounds where ``entry`` sat whose sheets his table may still enter
    and confirm (after «Конец тура!», or opened again by the director): his phone links
    them. From :func:`entry_plays` (``plays``: already read by the caller), by the rule of
    :func:`players_access`."""
    if plays is None:
        plays = entry_plays(entry)
    return [p.play for p in plays if p.play.round.state == Round.State.FINISHED and p.access.open]


def _actor(play: TablePlay, by_user, by_entry, proof: str = Proof.SEAT) -> PlayersAccess | None:
    """Check the actor: None for the director; for a player, when his table may write, and
    without a proof of who he is (``scoring.sheets.proof``) only the round at the table now."""
    if (by_user is None) == (by_entry is None):
        raise ValueError("a sheet is written either by the director or by a player")
    if by_user is not None:
        _check_director(by_user, _event_of(play), "sheets", play.round.room)
        return None
    _player_seat(play, by_entry)
    access = players_access(play)
    if not access.open:
        raise ValidationError({"round": access.reason})
    if proof not in PROVEN and not access.at_table_now:
        raise ValidationError(
            {
                "pin": _(
                    "Round %(n)d is no longer at this table: its sheets are written with a "
                    "proof of who you are — type your PIN from your name card, or open the "
                    "table from your own page."
                )
                % {"n": play.round.number}
            }
        )
    return access


#: The proofs that show a second person (scoring.sheets.proof): his own link or his PIN.
PROVEN = (Proof.LINK, Proof.PIN)


def _proof_of(by_entry, proof: str | None) -> str:
    """A player's write says how he showed who he is; none said is none shown."""
    if by_entry is None:
        return Proof.NONE
    return proof if proof in (Proof.LINK, Proof.PIN) else Proof.SEAT


def _check_access_change(rnd: Round, access: str, by_user) -> None:
    _check_director(by_user, rnd.room.session.event, "sheets", rnd.room)
    if access not in TablePlay.Access.values:
        raise ValidationError({"access": _("Open the table, close it, or leave it to the clock.")})
    if rnd.state != Round.State.FINISHED:
        raise ValidationError(
            {
                "access": _(
                    "Round %(n)d is not over: while it is on the clock its tables write their "
                    "sheets, before it starts nobody does."
                )
                % {"n": rnd.number}
            }
        )


def play_access_set(play: TablePlay, access: str, *, by_user) -> TablePlay:
    """The director opens a finished round to one table's players again (``open``), closes
    it to them (``closed``) or leaves it to the clock (``""``)."""
    with transaction.atomic():
        play = _locked_play(play)
        _check_access_change(play.round, access, by_user)
        before = play.players_access
        play.players_access = access
        play.save(update_fields=["players_access"])
        _console_changed(play)
        _log_play(
            play,
            by_user,
            "sheet.access",
            before={"round": play.round.number, "access": before},
            after={"round": play.round.number, "access": access},
        )
        return play


def round_access_set(rnd: Round, access: str, *, by_user) -> int:
    """The same for every table of a finished round (e.g. the director closes the last round
    of the session); the number of tables changed."""
    with transaction.atomic():
        rnd = (
            Round.objects.select_for_update(of=("self",))
            .select_related("room__session__event")
            .get(pk=rnd.pk)
        )
        _check_access_change(rnd, access, by_user)
        before = sorted(
            set(TablePlay.objects.filter(round=rnd).values_list("players_access", flat=True))
        )
        changed = (
            TablePlay.objects.filter(round=rnd)
            .exclude(players_access=access)
            .update(players_access=access)
        )
        if changed:
            clockdoc.room_changed(rnd.room_id, clock=False)
            clockdoc.tables_changed(
                TablePlay.objects.filter(round=rnd).values_list("table_id", flat=True)
            )
            clockdoc.entries_changed(
                Seat.objects.filter(round=rnd, entry__isnull=False).values_list(
                    "entry_id", flat=True
                )
            )
        log_action(
            rnd.room.session.event,
            by_user,
            "sheet.access",
            room=rnd.room,
            before={"round": rnd.number, "access": before},
            after={"round": rnd.number, "access": access, "tables": changed},
        )
        return changed


def _console_changed(play: TablePlay, changed_deals=()) -> None:
    """What the room's console shows changed: its poller rebuilds the grid (events/clockdoc);
    and what the phones of the table's players show of it (their own sheets and points).
    ``changed_deals``: deals whose comparison moved (see :func:`_mark_stale`).

    One task after commit (queued after the tokens' second bump, an earlier hook) does the
    rest in the worker: it recomputes the deals, then builds the players' fragments under the
    keys their phones will ask for. Without a broker the deals are recomputed here and the
    phones build their fragments themselves."""
    entries = [pk for pk in _seated_entries(play) if pk is not None]
    clockdoc.room_and_entries_changed(play.round.room_id, entries, play.table_id)
    ids, session = _mark_stale(changed_deals, play)
    if ids and session is not None and "event" in session._state.fields_cache:
        ladders.event_touched(session.event)  # a correction after publishing: the ladder
    queue_after_commit(
        "scoring.table_changed",
        [ids, session.pk if session is not None else None, entries],
        otherwise=_recompute_here(ids, session) if ids else None,
    )


def _locked_play(play: TablePlay, *, sheet_of: Deal | None = None) -> TablePlay:
    """The table-round locked, with its round as of now (the rule of who may write reads its
    state) and the event (the rules); its table, room, session and event, if the caller
    has just read them, without another join. ``sheet_of``: a deal whose sheet the caller
    reads next; ``locked.has_sheet`` then says whether there is one (read in the same row:
    a first save reads nothing more)."""
    known = play._state.fields_cache.get("round")
    room = known._state.fields_cache.get("room") if known is not None else None
    upward = room is not None and _has_path(room, "session", "event")
    query = TablePlay.objects.select_for_update(of=("self",)).select_related(
        "round" if upward else "round__room__session__event"
    )
    if sheet_of is not None:
        query = query.annotate(
            has_sheet=Exists(ScoreSheet.objects.filter(play=OuterRef("pk"), deal=sheet_of))
        )
    locked = query.get(pk=play.pk)
    if upward and room.pk == locked.round.room_id:
        locked.round.room = room
    elif upward:  # moved to another room meanwhile: read it
        locked.round = Round.objects.select_related("room__session__event").get(pk=locked.round_id)
    if "table" in play._state.fields_cache:
        locked.table = play.table
    # What the caller read a moment ago of the table-round's neighbours, kept: who sits at
    # the table, and the room's following round (a round's start does not lock its tables'
    # rows, so reading it again under this lock would be no fresher).
    if "_seated_entries" in play.__dict__:
        locked.__dict__["_seated_entries"] = play.__dict__["_seated_entries"]
    if known is not None and "following_round" in known.__dict__ and known.pk == locked.round_id:
        locked.round.following_round = known.following_round
    return locked


def _has_path(obj, *names: str) -> bool:
    """Whether the related objects ``obj.<name>.<name>…`` are loaded (no query to follow)."""
    for name in names:
        obj = obj._state.fields_cache.get(name)
        if obj is None:
            return False
    return True
