"""Checking one score sheet against its game's rules and settling it, nothing saved (docs/game.md §2): the event's game's adapter builds the core's request, the core checks and settles, the problems come back as a ValidationError on the fields the scorer typed."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext as _

from events.models import Event
from scoring import games
from scoring.games.common.messages import InvalidInput, Message, Problems
from scoring.games.sheets import SheetGame, lang
from scoring.models import Deal, ScoreSheet, TablePlay
from scoring.sheets import boxes

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
        boxes.talon_problem(play, deal, game.talon(parsed), by_director=by_director)
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
