"""Writes of the scoring side: score sheets, confirmations, adjustments, and what the round's
end marks. Services write; views and serializers only translate.

Every score sheet goes through :func:`sheet_record`: the rules of the deal are checked and the
settlement computed by the pure core (``scoring.games.austrian``) with the event's rule set; the deal's
layout (active seats, first hand) comes from the ``Deal`` row, never from the scorer. Who may
write:

- the director of the event, at any time: his write is final (``confirmed``) and a change is
  a new version — history is kept, nothing is overwritten silently;
- a player seated at that table in that round, while the round is on the clock and after
  «Конец тура!» until the table's next round starts (see :func:`players_access`): a first
  result is ``entered``; the same result again records nothing; a *different* result does not
  overwrite — it is kept as a proposed version and the sheet becomes ``disputed`` until the
  director decides. What players write after «Конец тура!» is marked ``late``.

A change of a sheet's current result marks the deal's comparison stale; after commit the worker
recomputes it (``scoring.tasks``), and any reader recomputes what is still stale
(``scoring.standings``), so the figure is right at the next read either way.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Subquery
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events import clockdoc
from events.models import Event, Round, Seat, Table
from scoring import boxes, games, ladders, standings
from scoring.games.common.messages import InvalidInput, Message, Problems
from scoring.games.forms import parse_talon
from scoring.games.sheets import SheetGame
from scoring.models import Adjustment, Deal, Proof, ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.queue import queue_after_commit

logger = logging.getLogger("scoring")


def lang() -> str:
    """The interface language for the core's messages: ``en`` or ``ru``."""
    return "en" if (get_language() or "").startswith("en") else "ru"


# --- the event's rule set -------------------------------------------------------------------


def _event_of(play: TablePlay) -> Event:
    return play.round.room.session.event


def _earlier(play: TablePlay, deal: Deal) -> dict[int, dict]:
    """The stored results of the set's earlier deals at this table, by number: what a game
    whose deals carry over (``SheetGame.carries_over``: the running pot) reads."""
    return dict(
        ScoreSheet.objects.filter(
            play=play, deal__number__lt=deal.number, current__isnull=False
        ).values_list("deal__number", "current__result")
    )


# --- checking one sheet ---------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """A sheet that passed every rule: what was entered, and its settlement by its game."""

    data: dict  # the scorer's fields only, as entered
    deal: object  # the game core's deal
    settlement: object  # the game core's settlement
    result: dict  # the stored result JSON (``scoring.games``)
    game: SheetGame

    @property
    def essence(self) -> dict:
        return self.game.essence(self.deal)

    @property
    def passed_out(self) -> bool:
        """Everybody passed: nothing is at stake, every player scores 0."""
        return self.game.passed_out(self.deal)


def essence_of_data(data: dict, play: TablePlay, deal: Deal) -> dict | None:
    """The essence of a stored version's data (None if it no longer parses)."""
    event = _event_of(play)
    game = games.of_event(event).sheets
    entered = {k: v for k, v in data.items() if k in game.input_fields}
    try:
        return game.essence(game.settle(game.request(event, deal, entered))[0])
    except InvalidInput:
        return None


def _core_field(name: str, data: dict, deal: Deal) -> str:
    """Where a core problem is shown: the layout fields the scorer never types are reported
    on what he did type (the declarer, or the defenders)."""
    head = name.split(".")[0]
    if head in ("board", "seats"):
        declarer = str(data.get("declarer") or "").strip().upper()
        return "declarer" if declarer and declarer not in deal.active_seats else "defenders"
    if head == "first_hand":
        return "auction"
    if head == "rules":
        return NON_FIELD_ERRORS
    return name


def problems_error(problems: Problems, data: dict, deal: Deal) -> ValidationError:
    """The core's problems as a Django ValidationError {field: [message]} in the user's
    language."""
    errors: dict[str, list[str]] = {}
    for name, text in problems.render(lang()).items():
        errors.setdefault(_core_field(name, data, deal), []).append(text)
    return ValidationError(errors)


def _check_deal_in_play(play: TablePlay, deal: Deal) -> None:
    if deal.board_set_id != play.board_set_id:
        raise ValidationError(
            {
                "deal": _(
                    "Deal %(code)s is not in the set table %(table)d plays in round %(round)d."
                )
                % {"code": deal.code, "table": play.table.number, "round": play.round.number}
            }
        )


def sheet_check(
    play: TablePlay, deal: Deal, data: object, *, by_director: bool = False, talon: bool = True
) -> Checked:
    """Check a sheet against the rules and settle it; nothing of the sheet is saved (a
    player's talon that is not the deal's is kept as tried: ``boxes.talon_refused``). Raises
    ValidationError {field: message} naming each broken rule. ``talon``: whether its talon
    is compared with the deal's known one — only when the sheet is saved (the «Проверить»
    step of a player's form does not: it would answer before the play, docs/game.md §2.7)."""
    _check_deal_in_play(play, deal)
    if not isinstance(data, dict):
        problems = Problems()
        problems.add("data", "not_object")
        raise problems_error(problems, {}, deal)
    event = _event_of(play)
    game = games.of_event(event).sheets
    unknown = [str(key) for key in data if key not in game.input_fields]
    if unknown:
        text = Message("unknown_field").render(lang())
        raise ValidationError({key: [text] for key in unknown})
    entered = {k: data[k] for k in game.input_fields if k in data and data[k] not in (None, "")}
    request = game.request(event, deal, entered, earlier=lambda: _earlier(play, deal))
    try:
        parsed, settlement = game.settle(request)
    except InvalidInput as error:
        raise problems_error(error.problems, entered, deal) from None
    # The talon against the deal's known talon (docs/game.md §2.7): on its own field.
    if talon:
        boxes.talon_problem(play, deal, parsed.talon, by_director=by_director)
    result = game.result(parsed, settlement)
    return Checked(
        data=_plain(entered), deal=parsed, settlement=settlement, result=result, game=game
    )


def _plain(data: dict) -> dict:
    """JSON-safe copy (Decimals from a JSON parser become numbers)."""
    return json.loads(json.dumps(data, default=_json_default, ensure_ascii=False))


def _json_default(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def data_digest(data: dict) -> str:
    """A short fingerprint of a sheet's input: the scorer form saves only what it showed."""
    text = json.dumps(_plain(data), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --- who may write --------------------------------------------------------------------------


def _is_director(user, event: Event) -> bool:
    return bool(user and user.is_authenticated and (user.is_superuser or event.owner_id == user.pk))


def _check_director(user, event: Event) -> None:
    if not _is_director(user, event):
        raise PermissionDenied(_("Only the director of this event may do this."))


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
    then may a player write without showing who he is (``scoring.proof``)."""

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
    without a proof of who he is (``scoring.proof``) only the round at the table now."""
    if (by_user is None) == (by_entry is None):
        raise ValueError("a sheet is written either by the director or by a player")
    if by_user is not None:
        _check_director(by_user, _event_of(play))
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


#: The proofs that show a second person (scoring.proof): his own link or his PIN.
PROVEN = (Proof.LINK, Proof.PIN)


def _proof_of(by_entry, proof: str | None) -> str:
    """A player's write says how he showed who he is; none said is none shown."""
    if by_entry is None:
        return Proof.NONE
    return proof if proof in (Proof.LINK, Proof.PIN) else Proof.SEAT


def _check_access_change(rnd: Round, access: str, by_user) -> None:
    _check_director(by_user, rnd.room.session.event)
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
        play.players_access = access
        play.save(update_fields=["players_access"])
        _console_changed(play)
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


# --- recording ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """What :func:`sheet_record` did: ``created``, ``corrected`` (a new current version),
    ``disputed`` (a different proposal kept in history) or ``unchanged`` (same result)."""

    sheet: ScoreSheet
    version: ScoreSheetVersion
    outcome: str


def _new_version(
    sheet, checked: Checked, number: int, by_user, by_entry, note: str, proof="", where=None
):
    device, via_entry = where or ("", None)
    return ScoreSheetVersion.objects.create(
        device=device if by_entry is not None else "",
        via_entry=via_entry if by_entry is not None else None,
        sheet=sheet,
        number=number,
        data=checked.data,
        result=checked.result,
        entered_by_user=by_user,
        entered_by_entry=by_entry,
        proof=proof if by_entry is not None else Proof.NONE,
        note=(note or "").strip()[:200],
    )


def _check_expected(sheet: ScoreSheet | None, expected_version) -> None:
    if expected_version in (None, ""):
        return
    try:
        expected = int(expected_version)
    except (TypeError, ValueError):
        raise ValidationError(
            {"expected_version": _("The version must be a whole number.")}
        ) from None
    now = sheet.current.number if sheet is not None and sheet.current_id else 0
    if expected != now:
        raise ValidationError(
            {
                "expected_version": _(
                    "The sheet has changed meanwhile: it is now at version %(now)d, you edited "
                    "version %(was)d. Look at it again and send your change once more."
                )
                % {"now": now, "was": expected}
            }
        )


def sheet_record(
    play: TablePlay,
    deal: Deal,
    data: object,
    *,
    by_user=None,
    by_entry=None,
    expected_version: int | None = None,
    note: str = "",
    proof: str | None = None,
    device: str = "",
    via_entry=None,
) -> Recorded:
    """Record a deal's result at a table (see the module's rules of who may write).

    ``proof``: how the player (``by_entry``) showed who he is (``scoring.proof``); none
    given is none shown: the version is marked so for the director, and only the round at
    the table now may be written so. ``device``: the phone it is written from
    (``scoring.device.device_hash``); ``via_entry``: the player whose own link the page
    carried, if any — kept so that one person cannot confirm what he entered unproven.

    ``expected_version`` (optional): the version the writer saw (0: no sheet yet); if the
    sheet changed meanwhile, nothing is saved. Raises ValidationError {field: message} in the
    user's language, PermissionDenied for a wrong actor; nothing is saved on error (but a
    player's talon refused is kept as tried, ``boxes.talon_refused``).
    """
    try:
        return _sheet_record(
            play,
            deal,
            data,
            by_user=by_user,
            by_entry=by_entry,
            expected_version=expected_version,
            note=note,
            proof=proof,
            where=(device, via_entry),
        )
    except boxes.TalonDiffers as error:
        if by_user is None:  # the write rolled back: keep what the table tried
            boxes.talon_refused(play, deal, error.talon)
        raise


def _sheet_record(play, deal, data, *, by_user, by_entry, expected_version, note, proof, where):
    with transaction.atomic():
        play = _locked_play(play, sheet_of=deal)
        proof = _proof_of(by_entry, proof)
        # The deal as given (a set's deals never change; sheet_check checks it is the
        # play's set): its board set read once if the caller did not.
        access = _actor(play, by_user, by_entry, proof)
        late = access is not None and access.late
        checked = sheet_check(play, deal, data, by_director=by_user is not None)
        boxes.talon_recorded(play, deal, checked.deal.talon)
        sheet = None
        if play.has_sheet:  # no row yet (a first save): nothing to read
            sheet = (
                ScoreSheet.objects.select_related("current")
                .filter(play=play, deal=deal)
                .order_by()
                .first()
            )
        director = by_user is not None
        if sheet is None or sheet.current_id is None:
            _check_expected(sheet, expected_version)
            if sheet is None:
                sheet = ScoreSheet.objects.create(play=play, deal=deal)
            version = _new_version(sheet, checked, 1, by_user, by_entry, note, proof, where)
            sheet.current = version
            sheet.status = ScoreSheet.Status.CONFIRMED if director else ScoreSheet.Status.ENTERED
            sheet.late = sheet.late or late
            sheet.save(update_fields=["current", "status", "late", "updated_at"])
            _console_changed(play, [deal.pk])
            return Recorded(sheet, version, "created")
        # The talon is no part of the result (docs/game.md §2.7): the director's change of
        # it alone is a correction; a player's is the same result.
        talon_changed = director and parse_talon(sheet.current.data.get("talon")) != parse_talon(
            checked.data.get("talon")
        )
        if essence_of_data(sheet.current.data, play, deal) == checked.essence and not talon_changed:
            current = sheet.current
            if not director and current.proof == Proof.SEAT and proof in PROVEN:
                # The same result again, now with a proof: whoever proves it is the one who
                # entered it (docs/game.md §7.2), so a second person may confirm it anywhere.
                device, via_entry = where or ("", None)
                current.entered_by_entry, current.proof = by_entry, proof
                current.device, current.via_entry = device, via_entry
                current.save(update_fields=["entered_by_entry", "proof", "device", "via_entry"])
                _console_changed(play)
            if director and sheet.status != ScoreSheet.Status.CONFIRMED:
                sheet.status = ScoreSheet.Status.CONFIRMED  # the director's word is final
                sheet.confirmed_by_entry, sheet.confirmed_proof = None, Proof.NONE
                sheet.save(
                    update_fields=["status", "confirmed_by_entry", "confirmed_proof", "updated_at"]
                )
                _console_changed(play)
            return Recorded(sheet, sheet.current, "unchanged")
        last = sheet.versions.order_by("-number").first()
        if not director:
            if (
                last.number > sheet.current.number
                and essence_of_data(last.data, play, deal) == checked.essence
            ):
                return Recorded(sheet, last, "unchanged")  # the same proposal sent again
            version = _new_version(
                sheet, checked, last.number + 1, None, by_entry, note, proof, where
            )
            sheet.status = ScoreSheet.Status.DISPUTED
            sheet.late = sheet.late or late
            sheet.save(update_fields=["status", "late", "updated_at"])
            _console_changed(play)
            return Recorded(sheet, version, "disputed")
        _check_expected(sheet, expected_version)
        version = _new_version(sheet, checked, last.number + 1, by_user, None, note)
        sheet.current = version
        sheet.status = ScoreSheet.Status.CONFIRMED
        sheet.confirmed_by_entry, sheet.confirmed_proof = None, Proof.NONE
        sheet.save()
        changed = [deal.pk, *_carried_resettle(play, deal)]
        _console_changed(play, changed)
        return Recorded(sheet, version, "corrected")


def _carried_resettle(play: TablePlay, deal: Deal) -> list[int]:
    """A game whose deals carry over (the running pot): after a correction the later deals
    of the set at this table are settled again (their entered data stays; their stored settlement follows)."""
    event = _event_of(play)
    if not games.of_event(event).sheets.carries_over(event):
        return []
    changed = []
    later = (
        ScoreSheet.objects.filter(play=play, deal__number__gt=deal.number, current__isnull=False)
        .select_related("current", "deal__board_set")
        .order_by("deal__number")
    )
    for sheet in later:
        try:
            checked = sheet_check(play, sheet.deal, sheet.current.data, talon=False)
        except ValidationError:
            break  # an earlier deal is missing: the pot cannot be known beyond it
        if checked.result != sheet.current.result:
            ScoreSheetVersion.objects.filter(pk=sheet.current_id).update(result=checked.result)
            changed.append(sheet.deal_id)
    return changed


def sheet_confirm(
    sheet: ScoreSheet,
    *,
    by_entry=None,
    by_user=None,
    proof: str | None = None,
    device: str = "",
    via_entry=None,
) -> ScoreSheet:
    """A player of another seat at that table, or the director, confirms the current result.

    Official means two people (docs/game.md §7.2): a player confirms only with a proof of
    who he is (``proof``: his own link or his PIN, ``scoring.proof``) — the table's link
    alone enters, it never confirms — and only when he is another person than whoever
    entered it: not the seat that entered it, not the player whose own link the entry was
    made from; and a sheet entered without a proof is never confirmed from the phone that
    entered it (``device``) nor from that player's link (``via_entry``: whose own link the
    confirming page carries). A disputed sheet waits for the director."""
    with transaction.atomic():
        sheet = (
            ScoreSheet.objects.select_for_update(of=("self",))
            .select_related("play__round__room__session__event", "play__table", "current")
            .get(pk=sheet.pk)
        )
        proof = _proof_of(by_entry, proof)
        if by_entry is not None and proof not in PROVEN:
            raise ValidationError(
                {
                    "pin": _(
                        "To confirm, show it is you: type your PIN from your name card, or "
                        "confirm from your own page. The table's link alone can enter a sheet, "
                        "not confirm it."
                    )
                }
            )
        access = _actor(sheet.play, by_user, by_entry, proof)
        if by_entry is not None:
            if sheet.status == ScoreSheet.Status.DISPUTED:
                raise ValidationError({"status": _("The sheet is disputed: the director decides.")})
            _check_second_person(sheet.current, by_entry, device, via_entry)
        if sheet.status != ScoreSheet.Status.CONFIRMED:
            sheet.status = ScoreSheet.Status.CONFIRMED
            sheet.late = sheet.late or (access is not None and access.late)
            sheet.confirmed_by_entry = by_entry
            sheet.confirmed_proof = proof
            sheet.confirmed_device = device if by_entry is not None else ""
            sheet.save(
                update_fields=[
                    "status",
                    "late",
                    "confirmed_by_entry",
                    "confirmed_proof",
                    "confirmed_device",
                    "updated_at",
                ]
            )
            _console_changed(sheet.play)
        return sheet


def _check_second_person(current: ScoreSheetVersion, by_entry, device: str, via_entry) -> None:
    """Refuse a confirmation that may be the entering person's own (see
    :func:`sheet_confirm`)."""
    entered = {current.entered_by_entry_id, current.via_entry_id} - {None}
    if by_entry.pk in entered or (via_entry is not None and via_entry.pk in entered):
        raise PermissionDenied(
            _(
                "The player who entered the sheet cannot confirm it: a player of another "
                "seat at the table must, with his own PIN or from his own page."
            )
        )
    if current.proof == Proof.SEAT and (
        not current.device or not device or current.device == device
    ):
        raise PermissionDenied(
            _(
                "This sheet was entered on this phone without a PIN, so it cannot be confirmed "
                "on the same phone: the player confirming uses his own page on his own phone, "
                "or the sheet is entered again with the PIN of the player entering it."
            )
        )


def sheet_restore(sheet: ScoreSheet, number: int, *, by_user, note: str = "") -> Recorded:
    """The director settles a dispute with a version from the history (e.g. the players'
    proposal): it becomes a new current version; nothing is deleted."""
    version = sheet.versions.filter(number=number).order_by().first()
    if version is None:
        raise ValidationError({"version": _("No version %(n)s of this sheet.") % {"n": number}})
    note = note or _("version %(n)d accepted") % {"n": version.number}
    return sheet_record(sheet.play, sheet.deal, version.data, by_user=by_user, note=note)


# --- adjustments ----------------------------------------------------------------------------


def _decimal(value) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        parsed = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        return None
    return parsed if parsed.is_finite() else None


def adjustment_create(
    play: TablePlay,
    *,
    entry,
    kind: str,
    by_user,
    deal: Deal | None = None,
    score: str = "",
    penalty=None,
    reason: str = "",
) -> Adjustment:
    """An artificial score (on a deal) or a time penalty (on a deal or the whole table-round)
    for a player who sat at that table in that round."""
    with transaction.atomic():
        play = _locked_play(play)
        _check_director(by_user, _event_of(play))
        errors: dict[str, str] = {}
        seat = (
            Seat.objects.filter(round_id=play.round_id, table_id=play.table_id, entry=entry)
            .order_by()
            .first()
        )
        if seat is None:
            errors["entry"] = _("%(name)s does not sit at table %(table)d in round %(round)d.") % {
                "name": entry.full_name,
                "table": play.table.number,
                "round": play.round.number,
            }
        if deal is not None and deal.board_set_id != play.board_set_id:
            errors["deal"] = _(
                "Deal %(code)s is not in the set table %(table)d plays in round %(round)d."
            ) % {"code": deal.code, "table": play.table.number, "round": play.round.number}
        reason = (reason or "").strip()
        if not reason:
            errors["reason"] = _("Say why: the players will see it.")
        amount = None
        if kind == Adjustment.Kind.ARTIFICIAL:
            if deal is None:
                errors.setdefault("deal", _("An artificial score is given on a deal."))
            if score not in Adjustment.Score.values:
                errors["score"] = _("Choose A+, A or A−.")
            if seat is not None and deal is not None and "deal" not in errors:
                if seat.position not in deal.active_seats:
                    errors["entry"] = _(
                        "%(name)s sits deal %(code)s out: there is nothing to score."
                    ) % {"name": entry.full_name, "code": deal.code}
                elif Adjustment.objects.filter(
                    play=play, deal=deal, entry=entry, kind=Adjustment.Kind.ARTIFICIAL
                ).exists():
                    errors["deal"] = _(
                        "%(name)s already has an artificial score on deal %(code)s: "
                        "delete it first."
                    ) % {"name": entry.full_name, "code": deal.code}
        elif kind == Adjustment.Kind.PENALTY:
            amount = _decimal(penalty)
            if amount is None or amount <= 0 or amount >= Decimal("1000000"):
                errors["penalty"] = _("A penalty is a number above 0, e.g. 2.5.")
            elif amount != amount.quantize(Decimal("0.01")):
                errors["penalty"] = _("At most two decimals, e.g. 2.5.")
            if (
                seat is not None
                and deal is not None
                and "deal" not in errors
                and seat.position not in deal.active_seats
            ):
                errors["entry"] = _(
                    "%(name)s sits deal %(code)s out: there is nothing to score."
                ) % {"name": entry.full_name, "code": deal.code}
            score = ""
        else:
            errors["kind"] = _("Choose an artificial score or a time penalty.")
        if errors:
            raise ValidationError(errors)
        adjustment = Adjustment.objects.create(
            play=play,
            deal=deal,
            entry=entry,
            kind=kind,
            score=score if kind == Adjustment.Kind.ARTIFICIAL else "",
            penalty=amount,
            reason=reason[:200],
            created_by=by_user,
        )
        _console_changed(play, [deal.pk] if deal is not None else [])
        return adjustment


def table_play_find(event: Event, *, round_id, table) -> TablePlay:
    """The table-round of ``event`` at table number ``table`` in the round ``round_id``
    (a round's id: table numbers repeat from room to room). ValidationError naming the field
    otherwise."""
    rnd = (
        Round.objects.filter(room__session__event=event, pk=round_id)
        .select_related("room__session")
        .order_by()
        .first()
        if str(round_id or "").isascii() and str(round_id or "").isdigit()
        else None
    )
    if rnd is None:
        raise ValidationError({"round": _("Choose a round of this event.")})
    try:
        number = int(str(table).strip())
    except (TypeError, ValueError):
        number = 0
    play = (
        TablePlay.objects.filter(round=rnd, table__number=number)
        .select_related("round__room__session__event", "table", "board_set")
        .order_by()
        .first()
        if number > 0
        else None
    )
    if play is None:
        raise ValidationError(
            {
                "table": _(
                    "No table %(table)s plays in round %(round)d of %(room)s: choose one of its "
                    "tables."
                )
                % {"table": str(table).strip() or "—", "round": rnd.number, "room": rnd.room}
            }
        )
    return play


def _score_code(value) -> str:
    """«A−» (the typographic minus shown on pages) is «A-»."""
    return str(value or "").strip().upper().replace("\u2212", "-")


@dataclass(frozen=True)
class TableScores:
    """What :func:`adjustments_table_create` gave: the new artificial scores, how many
    players and deals they cover."""

    adjustments: list[Adjustment]
    players: int
    deals: int


def adjustments_table_create(
    play: TablePlay,
    *,
    by_user,
    score: str,
    reason: str,
    deal: Deal | None = None,
    seat_scores: dict | None = None,
) -> TableScores:
    """Artificial scores for a whole table in one round: on every deal of its set (or on the
    one ``deal``), each seated player who plays that deal gets ``score`` (A+, A, A−), or his
    seat's own score from ``seat_scores`` (position → score). A player who sits a deal out
    gets nothing on it. All or nothing: on any problem nothing is saved; a player who
    already has an artificial score on one of the deals is reported, not overwritten."""
    with transaction.atomic():
        play = _locked_play(play)
        _check_director(by_user, _event_of(play))
        seats = {
            s.position: s
            for s in Seat.objects.filter(
                round_id=play.round_id, table_id=play.table_id
            ).select_related("entry")
        }
        errors: dict[str, str] = {}
        score = _score_code(score)
        if score not in Adjustment.Score.values:
            errors["score"] = _("Choose A+, A or A−.")
        per_seat: dict[str, str] = {}
        for position, given in (seat_scores or {}).items():
            position = str(position).strip().upper()
            given = _score_code(given)
            if not given:
                continue
            key = f"scores.{position}"
            if position not in seats:
                errors[key] = _(
                    "Nobody sits at %(position)s at table %(table)d in round %(round)d."
                ) % {
                    "position": position or "—",
                    "table": play.table.number,
                    "round": play.round.number,
                }
            elif given not in Adjustment.Score.values:
                errors[key] = _("Choose A+, A or A−.")
            elif deal is not None and position not in deal.active_seats:
                # The dealer at a table of four sits his deal out (docs/game.md): a score
                # for his seat on that deal alone would silently give nothing.
                errors[key] = _(
                    "%(position)s deals deal %(n)d and sits it out: that seat gets no score on it."
                ) % {"position": position, "n": deal.number}
            else:
                per_seat[position] = given
        if deal is not None and deal.board_set_id != play.board_set_id:
            errors["deal"] = _(
                "Deal %(code)s is not in the set table %(table)d plays in round %(round)d."
            ) % {"code": deal.code, "table": play.table.number, "round": play.round.number}
        reason = (reason or "").strip()
        if not reason:
            errors["reason"] = _("Say why: the players will see it.")
        if not seats:
            errors["table"] = _("Nobody sits at table %(table)d in round %(round)d.") % {
                "table": play.table.number,
                "round": play.round.number,
            }
        if errors:
            raise ValidationError(errors)
        deals = [deal] if deal is not None else list(play.board_set.deals.order_by("number"))
        wanted = [
            (d, seats[position])
            for d in deals
            for position in "WNES"
            if position in seats and position in d.active_seats
        ]
        taken = set(
            Adjustment.objects.filter(
                play=play, deal__in=deals, kind=Adjustment.Kind.ARTIFICIAL
            ).values_list("deal_id", "entry_id")
        )
        clashes = [(d, s) for d, s in wanted if (d.pk, s.entry_id) in taken]
        if clashes:
            names = ", ".join(f"{s.entry.full_name} ({d.code})" for d, s in clashes)
            raise ValidationError(
                {
                    "deal": _(
                        "Already given an artificial score: %(names)s. Delete those first, or "
                        "choose another deal."
                    )
                    % {"names": names}
                }
            )
        made = Adjustment.objects.bulk_create(
            [
                Adjustment(
                    play=play,
                    deal=d,
                    entry=s.entry,
                    kind=Adjustment.Kind.ARTIFICIAL,
                    score=per_seat.get(s.position, score),
                    reason=reason[:200],
                    created_by=by_user,
                )
                for d, s in wanted
            ]
        )
        _console_changed(play, [d.pk for d in deals])
        return TableScores(
            adjustments=made,
            players=len({s.entry_id for _d, s in wanted}),
            deals=len({d.pk for d, _s in wanted}),
        )


def adjustment_delete(adjustment: Adjustment, *, by_user) -> None:
    with transaction.atomic():
        adjustment = Adjustment.objects.select_related("play__round__room__session__event").get(
            pk=adjustment.pk
        )
        _check_director(by_user, _event_of(adjustment.play))
        deal_id = adjustment.deal_id
        adjustment.delete()
        _console_changed(adjustment.play, [deal_id] if deal_id is not None else [])


# --- recomputing ----------------------------------------------------------------------------


def _mark_stale(deal_ids, play: TablePlay | None):
    """Mark the deals' comparisons stale (sorted ids returned), and their session if ``play``
    came with it: the worker recomputes them once the write is committed (a reader
    recomputes whatever is still stale, so a change is in the standings at the next read all
    the same, and nothing is lost if the task never runs)."""
    ids = sorted(set(deal_ids))
    if ids:
        Deal.objects.filter(pk__in=ids).update(scores_stale=True)
    session = None
    if play is not None and "round" in play._state.fields_cache:
        room = play.round._state.fields_cache.get("room")
        if room is not None:
            session = room._state.fields_cache.get("session")
    return ids, session


def _recompute_here(ids: list[int], session):
    def recompute():
        standings.deals_recompute(ids, session=session)

    return recompute


# --- the round's end ------------------------------------------------------------------------


def late_tables_mark(rnd) -> list[int]:
    """At «Конец тура!»: mark the tables that have not recorded every deal of their set."""
    plays = (
        TablePlay.objects.filter(round=rnd)
        .select_related("board_set", "table")
        .annotate(recorded=Count("sheets"))
    )
    late = [p for p in plays if p.recorded < p.board_set.players]
    TablePlay.objects.filter(pk__in=[p.pk for p in late]).update(late=True)
    return sorted(p.table.number for p in late)


def sheet_versions_count(sheet_ids) -> dict[int, int]:
    return dict(
        ScoreSheetVersion.objects.filter(sheet_id__in=sheet_ids)
        .values("sheet_id")
        .annotate(n=Max("number"))
        .values_list("sheet_id", "n")
    )
