"""sheet_record, sheet_confirm, sheet_restore: who may write, what is kept, what is refused."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from events.models import Event
from scoring.models import Proof, ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.sheets import services
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    finish,
    play_of,
    sheet,
    start,
)

pytestmark = pytest.mark.django_db


def _errors(excinfo) -> dict:
    return {k: " ".join(v) for k, v in excinfo.value.message_dict.items()}


@pytest.fixture
def play(session15):
    return play_of(session15, 1, 1)


@pytest.fixture
def deal(play):
    return deal_of(play, 1)


def test_the_director_records_a_sheet_settled_by_the_events_rules(play, deal, director):
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    assert done.outcome == "created"
    sheet_row = ScoreSheet.objects.get(play=play, deal=deal)
    assert sheet_row.status == "confirmed"
    assert sheet_row.current.number == 1
    assert sheet_row.current.result["scores"] == {"N": 70, "E": 30, "S": 0}
    assert sheet_row.current.result["stake"] == 100
    assert sheet_row.current.data == THREE_DIAMONDS
    assert sheet_row.current.entered_by_user == director


def test_the_stake_and_suit_order_come_from_the_event(play, deal, director):
    Event.objects.filter(pk=play.round.room.session.event_id).update(
        stake=200, suit_order="clubs-spades-diamonds-hearts"
    )
    play = TablePlay.objects.get(pk=play.pk)
    # «два» in spades is legal only when spades rank second (the Austrian order).
    done = services.sheet_record(
        play, deal, sheet(contract="two", trump="spades"), by_user=director
    )
    assert done.version.result["scores"] == {"N": 140, "E": 60, "S": 0}


def test_a_player_at_the_table_records_while_the_round_runs(play, deal):
    start(play.round)
    player = entry_at(play, "E")
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=player)
    assert done.outcome == "created"
    assert done.sheet.status == "entered"
    assert done.version.entered_by_entry == player


def test_the_same_result_sent_twice_records_once(play, deal):
    start(play.round)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    # Spelled differently (Russian words, the passer's 0 given): still the same result.
    again = {
        "declarer": "n",
        "contract": "три",
        "trump": "бубны",
        "defenders": {"E": "вист", "S": "пас"},
        "tricks": {"N": 7, "E": 3, "S": 0},
    }
    done = services.sheet_record(play, deal, again, by_entry=entry_at(play, "S"))
    assert done.outcome == "unchanged"
    assert ScoreSheetVersion.objects.filter(sheet__play=play).count() == 1
    assert done.sheet.status == "entered"


def test_a_different_result_from_a_player_disputes_instead_of_overwriting(play, deal):
    start(play.round)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    other = sheet(tricks={"N": 6, "E": 4})
    done = services.sheet_record(play, deal, other, by_entry=entry_at(play, "N"))
    assert done.outcome == "disputed"
    row = ScoreSheet.objects.get(pk=done.sheet.pk)
    assert row.status == "disputed"
    assert row.current.number == 1 and row.current.result["scores"]["N"] == 70
    assert list(row.versions.values_list("number", flat=True)) == [1, 2]
    assert row.versions.get(number=2).result["scores"]["N"] == 60
    # The same proposal again adds nothing.
    again = services.sheet_record(play, deal, other, by_entry=entry_at(play, "N"))
    assert again.outcome == "unchanged"
    assert row.versions.count() == 2


def test_a_finished_round_refuses_players_once_the_next_starts_but_not_the_director(
    session15, play, deal, director
):
    finish(play.round)
    start(play_of(session15, 2, 1).round)  # after the bell the table writes until then
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    assert "round" in excinfo.value.message_dict
    assert not ScoreSheet.objects.exists()
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    assert done.outcome == "created"
    corrected = services.sheet_record(play, deal, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    assert corrected.outcome == "corrected"


def test_a_round_not_started_refuses_players(play, deal):
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    assert "round" in excinfo.value.message_dict


def test_a_deal_outside_the_tables_set_is_refused(session15, play, director):
    elsewhere = deal_of(play_of(session15, 1, 2), 1)
    assert elsewhere.board_set_id != play.board_set_id
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, elsewhere, THREE_DIAMONDS, by_user=director)
    assert "deal" in excinfo.value.message_dict
    assert not ScoreSheet.objects.exists()


def test_a_player_who_does_not_sit_at_the_table_is_refused(session15, play, deal):
    start(play.round)
    stranger = entry_at(play_of(session15, 1, 2), "N")
    with pytest.raises(PermissionDenied):
        services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=stranger)
    assert not ScoreSheet.objects.exists()


def test_a_player_of_another_event_is_refused(play, deal, other_event):
    from events.services import entry_create

    start(play.round)
    outsider = entry_create(other_event, last_name="Чужой", first_name="Игрок")
    with pytest.raises(PermissionDenied):
        services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=outsider)


def test_another_director_is_refused(play, deal, other_director):
    with pytest.raises(PermissionDenied):
        services.sheet_record(play, deal, THREE_DIAMONDS, by_user=other_director)
    assert not ScoreSheet.objects.exists()


def test_a_player_of_another_seat_confirms(play, deal):
    start(play.round)
    done = services.sheet_record(
        play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"), device="phone-1"
    )
    # Entered without a PIN: confirmed from another phone only.
    with pytest.raises(PermissionDenied):
        services.sheet_confirm(
            done.sheet, by_entry=entry_at(play, "S"), proof=Proof.PIN, device="phone-1"
        )
    confirmed = services.sheet_confirm(
        done.sheet, by_entry=entry_at(play, "S"), proof=Proof.PIN, device="phone-2"
    )
    assert confirmed.status == "confirmed"


def test_the_player_who_entered_a_sheet_cannot_confirm_it(play, deal):
    start(play.round)
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    with pytest.raises(PermissionDenied):
        services.sheet_confirm(done.sheet, by_entry=entry_at(play, "E"), proof=Proof.PIN)
    assert ScoreSheet.objects.get(pk=done.sheet.pk).status == "entered"


def test_a_player_cannot_confirm_a_disputed_sheet_the_director_can(play, deal, director):
    start(play.round)
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    services.sheet_record(play, deal, sheet(tricks={"N": 6, "E": 4}), by_entry=entry_at(play, "N"))
    with pytest.raises(ValidationError):
        services.sheet_confirm(done.sheet, by_entry=entry_at(play, "S"), proof=Proof.PIN)
    assert services.sheet_confirm(done.sheet, by_user=director).status == "confirmed"


def test_a_player_from_another_table_cannot_confirm(session15, play, deal):
    start(play.round)
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    with pytest.raises(PermissionDenied):
        services.sheet_confirm(
            done.sheet, by_entry=entry_at(play_of(session15, 1, 2), "S"), proof=Proof.PIN
        )


def test_director_corrections_keep_every_version(play, deal, director):
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    services.sheet_record(
        play, deal, sheet(tricks={"N": 5, "E": 5}), by_user=director, note="по протоколу"
    )
    row = ScoreSheet.objects.get(play=play, deal=deal)
    assert row.current.number == 2 and row.current.note == "по протоколу"
    assert row.current.result["scores"] == {"N": -50, "E": 50, "S": 0}
    assert row.current.result["failed"] == ["N"]
    assert row.versions.get(number=1).result["scores"]["N"] == 70


def test_the_director_resending_the_same_result_adds_no_version(play, deal, director):
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    assert done.outcome == "unchanged"
    assert ScoreSheetVersion.objects.count() == 1


def test_a_stale_edit_is_refused(play, deal, director):
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director, expected_version=0)
    services.sheet_record(play, deal, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(
            play, deal, sheet(tricks={"N": 6, "E": 4}), by_user=director, expected_version=1
        )
    assert "expected_version" in excinfo.value.message_dict
    assert ScoreSheet.objects.get(play=play, deal=deal).current.number == 2
    done = services.sheet_record(
        play, deal, sheet(tricks={"N": 6, "E": 4}), by_user=director, expected_version=2
    )
    assert done.version.number == 3


def test_a_new_sheet_expected_at_a_version_that_never_was_is_refused(play, deal, director):
    with pytest.raises(ValidationError):
        services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director, expected_version=2)
    assert not ScoreSheet.objects.exists()


def test_the_director_accepts_a_players_proposal(play, deal, director):
    start(play.round)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    proposal = services.sheet_record(
        play, deal, sheet(tricks={"N": 6, "E": 4}), by_entry=entry_at(play, "N")
    )
    done = services.sheet_restore(proposal.sheet, 2, by_user=director)
    row = ScoreSheet.objects.get(pk=proposal.sheet.pk)
    assert done.outcome == "corrected"
    assert row.status == "confirmed" and row.current.number == 3
    assert row.current.result["scores"]["N"] == 60


# --- the rules, in the user's language ------------------------------------------------------


def test_a_trump_below_the_level_names_the_rule(play, deal, director):
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, sheet(trump="clubs"), by_user=director)
    assert _errors(excinfo) == {"trump": "при «три» козырь — бубны или червы"}
    assert not ScoreSheet.objects.exists()


def test_tricks_that_do_not_add_up_to_ten_are_refused(play, deal, director):
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, sheet(tricks={"N": 7, "E": 2}), by_user=director)
    assert _errors(excinfo) == {"tricks": "взятки должны в сумме давать 10, а дают 9"}


def test_an_invited_defender_needs_a_whisting_partner(play, deal, director):
    data = sheet(defence={"E": "invited", "S": "pass"}, tricks={"N": 7, "E": 3})
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, data, by_user=director)
    assert "пригласить может только вистующий" in _errors(excinfo)["defenders.E"]


def test_the_rules_speak_english_to_an_english_user(play, deal, director, en):
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, sheet(trump="clubs"), by_user=director)
    assert _errors(excinfo) == {"trump": "after «three» the trump must be diamonds or hearts"}


def test_a_seat_that_does_not_play_the_deal_is_named_on_the_declarer(play, deal, director):
    data = sheet(defence={"E": "whist", "S": "pass"}) | {
        "declarer": "W",
        "tricks": {"W": 7, "E": 3},
    }
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal, data, by_user=director)
    assert "declarer" in excinfo.value.message_dict
    assert _errors(excinfo)["declarer"] == "в этой сдаче комплекта играют N, E или S"


def test_the_scorer_may_not_type_the_layout(play, deal, director):
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(
            play, deal, THREE_DIAMONDS | {"first_hand": "E", "rules": {}}, by_user=director
        )
    assert set(excinfo.value.message_dict) == {"first_hand", "rules"}


def test_a_passed_out_deal_takes_its_seats_from_the_deal(play, deal, director):
    done = services.sheet_record(play, deal, {"contract": "passed"}, by_user=director)
    assert done.version.result["scores"] == {"N": 0, "E": 0, "S": 0}


def test_an_auction_is_checked_against_the_deals_first_hand(play, director):
    deal2 = deal_of(play, 2)  # first hand E
    data = sheet(declarer="E", defence={"S": "whist", "N": "pass"}, tricks={"E": 7, "S": 3})
    wrong = data | {"auction": ["N three", "E pass"]}
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal2, wrong, by_user=director)
    assert "auction.0" in excinfo.value.message_dict
    right = data | {
        "auction": ["E one", "S pass", "N two", "E hold", "N three", "E pass"],
        "declarer": "N",
        "defenders": {"E": "whist", "S": "pass"},
        "tricks": {"N": 7, "E": 3},
    }
    assert services.sheet_record(play, deal2, right, by_user=director).outcome == "created"


def test_a_running_pot_carries_over_the_set(session15, director):
    Event.objects.filter(pk=session15.event_id).update(pot_rule="running", stake=100)
    play = play_of(session15, 1, 1)
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_user=director)
    assert "deal" in excinfo.value.message_dict
    # Deal 1: pot 10 → A 10; N fails with 5 tricks: pays 10, pot 10 − 10 + 10 = 10.
    first = services.sheet_record(
        play, deal_of(play, 1), sheet(tricks={"N": 5, "E": 5}), by_user=director
    )
    assert first.version.result["stake"] == 10 and first.version.result["pot_after"] == 10
    second = services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_user=director)
    assert second.version.result["stake"] == 20  # 10 carried + the next ante
    # A correction of deal 1 settles deal 2 again.
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    again = ScoreSheet.objects.get(play=play, deal=deal_of(play, 2)).current
    assert again.number == 1 and again.result["stake"] == 10


def test_the_trump_pot_stakes_by_the_trump(play, deal, director):
    Event.objects.filter(pk=play.round.room.session.event_id).update(pot_rule="trump")
    play = TablePlay.objects.get(pk=play.pk)
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    assert done.version.result["stake"] == 40


def test_the_round_end_marks_tables_without_every_sheet(session15, director):
    from scoring.models import TablePlay

    play = play_of(session15, 1, 1)
    for number in (1, 2, 3):
        data = THREE_DIAMONDS if number != 2 else sheet(declarer="E")
        services.sheet_record(play, deal_of(play, number), data, by_user=director)
    finish(play.round)
    late = set(
        TablePlay.objects.filter(round=play.round, late=True).values_list(
            "table__number", flat=True
        )
    )
    assert late == {2, 3, 4, 5}
