"""«Позвать судью» on a phone (issue 34): what the table's round page and a player's own
page show of the table's call (``templates/table/_call.html``), and the form's address.
The call's state comes from ``events.calls.table_call_doc``, the document their script
polls while a call is open: from the cache, no query once built."""

from __future__ import annotations

from django.urls import reverse

from events import calls
from events.models import TableCall

#: The reasons in the order the form offers them.
REASONS = TableCall.Reason.choices


def call_box(
    *,
    table_id: int,
    play_key: str,
    post_url: str,
    next_url: str,
    seats=(),
    chosen: str = "",
    fixed=None,
    me_key: str = "",
    errors: dict | None = None,
    typed: dict | None = None,
) -> dict:
    """The context of ``table/_call.html``: the table's call now, the reasons, the seats to
    choose from (``fixed``: the player's own seat, not chosen), the seat preselected."""
    doc = calls.table_call_doc(table_id)
    typed = typed or {}
    return {
        "call_box": {
            "doc": doc,
            "open": doc["state"] in calls.OPEN_STATES,
            "reasons": REASONS,
            "seats": list(seats),
            "chosen": typed.get("as", chosen),
            "reason": typed.get("reason", ""),
            "fixed": fixed,
            "me_key": me_key,
            "post_url": post_url,
            "next_url": next_url,
            "json_url": reverse("table:call_json", args=[play_key]),
            "errors": errors or {},
        }
    }


def table_call_context(ctx: dict) -> dict:
    """:func:`call_box` for the table's round page (``scoring.sheets.table``'s context):
    the seats of its round, his own when the page came from his link (it proves him), else
    the seat the page knows him by preselected."""
    play, you, linked = ctx["play"], ctx.get("you"), ctx.get("linked")
    round_url, who = ctx["round_url"], ctx.get("who", "")
    query = f"?{who}" if who else ""
    return call_box(
        table_id=ctx["table"].pk,
        play_key=play.key,
        post_url=reverse("table:call", args=[play.key]) + query,
        next_url=round_url + query,
        seats=ctx["seats"],
        chosen=you.position if you is not None else "",
        fixed=linked,
        me_key=ctx.get("me_key", "") if linked is not None else "",
        errors=ctx.get("call_errors"),
        typed=ctx.get("call_typed"),
    )
