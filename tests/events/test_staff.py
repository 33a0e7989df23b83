"""A team of directors (issue 34), its foundations: the roles and what each may do, the staff
added and removed, the log written with each change and never rewritten, the command."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models.signals import post_save
from django.utils import translation

from events.actionlog import KINDS, log_action
from events.models import ActionLog, EventStaff, Room
from events.staff import (
    ACTION_LABELS,
    RULES,
    may,
    require,
    role_of,
    rooms_of,
    staff_add,
    staff_list,
    staff_remove,
)
from tests.factories import account

pytestmark = pytest.mark.django_db


def _staff_lines():
    """The log's lines but the event's creation (every event's first line): the staff's."""
    return ActionLog.objects.exclude(kind="event.create")


#: Issue 34's roles, action by action: (chief, director, room director in his room, secretary).
EXPECTED = {
    "view": (True, True, True, True),
    "staff": (True, False, False, False),
    "delete_event": (True, False, False, False),
    "settings": (True, True, False, False),
    "entries": (True, True, False, False),
    "seating": (True, True, False, False),
    "publish": (True, True, False, False),
    "show_deals": (True, True, False, False),
    "clock": (True, True, True, False),
    "sheets": (True, True, True, True),
    "boxes": (True, True, True, True),
    "adjust": (True, True, True, False),
    "calls": (True, True, True, False),
    "checkin": (True, True, True, False),
}
ROOM_ACTIONS = {"clock", "sheets", "boxes", "adjust", "calls", "checkin"}


@pytest.fixture
def team(event, director):
    """A director, a room director of room 2 and a secretary, added by the chief."""
    deputy, roomie, scribe = account("deputy"), account("roomie"), account("scribe")
    staff_add(event, "deputy", "director", by_user=director)
    staff_add(event, "roomie", "room", [2], by_user=director)
    staff_add(event, "scribe", "secretary", by_user=director)
    return {"chief": director, "director": deputy, "room": roomie, "secretary": scribe}


def _lines(event):
    return list(_staff_lines().filter(event=event).values_list("kind", "login"))


# --- The roles ----------------------------------------------------------------------------


def test_the_table_covers_every_action_and_says_what_each_is():
    assert set(EXPECTED) == set(RULES) == set(ACTION_LABELS)


@pytest.mark.parametrize("action", sorted(EXPECTED))
def test_each_role_may_exactly_what_issue_34_gives_it(team, event, action):
    for i, role in enumerate(("chief", "director", "room", "secretary")):
        assert may(team[role], event, action, room=2) is EXPECTED[action][i], (role, action)


@pytest.mark.parametrize("action", sorted(EXPECTED))
def test_a_stranger_a_superuser_and_an_anonymous_phone(
    team, event, other_director, superuser, action
):
    from django.contrib.auth.models import AnonymousUser

    assert may(other_director, event, action, room=2) is False
    assert may(AnonymousUser(), event, action, room=2) is False
    assert may(superuser, event, action, room=2) is True


def test_each_account_has_its_role(team, event, other_director, superuser):
    assert {name: role_of(user, event) for name, user in team.items()} == {
        "chief": "chief",
        "director": "director",
        "room": "room",
        "secretary": "secretary",
    }
    assert role_of(superuser, event) == "chief"
    assert role_of(other_director, event) is None


def test_the_staff_of_one_event_has_no_part_in_another(team, other_event):
    for user in team.values():
        assert role_of(user, other_event) is None
        assert not may(user, other_event, "view")


def test_an_inactive_account_has_no_part(team, event):
    team["director"].is_active = False
    team["director"].save()
    assert role_of(team["director"], event) is None


def test_a_room_director_changes_only_his_rooms(team, event):
    roomie = team["room"]
    assert rooms_of(roomie, event) == {2}
    for action in ROOM_ACTIONS:
        assert may(roomie, event, action, room=2)
        assert may(roomie, event, action, room=Room(number=2))  # a Room counts by its number
        assert not may(roomie, event, action, room=1)
        assert not may(roomie, event, action)  # no room said: not the event as a whole
    assert may(roomie, event, "view")  # he sees the whole event


def test_the_other_roles_are_not_limited_to_rooms(team, event, other_director):
    for role in ("chief", "director", "secretary"):
        assert rooms_of(team[role], event) is None
        assert may(team[role], event, "sheets", room=7)
        assert may(team[role], event, "sheets")
    assert rooms_of(other_director, event) == set()


def test_a_refusal_says_why_in_the_users_language(team, event):
    with pytest.raises(PermissionDenied) as refused:
        require(team["secretary"], event, "clock", room=1)
    assert str(refused.value) == (
        "Ваша роль в этом турнире («Секретарь») не позволяет управлять часами тура."
    )
    with pytest.raises(PermissionDenied) as refused:
        require(team["room"], event, "clock", room=1)
    assert "комнаты 1 среди них нет" in str(refused.value) and ": 2;" in str(refused.value)
    with translation.override("en"), pytest.raises(PermissionDenied) as refused:
        require(team["director"], event, "staff")
    assert str(refused.value) == (
        "Your role in this event («Director») does not allow you to manage the event's staff."
    )
    require(team["room"], event, "clock", room=2)  # allowed: no exception


def test_an_unknown_action_is_an_error_not_a_quiet_no(team, event):
    with pytest.raises(ValueError, match="unknown action"):
        may(team["chief"], event, "fly")


# --- Adding and removing staff -------------------------------------------------------------


def test_the_chief_adds_an_existing_account_and_the_log_says_so(event, director):
    account("helper")
    row = staff_add(event, " helper ", "secretary", by_user=director)
    assert (row.role, row.rooms, row.added_by) == ("secretary", [], director)
    line = _staff_lines().get(event=event)
    assert (line.kind, line.login, line.user) == ("staff.add", "judge", director)
    assert line.after == {"login": "helper", "role": "secretary", "rooms": [], "new_account": False}


def test_a_new_account_is_made_when_a_password_is_given(event, director):
    staff_add(event, "newbie", "room", [3, 1, 3], "Kryzhovnik-42", by_user=director)
    user = get_user_model().objects.get(username="newbie")
    assert user.check_password("Kryzhovnik-42") and not user.is_staff and not user.is_superuser
    assert EventStaff.objects.get(event=event, user=user).rooms == [1, 3]
    assert _staff_lines().get(event=event).after["new_account"] is True
    assert "Kryzhovnik" not in str(_staff_lines().values_list("after", "summary"))


def _refused_on(field, call):
    with pytest.raises(ValidationError) as refused:
        call()
    assert list(refused.value.message_dict) == [field]
    return refused.value.message_dict[field][0]


def test_a_login_that_does_not_exist_and_no_password_is_refused_on_login(event, director):
    message = _refused_on("login", lambda: staff_add(event, "ghost", "director", by_user=director))
    assert "ghost" in message
    assert not get_user_model().objects.filter(username="ghost").exists()
    assert _lines(event) == []


@pytest.mark.parametrize(
    ("role", "rooms", "field"),
    [
        ("chief", (), "role"),
        ("boss", (), "role"),
        ("director", [1], "rooms"),
        ("secretary", [2], "rooms"),
        ("room", [], "rooms"),
        ("room", [0], "rooms"),
        ("room", [-1], "rooms"),
        ("room", ["2"], "rooms"),
        ("room", [True], "rooms"),
        ("room", [40000], "rooms"),
    ],
)
def test_bad_roles_and_rooms_are_refused_on_their_field(event, director, role, rooms, field):
    account("helper")
    _refused_on(field, lambda: staff_add(event, "helper", role, rooms, by_user=director))
    assert not EventStaff.objects.exists() and _lines(event) == []


def test_a_weak_password_makes_no_account(event, director):
    _refused_on(
        "password", lambda: staff_add(event, "newbie", "director", (), "123", by_user=director)
    )
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert _lines(event) == []


def test_an_existing_accounts_password_is_not_set_here(event, director):
    helper = account("helper")
    _refused_on(
        "password",
        lambda: staff_add(event, "helper", "director", (), "Other-pass-77", by_user=director),
    )
    helper.refresh_from_db()
    assert helper.check_password("s3cret-pass-9")


def test_the_owner_is_the_chief_and_never_a_staff_row(event, director):
    _refused_on("login", lambda: staff_add(event, "judge", "secretary", by_user=director))
    _refused_on("login", lambda: staff_remove(event, "judge", by_user=director))
    assert not EventStaff.objects.exists()


def test_only_the_chief_manages_the_staff(team, event):
    account("helper")
    for role in ("director", "room", "secretary"):
        with pytest.raises(PermissionDenied):
            staff_add(event, "helper", "secretary", by_user=team[role])
        with pytest.raises(PermissionDenied):
            staff_remove(event, "scribe", by_user=team[role])
    assert role_of(get_user_model().objects.get(username="helper"), event) is None


def test_adding_again_changes_the_role_and_logs_before_and_after(team, event, director):
    staff_add(event, "roomie", "room", [2, 3], by_user=director)
    line = _staff_lines().filter(event=event).first()
    assert line.kind == "staff.change"
    assert line.before == {"login": "roomie", "role": "room", "rooms": [2]}
    assert line.after == {"login": "roomie", "role": "room", "rooms": [2, 3]}
    assert may(team["room"], event, "clock", room=3)
    count = _staff_lines().count()
    staff_add(event, "roomie", "room", [3, 2], by_user=director)  # the same: nothing to log
    assert _staff_lines().count() == count


def test_removing_a_member_ends_his_access_at_once(team, event, director):
    secretary = team["secretary"]
    assert may(secretary, event, "sheets")
    staff_remove(event, "scribe", by_user=director)
    assert not may(secretary, event, "sheets") and not may(secretary, event, "view")
    line = _staff_lines().filter(event=event).first()
    assert (line.kind, line.login, line.before) == (
        "staff.remove",
        "judge",
        {"login": "scribe", "role": "secretary", "rooms": []},
    )
    assert get_user_model().objects.filter(username="scribe").exists()  # the account stays


def test_removing_someone_not_on_the_staff_is_refused_on_login(team, event, director):
    _refused_on("login", lambda: staff_remove(event, "nobody", by_user=director))


def test_the_list_puts_the_owner_first_as_chief(team, event):
    assert staff_list(event) == [
        {"login": "judge", "role": "chief", "rooms": []},
        {"login": "deputy", "role": "director", "rooms": []},
        {"login": "roomie", "role": "room", "rooms": [2]},
        {"login": "scribe", "role": "secretary", "rooms": []},
    ]


# --- The log -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_change_whose_log_line_fails_is_not_made(event, director):
    """The line and the change stand or fall together: a line that cannot be written
    takes the new account and its staff row with it."""

    def refuse(sender, **kwargs):
        raise RuntimeError("the log is full")

    post_save.connect(refuse, sender=ActionLog)
    try:
        with pytest.raises(RuntimeError, match="the log is full"):
            staff_add(event, "newbie", "director", (), "Kryzhovnik-42", by_user=director)
    finally:
        post_save.disconnect(refuse, sender=ActionLog)
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert not EventStaff.objects.exists() and not _staff_lines().exists()


@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_leaves_no_log_line(event, director):
    account("helper")
    with pytest.raises(RuntimeError), transaction.atomic():
        staff_add(event, "helper", "director", by_user=director)
        raise RuntimeError("the request failed later")
    assert not EventStaff.objects.exists() and not _staff_lines().exists()


@pytest.mark.django_db(transaction=True)
def test_a_log_line_is_written_only_inside_the_changes_transaction(event, director):
    with pytest.raises(RuntimeError, match="transaction"):
        log_action(event, director, "round.start", room=1)
    assert not _staff_lines().exists()


def test_a_line_keeps_where_and_what(event, director):
    room = Room(number=2)
    line = log_action(
        event,
        director,
        "sheet.correct",
        room=room,
        table=5,
        summary="по заявлению стола",
        before={"scores": {"N": 70}},
        after={"scores": {"N": 80}},
    )
    line = _staff_lines().get(pk=line.pk)
    assert (line.login, line.room, line.table, line.summary) == (
        "judge",
        2,
        5,
        "по заявлению стола",
    )
    assert (line.before, line.after) == ({"scores": {"N": 70}}, {"scores": {"N": 80}})
    assert line.at is not None


def test_an_unknown_kind_is_refused(event, director):
    with pytest.raises(ValueError, match="unknown kind"):
        log_action(event, director, "sheet.corect")
    assert "sheet.correct" in KINDS


def test_the_login_stays_when_the_account_is_deleted(event):
    gone = account("gone")
    line = log_action(event, gone, "call.close", room=1, table=3)
    gone.delete()
    line = _staff_lines().get(pk=line.pk)
    assert (line.user, line.login) == (None, "gone")


def test_the_log_is_append_only(event, director):
    line = log_action(event, director, "publish")
    line.summary = "rewritten"
    with pytest.raises(TypeError, match="append-only"):
        line.save()
    with pytest.raises(TypeError, match="append-only"):
        line.delete()
    with pytest.raises(TypeError, match="append-only"):
        _staff_lines().filter(pk=line.pk).update(summary="rewritten")
    with pytest.raises(TypeError, match="append-only"):
        _staff_lines().filter(pk=line.pk).delete()
    assert _staff_lines().get(pk=line.pk).summary == ""


def test_the_event_deleted_takes_its_log_with_it(event, director):
    log_action(event, director, "publish")
    event.delete()
    assert not _staff_lines().exists()


# --- The command ---------------------------------------------------------------------------


def _command(*args, **options):
    out = io.StringIO()
    call_command("event_staff", *args, stdout=out, **options)
    return out.getvalue()


def test_the_command_adds_changes_and_removes_staff(event):
    account("helper")
    out = _command(str(event.pk), "helper", "--role", "room", "--rooms", "2,1")
    assert out.splitlines() == ["judge\tchief", "helper\troom\t1,2"]
    out = _command(str(event.pk), "newbie", "--role", "secretary", "--password", "Kryzhovnik-42")
    assert "newbie\tsecretary" in out.splitlines()
    assert get_user_model().objects.get(username="newbie").check_password("Kryzhovnik-42")
    out = _command(str(event.pk), "helper", "--remove")
    assert out.splitlines() == ["judge\tchief", "newbie\tsecretary"]
    assert _lines(event) == [("staff.remove", ""), ("staff.add", ""), ("staff.add", "")]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["999999", "helper", "--role", "director"], "No event has the id 999999"),
        (["{event}", "helper", "--role", "boss"], "invalid choice: 'boss'"),
        (
            ["{event}", "helper", "--role", "director", "--rooms", "1,2"],
            "--rooms is for the role 'room'",
        ),
        (["{event}", "helper", "--role", "room"], "needs --rooms"),
        (
            ["{event}", "helper", "--role", "room", "--rooms", "1,x"],
            "room numbers separated by commas",
        ),
        (
            ["{event}", "helper", "--role", "room", "--rooms", "0"],
            "room numbers separated by commas",
        ),
        (["{event}", "ghost", "--role", "director"], "login: No account has the login «ghost»"),
        (["{event}", "helper"], "--role"),
        (["{event}", "ghost", "--remove"], "login: «ghost» is not on the staff"),
        (["{event}", "helper", "--remove", "--role", "director"], "--remove takes no --role"),
    ],
)
def test_the_command_refuses_bad_input_with_a_clear_message(event, args, says):
    account("helper")
    with pytest.raises(CommandError, match=None) as refused:
        _command(*(a.format(event=event.pk) for a in args))
    assert says in str(refused.value)
    assert refused.value.returncode != 0
    assert not EventStaff.objects.exists() and not _staff_lines().exists()


# --- The migration --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_applies_and_reverts_on_this_backend():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("events", "0014_boardset_letter")])
        with connection.cursor() as cursor:
            tables = connection.introspection.table_names(cursor)
        assert "events_eventstaff" not in tables and "events_actionlog" not in tables
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(leaves)
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        assert {"events_eventstaff", "events_actionlog"} <= set(tables)
        constraints = connection.introspection.get_constraints(cursor, "events_actionlog")
    assert "action_log_event_at" in constraints
