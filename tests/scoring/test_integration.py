"""Scoring meets the rest: event rules frozen by recorded sheets, substitutes in standings."""

import pytest
from django.core.exceptions import ValidationError

from events import services as event_services
from events.models import Entry
from movements.services import seat_substitute
from scoring import standings
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, play_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


def test_pot_rule_and_suit_order_cannot_change_once_sheets_exist(session15, director):
    event = session15.event
    event_services.event_update(event, pot_rule="trump")  # no sheets yet: allowed
    event_services.event_update(event, pot_rule="fixed")
    play = play_of(session15, 1, 1)
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )
    with pytest.raises(ValidationError) as caught:
        event_services.event_update(
            event, pot_rule="running", suit_order="clubs-spades-diamonds-hearts"
        )
    assert set(caught.value.message_dict) == {"pot_rule", "suit_order"}
    event.refresh_from_db()
    assert event.pot_rule == "fixed"
    event_services.event_update(event, stake=200)  # other rules may still change
    assert event.stake == 200


def test_a_substitute_takes_over_the_results_of_his_rounds(session15, director):
    event = session15.event
    play = play_of(session15, 2, 1)
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )
    n_round2 = play.round.placements.get(table=play.table, position="N").entry
    before = {row.entry.pk: row for row in standings.session_standings(session15)}
    assert before[n_round2.pk].deals == 1  # the figures are cached under the first player
    late = event_services.entry_create(event, last_name="Поздний", first_name="П")
    seat_substitute(session15, leaving=n_round2, arriving=late, from_round=2)
    rows = {row.entry.pk: row for row in standings.session_standings(session15)}
    assert late.pk in rows
    assert n_round2.pk not in rows or rows[n_round2.pk].deals == 0
    assert Entry.objects.get(pk=late.pk).status == "active"
