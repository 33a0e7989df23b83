"""Who may see what on the director's pages: one place for «the director's own event».

``@director_event`` on a view of ``/director/events/<pk>/…``: the director must be logged in
(else the login page), and the event must be his (a superuser's: any); the view then gets
the event instead of its ``pk``. Another director's event, or none, is a 404 that says
nothing of it."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.utils.translation import gettext as _

from events.models import Event


def event_for(user, pk) -> Event:
    """The event if this director may see it; otherwise 404, saying nothing of others' events."""
    try:
        return Event.objects.visible_to(user).get(pk=pk)
    except (Event.DoesNotExist, ValueError):
        raise Http404(_("No such event among yours.")) from None


def director_event(view):
    """The view of one of the director's events: ``view(request, event, **the rest)``."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, pk, **kwargs):
        return view(request, event_for(request.user, pk), *args, **kwargs)

    return wrapped
