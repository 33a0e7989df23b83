"""Errors below the fold (issue 21, finding 7): the table's deal page is some 2,700 px tall on
a phone, so a refused «Check» or «Save» comes back with its problems summed up at the top —
each linked to its field's id, the first field with ``autofocus`` — and the page marks the
seat entering «(вы)» only once its player is proven (his PIN, his own link)."""

import re

import pytest

from events.models import PIN_DIGITS, Seat
from scoring.models import ScoreSheet, TablePlay
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, THREE_DIAMONDS_FORM, deal_of, round_link

pytestmark = pytest.mark.django_db

GOOD = THREE_DIAMONDS_FORM  # N «три» in diamonds, E whists and takes 3, S passes
YOU = "(вы)"


def _entry(play, position):
    return Seat.objects.get(round=play.round, table=play.table, position=position).entry


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"


def _check(client, play, data, deal=1):
    return client.post(round_link(play, f"deals/{deal}/"), {**data, "check": "1"})


def _summary(body: str) -> str:
    found = re.search(
        r'<div class="error-summary" id="error-summary" role="alert".*?</div>', body, re.S
    )
    assert found, "no summary of the problems"
    return found.group(0)


def _links(summary: str) -> list[str]:
    return re.findall(r'<a href="#([^"]+)">', summary)


def _autofocused(body: str) -> list[str]:
    """The ids of the elements that carry ``autofocus``."""
    return [
        re.search(r'\sid="([^"]+)"', tag).group(1)
        for tag in re.findall(r"<(?:input|select|textarea|div)\b[^>]*>", body)
        if re.search(r"\sautofocus(?:[\s>=]|$)", tag)
    ]


def _you_marked(body: str) -> bool:
    return YOU in body


def test_a_broken_rule_is_summed_up_at_the_top_linked_to_its_field_which_takes_the_focus(
    client, running
):
    response = _check(client, running, {**GOOD, "trump": "clubs", "tricks_E": "2", "as": "N"})
    assert response.status_code == 400
    body = response.content.decode()
    summary = _summary(body)
    # At the top: before the facts of the deal and before the form.
    assert (
        body.index('id="error-summary"') < body.index('class="facts"') < body.index('id="scorer"')
    )
    assert "Исправьте 2 поля:" in summary
    assert "<strong>Козырь</strong> — при «три» козырь — бубны или червы" in summary
    assert "<strong>Взятки</strong> — " in summary
    links = _links(summary)
    assert links == ["id_trump", "id_tricks_N"]
    for target in links:
        assert f'id="{target}"' in body
    assert _autofocused(body) == ["id_trump"]
    # What was typed is kept.
    assert response.context["form"]["tricks_E"].value() == "2"
    assert not ScoreSheet.objects.exists()


def test_a_wrong_pin_is_summed_up_linked_to_the_pin_and_the_player_is_not_marked_you(
    client, running
):
    north = _entry(running, "N")
    response = _check(client, running, {**GOOD, "as": "N", "pin": _wrong(north.pin)})
    assert response.status_code == 400
    body = response.content.decode()
    summary = _summary(body)
    assert "Исправьте 1 поле:" in summary
    assert f"<strong>ПИН-код</strong> — Это не ПИН-код N {north.full_name}" in summary
    assert _links(summary) == ["id_pin"]
    assert _autofocused(body) == ["id_pin"]
    assert not _you_marked(body)
    # Why, on the PIN field; the seat chosen stays chosen.
    assert re.search(r'<input type="password" name="pin" id="id_pin"[^>]*aria-invalid="true"', body)
    assert re.search(r'id="as-N" checked', body)
    # Nor does the table's page his links lead back to.
    back = re.search(r'<p class="crumbs"><a href="([^"]+)"', body).group(1)
    assert back == round_link(running)
    assert not _you_marked(client.get(back).content.decode())


def test_the_right_pin_marks_the_player_entering_you(client, running):
    north = _entry(running, "N")
    checked = _check(client, running, {**GOOD, "as": "N", "pin": north.pin})
    assert checked.status_code == 200
    body = checked.content.decode()
    assert 'id="error-summary"' not in body and _autofocused(body) == []
    assert re.search(
        rf'id="proven">.*N <bdi>{re.escape(north.full_name)}</bdi> <strong>\(вы\)</strong>', body
    )
    # Proven, but a rule broken: still marked, and the rule summed up.
    broken = _check(client, running, {**GOOD, "trump": "clubs", "as": "N", "pin": north.pin})
    assert broken.status_code == 400
    assert _you_marked(broken.content.decode())
    assert _links(_summary(broken.content.decode())) == ["id_trump"]


def test_a_seat_only_chosen_is_not_marked_you(client, running):
    assert not _you_marked(client.get(round_link(running, "deals/1/?as=N")).content.decode())
    checked = _check(client, running, {**GOOD, "as": "N"})
    assert checked.status_code == 200 and not _you_marked(checked.content.decode())


def test_his_own_link_marks_him_you(client, running):
    south = _entry(running, "S")
    body = client.get(round_link(running, f"deals/1/?me={south.key}")).content.decode()
    assert re.search(
        rf'id="proven">.*S <bdi>{re.escape(south.full_name)}</bdi> <strong>\(вы\)</strong>', body
    )


def test_nobody_chosen_sends_to_the_seats(client, running):
    response = _check(client, running, GOOD)
    assert response.status_code == 400
    body = response.content.decode()
    summary = _summary(body)
    first_seat = re.search(r'<input type="radio" name="as" value="(\w)"', body).group(1)
    assert "<strong>Кто вносит</strong> — Выберите, кто вносит протокол." in summary
    assert _links(summary) == [f"as-{first_seat}"]
    assert _autofocused(body) == [f"as-{first_seat}"]


def test_a_refused_talon_sends_to_the_talons_cards(client, running, director):
    # Another table of the set has recorded the deal's talon: this one types other cards.
    other = (
        TablePlay.objects.filter(board_set=running.board_set)
        .exclude(pk=running.pk)
        .select_related("round__room__session__event", "table", "board_set")
        .first()
    )
    services.sheet_record(
        other, deal_of(other, 1), {**THREE_DIAMONDS, "talon": ["SA", "H7"]}, by_user=director
    )
    typed = {**GOOD, "as": "N", "talon": ["SA", "H8"]}
    # «Проверить» does not compare the talon (docs/game.md §2.7); «Сохранить» does.
    checked = _check(client, running, typed)
    assert checked.status_code == 200 and 'id="error-summary"' not in checked.content.decode()
    digest = checked.context["form"].data["checked"]
    response = client.post(
        round_link(running, "deals/1/"), {**typed, "checked": digest, "save": "1"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    summary = _summary(body)
    assert "<strong>Прикуп</strong> — Этот прикуп (♠Т ♥8)" in summary
    assert _links(summary) == ["group-talon-SA"]
    assert _autofocused(body) == ["group-talon-SA"]


def test_a_refused_box_report_is_summed_up_too(client, running):
    response = client.post(round_link(running, "deals/1/box/"), {"kind": "talon", "as": "N"})
    assert response.status_code == 400
    body = response.content.decode()
    summary = _summary(body)
    assert "<strong>Прикуп, найденный в коробке</strong> — " in summary
    assert _links(summary) == ["found-talon-S7"]
    assert _autofocused(body) == ["found-talon-S7"]


def test_the_summary_speaks_the_users_language(client, running):
    client.cookies["django_language"] = "en"
    north = _entry(running, "N")
    body = _check(client, running, {**GOOD, "as": "N", "pin": _wrong(north.pin)}).content.decode()
    summary = _summary(body)
    assert "Correct 1 field:" in summary and "<strong>PIN</strong> — This is not the PIN" in summary


def test_the_directors_scorer_form_sums_its_problems_up_at_the_top_too(director_client, running):
    """The director's form for a table's sheet: a refused «Check» answers 400 with the same
    summary, each problem linked to its field, the first field focused."""
    from django.urls import reverse

    from tests.factories import play_of

    play = play_of(running.round.room.session, 1, 1)
    url = reverse("director:sheet_form", args=[play.round.room.session.event_id, play.pk, 1])
    response = director_client.post(url, {"declarer": "N", "contract": "three", "check": "1"})
    assert response.status_code == 400, response.status_code
    body = response.content.decode()
    assert 'id="error-summary"' in body
    assert body.index('id="error-summary"') < body.index('id="scorer"')
    summary = response.context["error_summary"]
    assert summary and response.context["autofocus"] == summary.first
