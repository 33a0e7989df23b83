"""Who may see what on the director's pages: one place for «the director's own event», and
the door every director page and API operation of an event passes (issue 34).

``@director_event`` on a view of ``/director/events/<pk>/…``: the account must be logged in
(else the login page), the event must be one it sees (its own, one it serves on the staff; a
superuser's: any) — else a 404 that says nothing of it — and its role must allow the action
of the page (``ACTIONS``, by the page's URL name and the request's method; the roles' table
is ``events.staff``) — else a 403 saying why. The view then gets the event instead of its
``pk``. The API asks the same of ``api_event`` (``API_ACTIONS``).

A room director's room actions need the room: it is read from the address (a room, round,
table-round, sheet, box report or adjustment of the event: ``ROOM_LOOKUPS``) and refused
when it is not one of his. A page or operation missing from the tables is refused to every
role but the chief: a new page cannot forget to say what it does."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from events import staff
from events.models import Event, Room

#: The chief's action: what a page missing from a table needs (only the chief has it).
UNKNOWN = "staff"

#: The director's pages of an event, by URL name: (the action of GET, of POST). A page
#: that only shows is «view»; a POST-only page still says «view» for GET (it answers 405).
ACTIONS: dict[str, tuple[str, str]] = {
    # events/urls_director.py
    "event_detail": ("view", "view"),
    "event_edit": ("view", "settings"),
    "entry_add": ("view", "entries"),
    "entries_paste": ("view", "entries"),
    "entries_import": ("view", "entries"),
    "entries_import_confirm": ("view", "entries"),
    "entry_edit": ("view", "entries"),
    "entry_link": ("view", "entries"),
    "entry_withdraw": ("view", "entries"),
    "entry_reinstate": ("view", "entries"),
    "draw": ("view", "entries"),
    "name_cards": ("view", "view"),
    "player_qr": ("view", "view"),
    "draw_list": ("view", "view"),
    "room_list": ("view", "view"),
    "session_rounds_start": ("view", "clock"),
    "event_staff": ("view", "staff"),
    "event_staff_remove": ("staff", "staff"),
    "event_log": ("view", "view"),
    "event_log_csv": ("view", "view"),
    # movements/urls_director.py
    "plan": ("view", "seating"),
    "session": ("view", "seating"),
    "session_analysis": ("view", "view"),
    "table_cards": ("view", "view"),
    "participant_cards": ("view", "view"),
    "grid_csv": ("view", "view"),
    "grid_xlsx": ("view", "view"),
    "table_csv": ("view", "view"),
    "table_xlsx": ("view", "view"),
    "participant_csv": ("view", "view"),
    "participant_xlsx": ("view", "view"),
    # scoring/console/urls.py
    "room_detail": ("view", "view"),
    "room_console": ("view", "view"),
    "round_action": ("clock", "clock"),
    "room_checkin_mark": ("view", "checkin"),
    "room_checkin_each_round": ("view", "seating"),
    "room_checkin_substitute": ("view", "seating"),
    "call_going": ("view", "calls"),
    "call_close": ("view", "calls"),
    # scoring/sheets/urls.py (director)
    "overview": ("view", "view"),
    "publish": ("view", "publish"),
    "deals_show": ("view", "show_deals"),
    "play": ("view", "view"),
    "play_access": ("view", "sheets"),
    "round_close": ("view", "sheets"),
    "sheet_form": ("sheets", "sheets"),  # the form itself: only who may send it
    "adjustment_add": ("adjust", "adjust"),
    "sheet": ("view", "view"),
    "sheet_confirm": ("view", "sheets"),
    "sheet_restore": ("view", "sheets"),
    "box_report": ("view", "view"),
    "box_report_decide": ("view", "boxes"),
    "adjustments": ("view", "view"),
    "adjustments_table": ("view", "adjust"),
    "adjustment_delete": ("view", "adjust"),
    # scoring/hands/urls.py
    "dealing_sheets": ("view", "view"),
    "deal_cards": ("view", "boxes"),
    "deals_analyse": ("view", "boxes"),
    # scoring/archive/urls.py
    "event_archive": ("view", "view"),
}

#: An address's keyword → how a Room of the event is found from it (the room it is in).
ROOM_LOOKUPS = {
    "room_pk": "pk",
    "round_pk": "rounds__pk",
    "play_pk": "rounds__plays__pk",
    "sheet_pk": "rounds__plays__sheets__pk",
    "report_pk": "rounds__plays__box_reports__pk",
    "adjustment_pk": "rounds__plays__adjustments__pk",
    "call_pk": "tables__calls__pk",
}

#: The API's operations on an event, by URL name: (the action of GET, of a write: POST,
#: PUT, PATCH, DELETE, where the room of a room action is found: ``(where, key, lookup)``,
#: ``where`` «kwargs» (the address) or «data» (the body), or a tuple of such, tried in turn,
#: or ``None``). A room director's room action whose room is named nowhere is refused (403).
API_ACTIONS: dict[str, tuple[str, str, tuple | None]] = {
    # events/api.py
    "event-detail": ("view", "settings", None),
    "event-draws": ("view", "entries", None),
    "event-rounds-start": ("view", "clock", None),
    "event-rooms": ("view", "view", None),
    "entry-list": ("view", "entries", None),
    "entry-paste": ("view", "entries", None),
    "entry-import": ("view", "entries", None),
    "entry-detail": ("view", "entries", None),
    "entry-withdraw": ("view", "entries", None),
    "entry-link": ("view", "entries", None),
    "entry-reinstate": ("view", "entries", None),
    "round-list": ("view", "clock", None),
    "round-detail": ("view", "clock", None),
    **{
        f"round-{verb}": ("view", "clock", ("kwargs", "pk", "rounds__pk"))
        for verb in ("start", "pause", "resume", "adjust", "end")
    },
    # events/api_staff.py
    "event-staff": ("view", "staff", None),
    "event-staff-member": ("view", "staff", None),
    "event-log": ("view", "view", None),
    # events/api_checkin.py: the service asks «checkin» in the player's own room
    "event-checkin": ("view", "checkin", None),
    "event-checkin-entry": ("view", "checkin", None),
    # events/api_calls.py
    "event-calls": ("view", "calls", None),
    "event-call-going": ("view", "calls", ("kwargs", "call_pk", "tables__calls__pk")),
    "event-call-close": ("view", "calls", ("kwargs", "call_pk", "tables__calls__pk")),
    # movements/api.py
    "event-plan": ("view", "seating", None),
    "event-sessions": ("view", "seating", None),
    "session-detail": ("view", "seating", None),
    "session-round": ("view", "seating", None),
    "session-participant": ("view", "seating", None),
    # scoring/api/urls.py
    "scoring-play-list": ("view", "sheets", None),
    "scoring-play-access": ("view", "sheets", ("kwargs", "pk", "rounds__plays__pk")),
    "scoring-sheet-list": ("view", "sheets", ("data", "play", "rounds__plays__pk")),
    "scoring-sheet-detail": ("view", "sheets", ("kwargs", "pk", "rounds__plays__sheets__pk")),
    "scoring-sheet-correct": ("view", "sheets", ("kwargs", "pk", "rounds__plays__sheets__pk")),
    "scoring-sheet-confirm": ("view", "sheets", ("kwargs", "pk", "rounds__plays__sheets__pk")),
    "scoring-sheet-history": ("view", "sheets", ("kwargs", "pk", "rounds__plays__sheets__pk")),
    "scoring-adjustment-list": ("view", "adjust", ("data", "play", "rounds__plays__pk")),
    # The whole table named by «play», or by «round» (a round's id) and «table».
    "scoring-adjustment-table": (
        "view",
        "adjust",
        (("data", "play", "rounds__plays__pk"), ("data", "round", "rounds__pk")),
    ),
    "scoring-adjustment-detail": (
        "view",
        "adjust",
        ("kwargs", "pk", "rounds__plays__adjustments__pk"),
    ),
    "scoring-publish": ("view", "publish", None),
    "scoring-standings": ("view", "view", None),
    "scoring-traveller": ("view", "view", None),
    "scoring-card": ("view", "view", None),
}

READS = ("GET", "HEAD", "OPTIONS")


def event_for(user, pk) -> Event:
    """The event if this account may see it; otherwise 404, saying nothing of others' events."""
    try:
        return Event.objects.visible_to(user).get(pk=pk)
    except (Event.DoesNotExist, ValueError):
        raise Http404(_("No such event among yours.")) from None


def room_number(event: Event, lookup: str, value) -> int:
    """The number of the event's room ``lookup`` = ``value`` finds; 404 when none."""
    try:
        number = (
            Room.objects.filter(session__event=event, **{lookup: int(value)})
            .values_list("number", flat=True)
            .first()
        )
    except (TypeError, ValueError):
        number = None
    if number is None:
        raise Http404(_("No such room in this event."))
    return number


def page_action(url_name: str | None, method: str) -> str:
    """The action of a director's page for this method; a page not in ``ACTIONS``, the
    chief's only."""
    found = ACTIONS.get(url_name or "")
    if found is None:
        return UNKNOWN
    return found[0] if method in READS else found[1]


def check_page(request, event: Event, kwargs) -> None:
    """The door of a director's page: 403 (``PermissionDenied`` saying why) if the role of
    the account does not allow this page's action (in its room, for a room director)."""
    match = getattr(request, "resolver_match", None)
    action = page_action(match.url_name if match else None, request.method)
    room = None
    if action in staff.ROOM_ACTIONS and staff.rooms_of(request.user, event) is not None:
        for key, lookup in ROOM_LOOKUPS.items():
            if key in kwargs:
                room = room_number(event, lookup, kwargs[key])
                break
    staff.require(request.user, event, action, room=room)


def director_event(view):
    """The view of one of the director's events: ``view(request, event, **the rest)``."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, pk, **kwargs):
        event = event_for(request.user, pk)
        check_page(request, event, kwargs)
        return view(request, event, *args, **kwargs)

    return wrapped


# --- the API --------------------------------------------------------------------------------


def api_action(request) -> tuple[str, int | None]:
    """(the action, the room lookup's parts) of the API operation asked."""
    match = getattr(request, "resolver_match", None)
    found = API_ACTIONS.get(match.url_name if match else "")
    if found is None:
        return UNKNOWN, None
    read, write, where = found
    return (read if request.method in READS else write), where


def api_check(request, event: Event, action: str | None = None, room=None) -> Event:
    """The API's door for ``event`` (visible already): the action named, or the one of
    ``API_ACTIONS`` for this operation; a refusal raises ``PermissionDenied`` saying why,
    which the API's one exception handler (config.api) answers 403 ``{"detail": …}`` in the
    request's language."""
    where = None
    if action is None:
        action, where = api_action(request)
    if (
        room is None
        and where is not None
        and action in staff.ROOM_ACTIONS
        and staff.rooms_of(request.user, event) is not None
    ):
        match = getattr(request, "resolver_match", None)
        data = getattr(request, "data", None)
        # One place, or several tried in turn (the first one given names the room).
        for source, key, lookup in where if isinstance(where[0], tuple) else (where,):
            if source == "kwargs":
                value = match.kwargs.get(key) if match else None
            else:
                value = data.get(key) if hasattr(data, "get") else None
            if value is not None and not isinstance(value, bool):
                try:
                    room = room_number(event, lookup, value)
                except Http404:
                    room = None
                break
    staff.require(request.user, event, action, room=room)  # 403 saying why: config.api
    return event


def api_event(request, pk, action: str | None = None, room=None) -> Event:
    """The event of an API operation: 404 if the account does not see it, 403 if its role
    does not allow the action (named, or the operation's in ``API_ACTIONS``)."""
    # The API's 404 says no more than DRF's own «Not found.» (config.api.exception_handler).
    event = get_object_or_404(Event.objects.visible_to(request.user), pk=pk)
    return api_check(request, event, action, room)
