"""Fixtures of the scoring tests: sessions of 20 and 9 players, a table-round on the clock
(the builders themselves are in tests/factories.py)."""

import pytest

from tests.factories import play_of, seat_players


@pytest.fixture
def session20(event):
    """20 players, one prime room of 5 tables × 4 seats: the dealer sits each deal out."""
    return seat_players(event, 20, seats=4)


@pytest.fixture
def session9(event):
    """9 players in the special scheme: 2 tables of 4 and a pause each round."""
    return seat_players(event, 9, kind="scheme", seats=4)


@pytest.fixture
def running(session15):
    """Table 1 of round 1 of the 15-player session, its round on the clock."""
    from events import rounds
    from events.models import Round

    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    return play_of(session15, 1, 1)
