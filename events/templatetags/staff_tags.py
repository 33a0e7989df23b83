"""``{% may event "clock" room as can_clock %}``: whether the page's account may do an action
on the event (in the room, for a room director) — to hide a button the door would refuse
(issue 34; the rules are ``events.staff``'s). Each answer is kept on the request."""

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
        kept[key] = staff.may(user, event, action, room=number)
    return kept[key]
