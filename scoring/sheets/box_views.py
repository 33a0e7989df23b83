"""The director's page of a «коробка не совпадает» report (scoring.sheets.boxes): what the table
found, the deal's known talon and versions, and the decision — mark the deal fouled from
that table on, or dismiss. Views only translate."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.access import director_event
from events.models import BoxReport, DealVersion
from scoring.games.forms import parse_talon
from scoring.models import TablePlay
from scoring.sheets import boxes


def _report(event, report_pk) -> BoxReport:
    return get_object_or_404(
        BoxReport.objects.filter(play__round__room__session__event=event).select_related(
            "play__round__room__session", "play__table", "deal__board_set", "version"
        ),
        pk=report_pk,
    )


def _page(request, event, report: BoxReport, *, problem: str = "", status: int = 200):
    deal, play = report.deal, report.play
    versions = boxes.deal_versions(deal)
    version = boxes.play_version(play, deal, versions)
    # The table-plays a fouling from this table on would move: this one, and this room's
    # plays of the deal in later rounds (docs/game.md §2.7).
    later = (
        TablePlay.objects.filter(
            board_set_id=deal.board_set_id,
            round__room_id=play.round.room_id,
            round__number__gt=play.round.number,
        )
        .select_related("round", "table")
        .order_by("round__number", "table__number")
    )
    return render(
        request,
        "director/box_report.html",
        {
            "event": event,
            "report": report,
            "deal": deal,
            "play": play,
            "found": boxes.cards_html(parse_talon(report.talon) or ()),
            "known": boxes.known_talon(deal, version, versions),
            # What the table typed before reporting (the refusals named no card of the known).
            "tried": [
                boxes.cards_html(parse_talon(t) or ()) for t in boxes.talon_refusals(play, deal)
            ],
            "card_version": version,
            "versions": list(
                DealVersion.objects.filter(deal=deal)
                .select_related("from_play__round", "from_play__table")
                .order_by("number")
            ),
            "later": later,
            "others": BoxReport.objects.filter(deal=deal)
            .exclude(pk=report.pk)
            .select_related("play__round", "play__table")
            .order_by("reported_at"),
            "problem": problem,
            "console_url": reverse("director:room_detail", args=[event.pk, play.round.room_id]),
        },
        status=status,
    )


@director_event
def box_report(request, event, report_pk):
    return _page(request, event, _report(event, report_pk))


@director_event
@require_POST
def box_report_decide(request, event, report_pk):
    report = _report(event, report_pk)
    action = request.POST.get("action")
    try:
        if action == "foul":
            version = boxes.box_report_foul(report, by_user=request.user)
            messages.success(
                request,
                _(
                    "Deal %(code)s is fouled from table %(table)d, round %(round)d on: "
                    "version %(version)d, compared on its own."
                )
                % {
                    "code": report.deal.code,
                    "table": report.play.table.number,
                    "round": report.play.round.number,
                    "version": version.number,
                },
            )
        elif action == "dismiss":
            boxes.box_report_dismiss(report, by_user=request.user)
            messages.success(request, _("The report is dismissed: the box is as dealt."))
        else:
            raise ValidationError(_("Choose a decision."))
    except (ValidationError, PermissionDenied) as error:
        text = " ".join(getattr(error, "messages", None) or [str(error)])
        return _page(request, event, report, problem=text, status=400)
    return redirect(reverse("director:box_report", args=[event.pk, report.pk]))
