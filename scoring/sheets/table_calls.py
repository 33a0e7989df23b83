"""The table's «Позвать судью» (issue 34): ``/t/<key>/call/`` (POST, the round page's form;
the outbox sends it again after a lost answer, with the same ``client_id``) and
``/t/<key>/call.json`` (what the page polls while a call is open)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import calls
from scoring.sheets import table
from scoring.sheets.device import with_device
from scoring.sheets.table_state import _context, _gated, _play_ids, _state_or_gate


def said(request, call) -> None:
    """«Судья вызван», or «Судья уже вызван» when the table's call was made already."""
    if call.created:
        messages.success(request, _("The director is called."))
    else:
        messages.info(request, _("The director is already called."))


@require_POST
@_gated
@with_device
def call(request, key):
    """The table calls the director: the reason and the seat chosen (his own, when the page
    came from a player's own link: it proves him)."""
    state = _state_or_gate(key)
    ctx = _context(request, state)
    linked = ctx["linked"]
    # Back to the page as it was asked (the form's address keeps its query): the seat chosen
    # in the call's form names who calls, not who the page is for.
    if linked is not None:
        who = f"me={ctx['me_key']}"
    else:
        shown = request.GET.get("as", "")
        who = f"as={shown}" if any(s.position == shown for s in ctx["seats"]) else ""
    url = f"{ctx['round_url']}?{who}" if who else ctx["round_url"]
    position = request.POST.get("as", "").strip()
    if linked is not None:
        position = linked.position
    try:
        made = calls.call_open(
            state.table,
            reason=request.POST.get("reason", ""),
            position=position,
            entry=linked.entry if linked is not None else None,
            client_id=request.POST.get("client_id", ""),
        )
    except ValidationError as error:
        if ctx["gated"] or ctx["not_started"]:
            messages.error(request, " ".join(error.messages))
            return redirect(url)
        typed = {"as": position, "reason": request.POST.get("reason", "")}
        return table._private(
            table._home(
                request,
                {**ctx, "call_errors": error.message_dict, "call_typed": typed},
                status=400,
            ),
            ctx,
        )
    said(request, made)
    return redirect(url)


@never_cache
def call_json(request, key):
    """The table's call now (``events.calls.table_call_doc``): from the cache, no query
    once the round link's ids are known."""
    ids = _play_ids(key)
    if ids is None:
        raise Http404(_("No such table round."))
    return JsonResponse(calls.table_call_doc(ids[0]))
