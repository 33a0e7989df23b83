"""Two directors at once (issue 34): the chief and a «director» load the same page, one
saves, the other's save — from the page drawn before — is refused with what changed (who,
when, old → new), what he typed kept, nothing overwritten: a player's edit, a
withdrawal or reinstatement done already, a substitution, a seating chosen twice. And an
event's creation is the first line of its log."""

import re

import pytest
from django.urls import reverse

from events import services as event_services
from events.actionlog import KINDS, log_lines
from events.models import ActionLog, Entry, Seat, Substitution

pytestmark = pytest.mark.django_db

EXPECTED = re.compile(r'name="expected" value="([^"]*)"')
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _expected(response) -> str:
    found = EXPECTED.findall(response.content.decode())
    assert len(found) == 1, "the form carries what it was drawn from"
    return found[0].replace("&quot;", '"')


def _players(team_world):
    return {e.number: e for e in team_world["event"].entries.filter(number__isnull=False)}


# --- a player's edit ------------------------------------------------------------------------


def _entry_form(entry, **change):
    data = {
        "last_name": entry.last_name,
        "first_name": entry.first_name,
        "club": entry.club,
        "number": entry.number or "",
    }
    return data | change


def test_a_players_edit_from_an_outdated_page_is_refused_naming_the_fields(team_world):
    event = team_world["event"]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    entry = _players(team_world)[3]
    url = reverse("director:entry_edit", args=[event.pk, entry.pk])
    seen_by_chief = _expected(chief.get(url))
    seen_by_deputy = _expected(deputy.get(url))
    assert seen_by_chief == seen_by_deputy

    saved = deputy.post(url, _entry_form(entry, club="Спартак", expected=seen_by_deputy))
    assert saved.status_code == 302
    refused = chief.post(url, _entry_form(entry, first_name="Илья", expected=seen_by_chief))
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Изменено за это время" in text and "deputy" in text
    assert "клуб: — → Спартак" in text
    assert 'value="Илья"' in text  # what he typed stays
    entry.refresh_from_db()
    assert (entry.first_name, entry.club) == ("Игорь", "Спартак")  # nothing overwritten
    # Drawn again from the state of now: sent again, it is saved (with the deputy's club).
    again = chief.post(url, _entry_form(entry, first_name="Илья", expected=_expected(refused)))
    assert again.status_code == 302
    entry.refresh_from_db()
    assert (entry.first_name, entry.club) == ("Илья", "Спартак")


def test_the_service_refuses_under_the_lock_and_without_a_token_works_as_before(team_world):
    from events.meanwhile import Changed, entry_token

    entry = _players(team_world)[4]
    seen = entry_token(entry)
    event_services.entry_update(entry, by_user=team_world["users"]["director"], last_name="Новиков")
    with pytest.raises(Changed) as refused:
        event_services.entry_update(
            Entry.objects.get(pk=entry.pk),
            by_user=team_world["users"]["chief"],
            expected=seen,
            club="ЦДШ",
        )
    assert "Новиков" in refused.value.text and "deputy" in refused.value.text
    assert Entry.objects.get(pk=entry.pk).club == ""
    event_services.entry_update(
        Entry.objects.get(pk=entry.pk), by_user=team_world["users"]["chief"], club="ЦДШ"
    )
    assert Entry.objects.get(pk=entry.pk).club == "ЦДШ"


def test_the_apis_player_edit_compares_what_the_caller_saw(team_world):
    """``PATCH …/entries/<id>/`` with ``expected`` (his fields as the caller read them): a
    change since is a 409 naming it; absent, not compared; not an object, 400 naming it."""
    event = team_world["event"]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    entry = _players(team_world)[5]
    url = f"/api/v1/events/{event.pk}/entries/{entry.pk}/"
    seen = {name: chief.get(url).json()[name] for name in ("last_name", "first_name", "club")}
    saved = deputy.patch(url, {"club": "Спартак"}, content_type="application/json")
    assert saved.status_code == 200
    refused = chief.patch(
        url, {"first_name": "Илья", "expected": seen}, content_type="application/json"
    )
    assert refused.status_code == 409
    detail = refused.json()["detail"]
    assert "deputy" in detail and "Спартак" in detail
    entry.refresh_from_db()
    assert (entry.first_name, entry.club) == ("Игорь", "Спартак")  # nothing overwritten
    now = {**seen, "club": "Спартак"}
    again = chief.patch(
        url, {"first_name": "Илья", "expected": now}, content_type="application/json"
    )
    assert again.status_code == 200 and again.json()["first_name"] == "Илья"
    assert "expected" not in again.json()
    bad = chief.patch(url, {"club": "ЦДШ", "expected": "вчера"}, content_type="application/json")
    assert bad.status_code == 400 and "expected" in bad.json()
    plain = chief.patch(url, {"club": "ЦДШ"}, content_type="application/json")
    assert plain.status_code == 200 and plain.json()["club"] == "ЦДШ"


def test_a_withdrawal_or_reinstatement_done_already_says_so_once(team_world):
    event = team_world["event"]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    late = event_services.entry_create(event, last_name="Поздний", first_name="Пётр")
    url = reverse("director:entry_withdraw", args=[event.pk, late.pk])
    assert deputy.post(url).status_code == 302
    again = chief.post(url, follow=True)
    assert "Поздний Пётр уже снят: deputy" in again.content.decode()
    lines = ActionLog.objects.filter(kind="entries.change", after__entry=late.pk)
    assert lines.filter(after__status="withdrawn").count() == 1
    back = reverse("director:entry_reinstate", args=[event.pk, late.pk])
    assert deputy.post(back).status_code == 302
    twice = chief.post(back, follow=True)
    assert "Поздний Пётр уже играет: deputy" in twice.content.decode()
    assert lines.filter(after__status="active").count() == 2  # the entry, the reinstatement


# --- seating --------------------------------------------------------------------------------


def _seated(team_world, number):
    return (
        Seat.objects.filter(round__room__session=team_world["session"], participant=number)
        .select_related("entry")
        .first()
        .entry
    )


def test_a_substitution_from_a_page_drawn_before_another_is_refused(team_world):
    event, session = team_world["event"], team_world["session"]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    url = reverse("director:session", args=[event.pk, session.number])
    seen_by_chief = _expected(chief.get(url))
    seen_by_deputy = _expected(deputy.get(url))
    assert seen_by_chief == seen_by_deputy == "0"
    first = event_services.entry_create(event, last_name="Запасной", first_name="Первый")
    second = event_services.entry_create(event, last_name="Запасной", first_name="Второй")
    leaving = _seated(team_world, 3)
    done = deputy.post(
        url,
        {"leaving": leaving.pk, "arriving": first.pk, "from_round": 2, "expected": seen_by_deputy},
    )
    assert done.status_code == 302
    refused = chief.post(
        url,
        {"leaving": leaving.pk, "arriving": second.pk, "from_round": 3, "expected": seen_by_chief},
    )
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Изменено за это время" in text and "deputy" in text and "участник 3 с тура 2" in text
    assert Substitution.objects.filter(session=session).count() == 1
    assert Entry.objects.get(pk=second.pk).number is None

    # Another player's substitution is no conflict: it goes through from the same old page.
    other = _seated(team_world, 5)
    assert (
        chief.post(
            url,
            {
                "leaving": other.pk,
                "arriving": second.pk,
                "from_round": 2,
                "expected": seen_by_chief,
            },
        ).status_code
        == 302
    )
    assert Substitution.objects.filter(session=session).count() == 2


def test_the_substitution_service_keeps_its_old_call(team_world):
    from events.meanwhile import Changed
    from movements.services import seat_substitute

    event, session = team_world["event"], team_world["session"]
    late = event_services.entry_create(event, last_name="Поздний", first_name="Пётр")
    reserve = event_services.entry_create(event, last_name="Резерв", first_name="Роман")
    leaving = _seated(team_world, 6)
    seat_substitute(session, leaving=leaving, arriving=late, from_round=2, by=None)
    with pytest.raises(Changed):
        seat_substitute(
            session, leaving=late, arriving=reserve, from_round=3, by=None, expected="0"
        )


def test_choosing_a_seating_when_the_session_was_created_meanwhile_is_refused(team_world):
    event = team_world["event"]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    url = reverse("director:plan", args=[event.pk])
    assert chief.get(url).status_code == deputy.get(url).status_code == 200
    data = {
        "option": 0,
        "participants": event.entries.active().count(),
        "number": 2,
        "another": "on",
    }
    assert deputy.post(url, data).status_code == 302
    refused = chief.post(url, data, **EN)
    text = refused.content.decode()
    assert refused.status_code == 400
    assert "Session 2 of this event already exists; nothing was created." in text
    assert "Created by deputy at" in text
    assert event.sessions.count() == 2


# --- the event's creation -------------------------------------------------------------------


def test_creating_an_event_writes_the_first_line_of_its_log(director):
    assert "event.create" in KINDS
    event = event_services.event_create(
        owner=director, name="Осенний кубок", date="2026-11-01", venue="ЦДШ"
    )
    (line,) = log_lines(event)
    assert (line.kind, line.login, line.after) == (
        "event.create",
        director.username,
        {"name": "Осенний кубок"},
    )
    assert line.user == director


def test_an_event_refused_writes_no_line(director):
    from django.core.exceptions import ValidationError

    before = ActionLog.objects.count()
    with pytest.raises(ValidationError):
        event_services.event_create(owner=director, name="", date="2026-11-01")
    assert ActionLog.objects.count() == before
