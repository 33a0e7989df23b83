"""``{% may event "clock" room as can_clock %}``: whether the page's account may do an action
on the event (in the room, for a room director) — to hide a button the door would refuse
(issue 34; the rules are ``events.staff``'s). The account's part in the event is read once
per request (one query at most, however many buttons a page asks about), each answer kept
on the request."""

from django import template

from events import staff

register = template.Library()


@register.simple_tag(takes_context=True)
def may(context, event, action, room=None):
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if request is None:
        return staff.may(user, event, action, room=room)
    kept = request.__dict__.setdefault("_staff_may", {})
    number = getattr(room, "number", room)
    key = (event.pk, action, number)
    if key not in kept:
        parts = request.__dict__.setdefault("_staff_membership", {})
        if event.pk not in parts:
            parts[event.pk] = staff._membership(user, event)
        kept[key] = staff._refusal(parts[event.pk], event, action, number) is None
    return kept[key]
