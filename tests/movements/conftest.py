"""Helpers shared by the movement page, card and API tests."""

import pytest

from events import services as event_services
from movements import planner
from movements.services import session_create


def add_players(event, n, *, draw=True):
    for i in range(n):
        event_services.entry_create(event, last_name=f"Игрок{i:02d}", first_name="Иван")
    if draw:
        event_services.draw_make(event, seed="fixed")
    return {e.number: e for e in event.entries.all()}


def option_for(n, **match):
    for option in planner.plan(n).as_dict()["options"]:
        if all(all(r.get(k) == v for k, v in match.items()) for r in option["rooms"]):
            return option
    raise AssertionError(f"no option for {n} with {match}")


@pytest.fixture
def players():
    return add_players


@pytest.fixture
def seated(event):
    """An event of 20 numbered players seated in one prime room of 5 tables of 4."""
    by_number = add_players(event, 20)
    session = session_create(event, option_for(20, kind="prime", tables=5, seats=4))
    return session, by_number
