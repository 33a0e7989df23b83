"""The cards of a session's boxes: the director's dealing sheets, card entry and analysis
button; the public hand records (page and text), and the check of an app-dealt session
against its revealed seed (docs/hand-records.md).

The public pages follow the results: hidden until the director publishes them (he sees
them anyway, as a preview) — so neither the seed nor any card is shown before.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from events import dealing
from events.access import director_event
from events.forms import apply_service_error
from events.models import Deal, Session
from scoring.hands import records as hand_records
from scoring.standings import disclosure
from scoring.standings.public_access import base_context, public_results


def _session(event, number) -> Session:
    return get_object_or_404(event.sessions.select_related("event"), number=number)


def _records(event, session, deals=None, seen=None) -> list:
    """Each deal with its hand record (None: cards unknown, or not for ``seen``'s eyes)."""
    found = []
    for deal in dealing.session_deals(session) if deals is None else deals:
        shown = seen is None or seen.shows(deal)
        found.append((deal, hand_records.hand_record(deal, event) if shown else None))
    return found


# --- the director's pages -------------------------------------------------------------------


@director_event
def dealing_sheets(request, event, number):
    """A printable page for the people who fill the boxes: each pocket's ten cards."""
    session = _session(event, number)
    boxes = _records(event, session)
    return render(
        request,
        "scoring/dealing_sheets.html",
        {
            "event": event,
            "session": session,
            "boxes": boxes,
            "known": sum(1 for _d, r in boxes if r),
        },
    )


class DealCardsForm(forms.Form):
    ppn = forms.CharField(
        label=gettext_lazy("Or one PPN string"),
        required=False,
        max_length=64,
        help_text=gettext_lazy(
            "32 characters: the hands in speaking order (first hand first), then the talon."
        ),
        widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
    )

    def __init__(self, *args, deal: Deal, **kwargs):
        super().__init__(*args, **kwargs)
        fields = {}
        for seat in deal.active_seats:
            label = _("Pocket %(seat)s") % {"seat": seat}
            if seat == deal.first_hand:
                label = _("Pocket %(seat)s (first hand)") % {"seat": seat}
            fields[f"hand_{seat}"] = forms.CharField(
                label=label,
                required=False,
                max_length=80,
                widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
            )
        fields["talon"] = forms.CharField(
            label=_("Talon (pocket %(seat)s)") % {"seat": deal.talon_pocket},
            required=False,
            max_length=30,
            widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
        )
        ppn = self.fields.pop("ppn")
        self.fields.update(fields)
        self.fields["ppn"] = ppn
        dealt = dealing.deal_cards(deal)
        if dealt is not None and not self.is_bound:
            names = dealt.as_names()
            for seat in deal.active_seats:
                self.fields[f"hand_{seat}"].initial = " ".join(names[seat])
            self.fields["talon"].initial = " ".join(names["talon"])


def _field_for(name: str) -> str:
    return f"hand_{name}" if name in ("W", "N", "E", "S") else name


@director_event
def deal_cards_form(request, event, number, deal_pk):
    """Enter or correct a by-hand box's cards in full."""
    session = _session(event, number)
    deal = get_object_or_404(
        Deal.objects.filter(board_set__session=session).select_related("board_set"), pk=deal_pk
    )
    form = DealCardsForm(request.POST or None, deal=deal)
    app_dealt = deal.cards_source == Deal.Source.APP
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            dealing.deal_cards_enter(
                deal,
                hands={s: data.get(f"hand_{s}", "") for s in deal.active_seats}
                | {"talon": data.get("talon", "")},
                ppn=data.get("ppn", ""),
            )
        except ValidationError as error:
            apply_service_error(form, error, field_for=_field_for)
        else:
            messages.success(
                request,
                _("The cards of deal %(code)s are saved; the analysis is queued.")
                % {"code": deal.code},
            )
            return redirect("director:dealing_sheets", pk=event.pk, number=session.number)
    return render(
        request,
        "scoring/deal_cards.html",
        {
            "event": event,
            "session": session,
            "deal": deal,
            "form": form,
            "app_dealt": app_dealt,
            "record": hand_records.hand_record(deal, event),
        },
        status=400 if form.errors else 200,
    )


@require_POST
@director_event
def analyse(request, event, number):
    """«Проанализировать»: queue the double-dummy analysis of the session's deals."""
    session = _session(event, number)
    if not dealing.session_cards_state(session).known:
        messages.error(request, _("No deal of this session has known cards yet."))
    else:
        dealing.analysis_queue(session.pk)
        messages.success(request, _("The analysis is queued."))
    url = reverse("director:session", kwargs={"pk": event.pk, "number": session.number})
    return redirect(f"{url}#dealing")


# --- public (once published) ----------------------------------------------------------------


@public_results
def session_hands(request, event, preview, number):
    """Every deal's hand record and double-dummy table, printable."""
    session = _session(event, number)
    seen = disclosure.viewer(request, event)
    deals = dealing.session_deals(session)
    boxes = [(d, r) for d, r in _records(event, session, deals, seen) if r]
    return render(
        request,
        "scoring/public/hands.html",
        base_context(event, preview, request)
        | {
            "session": session,
            "boxes": boxes,
            # The deals not played out yet are left out (scoring.standings.disclosure).
            "in_play": sum(1 for d in deals if not seen.shows(d)),
        },
    )


@public_results
def session_hands_txt(request, event, preview, number):
    """One line a deal: «<set>.<deal> <PPN>» (docs/hand-records.md)."""
    session = _session(event, number)
    seen = disclosure.viewer(request, event)
    response = HttpResponse(
        hand_records.session_text(event, session, shows=seen.shows),
        content_type="text/plain; charset=utf-8",
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{event.slug}-session-{session.number}-hands.txt"'
    )
    return response


@public_results
def session_check(request, event, preview, number):
    """«Проверка раздачи»: the session dealt again from the revealed seed."""
    session = _session(event, number)
    if not disclosure.viewer(request, event).seed_shown(session):
        return render(
            request,
            "scoring/public/seed_later.html",
            base_context(event, preview, request) | {"session": session},
            status=403,
        )
    check = dealing.session_check(session)
    return render(
        request,
        "scoring/public/deal_check.html",
        base_context(event, preview, request) | {"session": session, "check": check},
    )
