"""The team of an event (issue 34): who serves it, in which role, and what each role may do.

The one service of roles: every director page, action and API endpoint asks ``may`` (or
``require``, which raises ``PermissionDenied`` with a message in the user's language). It
imports nothing of the views; it reads the staff row at each call, so removing a member
ends his access at his next request, whatever session or token he holds.

Roles
-----

- ``chief`` («Главный судья») — the event's owner (and a superuser, on every event). He is
  never a staff row.
- ``director`` («Судья») — everything the chief may, except the staff and deleting the event.
- ``room`` («Судья зала») — sees the whole event, changes only the rooms he is given (their
  numbers, ``Room.number``, in every session): their clock, sheets, box reports,
  adjustments and penalties, calls and check-in.
- ``secretary`` («Секретарь») — enters and corrects sheets and box reports of the whole
  event; no clock, no seating, no publishing, no adjustments.

What each role may do (``rooms`` = only in his rooms)::

    action        what it covers                                chief  director  room   secretary
    view          see the event's director pages                 yes    yes       yes    yes
    staff         add, change, remove staff                      yes    -         -      -
    delete_event  delete the event                               yes    -         -      -
    settings      change the event's settings                    yes    yes       -      -
    entries       players: add, change, withdraw, draw numbers   yes    yes       -      -
    seating       sessions, seating, substitutions               yes    yes       -      -
    publish       publish results and standings                  yes    yes       -      -
    show_deals    show the deals (hand records) to players       yes    yes       -      -
    clock         start, end, extend, pause a round              yes    yes       rooms  -
    sheets        enter and correct score sheets                 yes    yes       rooms  yes
    boxes         handle box reports                             yes    yes       rooms  yes
    adjust        adjustments and penalties                      yes    yes       rooms  -
    calls         answer the tables' calls («Позвать судью»)     yes    yes       rooms  -
    checkin       the players' check-in                          yes    yes       rooms  -

For a room director a room action needs the room it is done in (``room=`` a number or a
``Room``): without one it is refused, as he may not act on the event as a whole. For the
other roles ``room`` is not looked at. An account that is not the chief and not on the
staff (or is inactive, or anonymous) may nothing. An unknown action is a programming
error (``ValueError``), never a quiet «no».

Staff see another owner's register and ladders only if the owner shares them; sharing is
not part of this module.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from events.actionlog import log_action
from events.models import Event, EventStaff

CHIEF = "chief"
DIRECTOR = EventStaff.Role.DIRECTOR.value
ROOM = EventStaff.Role.ROOM.value
SECRETARY = EventStaff.Role.SECRETARY.value

#: Every role, highest first (the order of ``staff_list``).
ROLES = (CHIEF, DIRECTOR, ROOM, SECRETARY)

ROLE_LABELS = {
    CHIEF: pgettext_lazy("staff role", "Chief director"),
    **{role.value: role.label for role in EventStaff.Role},
}

_ALL = frozenset(ROLES)
_DIRECTORS = frozenset({CHIEF, DIRECTOR})

#: The table of the module's docstring: action → the roles that may do it.
RULES: dict[str, frozenset[str]] = {
    "view": _ALL,
    "staff": frozenset({CHIEF}),
    "delete_event": frozenset({CHIEF}),
    "settings": _DIRECTORS,
    "entries": _DIRECTORS,
    "seating": _DIRECTORS,
    "publish": _DIRECTORS,
    "show_deals": _DIRECTORS,
    "clock": _DIRECTORS | {ROOM},
    "sheets": _ALL,
    "boxes": _ALL,
    "adjust": _DIRECTORS | {ROOM},
    "calls": _DIRECTORS | {ROOM},
    "checkin": _DIRECTORS | {ROOM},
}

#: The actions a room director may do in his rooms only.
ROOM_ACTIONS = frozenset({"clock", "sheets", "boxes", "adjust", "calls", "checkin"})

#: What each action is, for the refusal's message: «… does not allow you to <this>».
ACTION_LABELS = {
    "view": gettext_lazy("see this event"),
    "staff": gettext_lazy("manage the event's staff"),
    "delete_event": gettext_lazy("delete the event"),
    "settings": gettext_lazy("change the event's settings"),
    "entries": gettext_lazy("change the list of players"),
    "seating": gettext_lazy("seat the players"),
    "publish": gettext_lazy("publish the results"),
    "show_deals": gettext_lazy("show the deals"),
    "clock": gettext_lazy("run the round clock"),
    "sheets": gettext_lazy("enter and correct score sheets"),
    "boxes": gettext_lazy("handle box reports"),
    "adjust": gettext_lazy("set adjustments and penalties"),
    "calls": gettext_lazy("answer the tables' calls"),
    "checkin": gettext_lazy("check the players in"),
}

#: Room numbers are ``Room.number`` (a positive small integer).
ROOM_MAX = 32767


def _membership(user, event: Event) -> tuple[str, frozenset[int] | None] | None:
    """(role, rooms) of the account in the event, rooms ``None`` for every room; ``None``
    if he has no part in it. One query for a staff member, none for the chief."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser or user.pk == event.owner_id:
        return CHIEF, None
    row = EventStaff.objects.filter(event=event, user=user).values_list("role", "rooms").first()
    if row is None:
        return None
    role, rooms = row
    return role, (frozenset(rooms) if role == ROOM else None)


def role_of(user, event: Event) -> str | None:
    """«chief» (the owner, or a superuser), the staff member's role, or ``None``."""
    found = _membership(user, event)
    return found[0] if found else None


def rooms_of(user, event: Event) -> set[int] | None:
    """The room numbers the account may change: ``None`` for every room (chief, director,
    secretary), his rooms for a room director, an empty set for an account of no part."""
    found = _membership(user, event)
    if found is None:
        return set()
    return None if found[1] is None else set(found[1])


def _room_number(room) -> int | None:
    return room.number if isinstance(room, models.Model) else room


def _refusal(found, event: Event, action: str, room) -> str | None:
    """Why the action is refused (a message in the active language), or ``None``."""
    if action not in RULES:
        raise ValueError(f"unknown action {action!r}: one of {sorted(RULES)}")
    if found is None:
        return _("You have no part in this event.")
    role, rooms = found
    if role not in RULES[action]:
        return _("Your role in this event («%(role)s») does not allow you to %(action)s.") % {
            "role": ROLE_LABELS[role],
            "action": ACTION_LABELS[action],
        }
    if rooms is not None and action in ROOM_ACTIONS:
        mine = ", ".join(str(n) for n in sorted(rooms)) or "—"
        number = _room_number(room)
        if number is None:
            return _("You may do this only in your rooms (%(rooms)s): say which room.") % {
                "rooms": mine
            }
        if number not in rooms:
            return _(
                "You direct only these rooms of the event: %(rooms)s; room %(room)s is not among them."
            ) % {
                "rooms": mine,
                "room": number,
            }
    return None


def may(user, event: Event, action: str, *, room=None) -> bool:
    """May this account do ``action`` on ``event`` (in ``room``: a number or a ``Room``)?
    The table is the module's docstring."""
    return _refusal(_membership(user, event), event, action, room) is None


def require(user, event: Event, action: str, *, room=None) -> None:
    """As ``may``, but a refusal raises ``PermissionDenied`` saying why, in the user's
    language (the views answer it 403)."""
    why = _refusal(_membership(user, event), event, action, room)
    if why is not None:
        raise PermissionDenied(why)


# --- The staff: who serves the event ------------------------------------------------------


def _clean_rooms(role: str, rooms) -> list[int]:
    """The rooms of a room director, sorted and once each; refused for another role."""
    rooms = list(rooms or ())
    if role != ROOM:
        if rooms:
            raise ValidationError(
                {
                    "rooms": _("Only a room director («%(role)s») is given rooms.")
                    % {"role": ROLE_LABELS[ROOM]}
                }
            )
        return []
    if not rooms:
        raise ValidationError({"rooms": _("Give the room director at least one room.")})
    for number in rooms:
        # bool is an int to Python; «true» is no room number.
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= ROOM_MAX:
            raise ValidationError(
                {
                    "rooms": _("A room is its number, from 1 to %(max)s: «%(room)s» is not one.")
                    % {"max": ROOM_MAX, "room": number}
                }
            )
    return sorted(set(rooms))


def _entry(user, role: str, rooms) -> dict:
    """A staff member as the log and ``staff_list`` show him."""
    return {"login": user.get_username(), "role": role, "rooms": list(rooms)}


def _account(login: str, password: str | None):
    """(the account of this login, made now?): an existing one, or a new one made with the
    password; no account and no password is refused on ``login``."""
    User = get_user_model()
    try:
        user = User._default_manager.get_by_natural_key(login)
    except User.DoesNotExist:
        user = None
    if user is not None:
        if password:
            raise ValidationError(
                {
                    "password": _(
                        "The account «%(login)s» exists already: its password is not set here."
                    )
                    % {"login": login}
                }
            )
        return user, False
    if not password:
        raise ValidationError(
            {
                "login": _("No account has the login «%(login)s»: give a password to create it.")
                % {"login": login}
            }
        )
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        field.run_validators(login)
    except ValidationError as error:
        raise ValidationError({"login": error.messages}) from None
    try:
        password_validation.validate_password(password, User(**{User.USERNAME_FIELD: login}))
    except ValidationError as error:
        raise ValidationError({"password": error.messages}) from None
    return User._default_manager.create_user(
        **{User.USERNAME_FIELD: login}, password=password
    ), True


def staff_add(
    event: Event, login: str, role: str, rooms=(), password: str | None = None, *, by_user
):
    """Give the account ``login`` the ``role`` in ``event`` (and ``rooms``, for a room
    director); an account of no such login is made when a ``password`` is given. An account
    already on the staff has its role and rooms changed. Returns the staff row.

    ``by_user`` is who does it (the chief; refused to anyone else), or ``None`` for the
    server's command line. Bad input raises ``ValidationError`` naming its field
    (``login``, ``role``, ``rooms``, ``password``); the change and its log line are written
    together or not at all."""
    if by_user is not None:
        require(by_user, event, "staff")
    login = (login or "").strip()
    if not login:
        raise ValidationError({"login": _("Give the staff member's login.")})
    if role not in EventStaff.Role.values:
        raise ValidationError(
            {
                "role": _("A staff member's role is one of: %(roles)s.")
                % {"roles": ", ".join(EventStaff.Role.values)}
            }
        )
    rooms = _clean_rooms(role, rooms)
    with transaction.atomic():
        user, made = _account(login, password)
        if user.pk == event.owner_id:
            raise ValidationError(
                {
                    "login": _("«%(login)s» owns the event: he is its chief director already.")
                    % {"login": login}
                }
            )
        row = EventStaff.objects.select_for_update().filter(event=event, user=user).first()
        if row is None:
            row = EventStaff.objects.create(
                event=event, user=user, role=role, rooms=rooms, added_by=by_user
            )
            log_action(
                event,
                by_user,
                "staff.add",
                after={**_entry(user, role, rooms), "new_account": made},
            )
            return row
        before = _entry(user, row.role, row.rooms)
        if before == _entry(user, role, rooms):
            return row
        row.role, row.rooms = role, rooms
        row.save(update_fields=["role", "rooms"])
        log_action(event, by_user, "staff.change", before=before, after=_entry(user, role, rooms))
        return row


def staff_remove(event: Event, login: str, *, by_user) -> None:
    """Take the account ``login`` off the event's staff: his access ends at his next
    request. ``by_user`` as in ``staff_add``."""
    if by_user is not None:
        require(by_user, event, "staff")
    login = (login or "").strip()
    User = get_user_model()
    with transaction.atomic():
        row = (
            EventStaff.objects.select_for_update()
            .select_related("user")
            .filter(event=event, **{f"user__{User.USERNAME_FIELD}": login})
            .first()
        )
        if row is None:
            if event.owner.get_username() == login:
                message = _("«%(login)s» owns the event: the chief director cannot be removed.")
            else:
                message = _("«%(login)s» is not on the staff of this event.")
            raise ValidationError({"login": message % {"login": login}})
        before = _entry(row.user, row.role, row.rooms)
        row.delete()
        log_action(event, by_user, "staff.remove", before=before)


def staff_list(event: Event) -> list[dict]:
    """The event's team: ``[{"login", "role", "rooms"}]``, the owner first as «chief», then
    the staff by role (director, room, secretary) and login."""
    rank = {role: i for i, role in enumerate(ROLES)}
    rows = [
        _entry(row.user, row.role, sorted(row.rooms))
        for row in EventStaff.objects.filter(event=event).select_related("user")
        if row.user_id != event.owner_id
    ]
    rows.sort(key=lambda r: (rank[r["role"]], r["login"]))
    return [_entry(event.owner, CHIEF, []), *rows]
