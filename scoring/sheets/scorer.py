"""The scorer form's two steps, shared by the director's page and the table's page:
«Check» settles the entered data and shows it; «Save» records exactly what was shown."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from scoring import games
from scoring.games.forms import SheetForm
from scoring.models import Deal, ScoreSheet, TablePlay
from scoring.sheets import services


@dataclass
class ScorerStep:
    form: SheetForm
    checked: services.Checked | None = None
    recorded: services.Recorded | None = None
    stale: bool = False  # «Save» came with data other than what was checked
    # The service's word on who is writing (a PIN, a round no longer at the table): shown
    # beside the PIN on the table's page (scoring.sheets.proof).
    pin_error: str = ""

    def preview(self, deal: Deal, players: dict[str, str]) -> list[dict] | None:
        if self.checked is None:
            return None
        return self.checked.game.preview(self.checked.result, deal, players)


def scorer_form(
    play: TablePlay,
    deal: Deal,
    players: dict[str, str],
    data=None,
    *,
    sheet: ScoreSheet | None = None,
) -> SheetForm:
    event = play.round.room.session.event
    form_class = games.of_event(event).form  # the event's game's scorer form
    kwargs = {
        "deal": deal,
        "players": players,
        "suit_order": event.suit_order,
        "rules": event.game_rules(),
        "game_line": event.game_line(),
    }
    if data is not None:
        return form_class(data, **kwargs)
    initial = {"expected_version": sheet.current.number if sheet and sheet.current else 0}
    if sheet and sheet.current:
        initial |= form_class.initial_from(sheet.current.data)
    return form_class(initial=initial, **kwargs)


def scorer_step(
    post,
    play: TablePlay,
    deal: Deal,
    players: dict[str, str],
    *,
    by_user=None,
    by_entry=None,
    proof: str | None = None,
    device: str = "",
    via_entry=None,
) -> ScorerStep:
    """Handle one POST of the scorer form; nothing is saved unless the checked data is saved.
    ``proof``: how the player ``by_entry`` showed who he is (``scoring.sheets.proof``)."""
    form = scorer_form(play, deal, players, post)
    step = ScorerStep(form)
    if not form.is_valid():
        return step
    data = form.sheet_data()
    try:
        # A player's talon is compared on «Save» only (services.sheet_check).
        step.checked = services.sheet_check(
            play, deal, data, by_director=by_user is not None, talon=by_user is not None
        )
    except ValidationError as error:
        form.add_service_error(error)
        return step
    digest = services.data_digest(step.checked.data)
    if "save" in post and form.cleaned_data.get("checked") == digest:
        try:
            step.recorded = services.sheet_record(
                play,
                deal,
                data,
                by_user=by_user,
                by_entry=by_entry,
                expected_version=form.cleaned_data.get("expected_version") if by_user else None,
                note=form.cleaned_data.get("note") or "",
                proof=proof,
                device=device,
                via_entry=via_entry,
            )
        except ValidationError as error:
            problems = dict(getattr(error, "error_dict", None) or {})
            if "pin" in problems:
                step.pin_error = " ".join(ValidationError(problems.pop("pin")).messages)
            if problems or not hasattr(error, "error_dict"):
                form.add_service_error(ValidationError(problems) if problems else error)
            step.checked = None
        except PermissionDenied as error:
            form.add_error(None, str(error) or _("You may not record this sheet."))
            step.checked = None
        return step
    step.stale = "save" in post
    bound = post.copy()
    bound["checked"] = digest
    step.form = scorer_form(play, deal, players, bound)
    step.form.is_valid()
    return step
