"""The pages' word on fouled boxes (docs/game.md §2.7): a short note on the standings."""

from django import template

from scoring import standings

register = template.Library()


@register.inclusion_tag("scoring/public/_fouled_deals.html", takes_context=True)
def fouled_deals_note(context, session=None):
    """The fouled deals of ``session``, else of every session of the page's event."""
    sessions = [session] if session is not None else context.get("sessions") or []
    return {"fouled": standings.fouled_deals(sessions), "event": context.get("event")}
