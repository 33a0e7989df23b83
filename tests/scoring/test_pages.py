"""The director's scoring pages and the public results: three actors, the scorer form's check
step, errors next to their fields with the input kept, CSV files."""

import re

import pytest
from django.urls import reverse

from events.models import Event
from scoring.models import Adjustment, ScoreSheet
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, play_out, sheet, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(session15):
    return play_of(session15, 1, 1)


def form_data(**fields):
    """The scorer form's POST for N «три» ♦, E whist 3, S pass (overridable)."""
    data = {
        "declarer": "N",
        "contract": "three",
        "trump": "diamonds",
        "defence_E": "whist",
        "defence_S": "pass",
        "tricks_N": "7",
        "tricks_E": "3",
        "expected_version": "0",
    }
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def scorer_url(play, number=1):
    event = play.round.room.session.event
    return reverse("director:sheet_form", args=[event.pk, play.pk, number])


# --- who may see the director's pages -------------------------------------------------------


@pytest.mark.parametrize(
    "name,args",
    [
        ("director:overview", lambda e, p: [e.pk]),
        ("director:play", lambda e, p: [e.pk, p.pk]),
        ("director:sheet_form", lambda e, p: [e.pk, p.pk, 1]),
        ("director:adjustments", lambda e, p: [e.pk]),
    ],
)
def test_director_pages_for_three_actors(client, director, other_director, play, name, args):
    event = play.round.room.session.event
    url = reverse(name, args=args(event, play))
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and reverse("director:login") in anonymous["Location"]
    client.force_login(other_director)
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_the_overview_lists_the_tables_of_a_round_with_their_sheets(
    director_client, play, director
):
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    event = play.round.room.session.event
    body = director_client.get(
        reverse("director:overview", args=[event.pk]) + f"?round={play.round_id}"
    ).content.decode()
    assert 'id="plays"' in body and "1/3" in body
    assert reverse("director:play", args=[event.pk, play.pk]) in body


def test_writes_by_another_director_or_anonymous_are_refused(client, other_director, play):
    event = play.round.room.session.event
    posts = [
        scorer_url(play),
        reverse("director:publish", args=[event.pk]),
        reverse("director:adjustment_add", args=[event.pk, play.pk]),
    ]
    for url in posts:
        anonymous = client.post(url, form_data(save="1"))
        assert anonymous.status_code == 302
    client.force_login(other_director)
    for url in posts:
        assert client.post(url, form_data(save="1") | {"public": "1"}).status_code == 404
    assert not ScoreSheet.objects.exists()
    assert not Event.objects.get(pk=event.pk).results_public


# --- the scorer form ------------------------------------------------------------------------


def test_the_scorer_form_shows_the_deals_seats(director_client, play):
    body = director_client.get(scorer_url(play)).content.decode()
    assert 'name="defence_E"' in body and 'name="tricks_S"' in body
    assert 'name="defence_W"' not in body  # a 3-player table: W is empty
    assert entry_at(play, "N").full_name in body
    assert 'name="save"' not in body  # nothing to save before the check


def test_the_check_step_shows_the_settlement_and_saves_nothing(director_client, play):
    response = director_client.post(scorer_url(play), form_data(check="1"))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="settlement"' in body and 'name="save"' in body
    assert ">70<" in body.replace(" ", "") or ">70 <" in body
    assert not ScoreSheet.objects.exists()
    digest = services.data_digest(THREE_DIAMONDS)
    assert f'value="{digest}"' in body


def test_saving_records_what_the_check_showed(director_client, play):
    digest = services.data_digest(THREE_DIAMONDS)
    response = director_client.post(scorer_url(play), form_data(save="1", checked=digest))
    assert response.status_code == 302
    sheet_row = ScoreSheet.objects.get()
    assert sheet_row.current.result["scores"] == {"N": 70, "E": 30, "S": 0}
    assert sheet_row.current.entered_by_user.username == "judge"


def test_saving_without_a_check_of_the_same_input_only_checks(director_client, play):
    stale = services.data_digest(sheet(tricks={"N": 8, "E": 2}))
    response = director_client.post(scorer_url(play), form_data(save="1", checked=stale))
    assert response.status_code == 200
    assert 'id="settlement"' in response.content.decode()
    assert not ScoreSheet.objects.exists()
    response = director_client.post(scorer_url(play), form_data(save="1"))
    assert response.status_code == 200 and not ScoreSheet.objects.exists()


def _block(body: str, wrapper: str) -> str:
    """The HTML of one field's wrapper (a group: its whole fieldset)."""
    start_at = body.index(f'id="{wrapper}"')
    if wrapper.startswith("group-"):
        return body[start_at : body.index("</fieldset>", start_at)]
    ends = [body.find(mark, start_at + 1) for mark in (' id="f-', ' id="group-', "</fieldset>")]
    ends = [i for i in ends if i > 0]
    return body[start_at : min(ends)] if ends else body[start_at:]


@pytest.mark.parametrize(
    "fields,wrapper,message",
    [
        ({"trump": "clubs"}, "f-trump", "при «три» козырь — бубны или червы"),
        ({"tricks_E": "2"}, "group-tricks", "взятки должны в сумме давать 10, а дают 9"),
        ({"defence_E": "invited"}, "f-defence_E", "пригласить может только вистующий"),
        ({"defence_S": ""}, "group-defenders", "защитников должно быть двое, а указано 1"),
        ({"contract": "passed"}, "group-declarer", "в распасованной сдаче нет разыгрывающего"),
        ({"auction": "E one, N pass"}, "f-auction", "торговлю начинает первая рука — N"),
        ({"tricks_S": "1"}, "f-tricks_S", "пасующий без приглашения не играет"),
    ],
)
def test_each_bad_input_is_shown_on_its_field_with_the_input_kept(
    director_client, play, fields, wrapper, message
):
    response = director_client.post(scorer_url(play), form_data(check="1", **fields))
    body = response.content.decode()
    assert response.status_code == 400  # refused, as the table phone's form answers
    assert message in _block(body, wrapper)
    assert 'id="settlement"' not in body and 'name="save"' not in body
    posted = form_data(**fields)
    assert f'<option value="{posted["contract"]}" selected>' in body
    assert f'name="tricks_N" value="{posted["tricks_N"]}"' in body
    assert re.search(r'type="radio" name="declarer" value="N"[^>]*checked', body)
    assert not ScoreSheet.objects.exists()


def test_a_trick_count_out_of_range_is_refused_by_the_form(director_client, play):
    body = director_client.post(scorer_url(play), form_data(check="1", tricks_N="11")).content
    assert 'class="error"' in _block(body.decode(), "f-tricks_N")
    assert not ScoreSheet.objects.exists()


def test_errors_speak_english_to_an_english_director(director_client, play):
    director_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    body = director_client.post(scorer_url(play), form_data(check="1", trump="clubs")).content
    assert "after «three» the trump must be diamonds or hearts" in body.decode()


def test_a_correction_starts_from_the_current_sheet_and_refuses_stale_edits(
    director_client, play, director
):
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    body = director_client.get(scorer_url(play)).content.decode()
    assert 'name="expected_version" value="1"' in body
    assert 'name="tricks_N" value="7"' in body
    # Someone else corrects meanwhile; the form still says version 1.
    services.sheet_record(play, deal_of(play, 1), sheet(tricks={"N": 8, "E": 2}), by_user=director)
    new = sheet(tricks={"N": 6, "E": 4})
    data = form_data(tricks_N="6", tricks_E="4", expected_version="1", save="1")
    data["checked"] = services.data_digest(new)
    response = director_client.post(scorer_url(play), data)
    assert response.status_code == 400  # refused: the form again, with why
    body = response.content.decode()
    assert 'class="errors"' in body and 'id="settlement"' not in body
    assert ScoreSheet.objects.get().current.number == 2


def test_the_history_shows_every_version_and_accepts_a_proposal(director_client, play, director):
    start(play.round)
    deal = deal_of(play, 1)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "E"))
    proposal = services.sheet_record(
        play, deal, sheet(tricks={"N": 6, "E": 4}), by_entry=entry_at(play, "N")
    )
    event = play.round.room.session.event
    url = reverse("director:sheet", args=[event.pk, proposal.sheet.pk])
    body = director_client.get(url).content.decode()
    assert body.count('class="current"') == 1 and body.count('class="proposed"') == 1
    assert entry_at(play, "N").full_name in body
    restore = reverse("director:sheet_restore", args=[event.pk, proposal.sheet.pk])
    assert director_client.post(restore, {"version": "2"}).status_code == 302
    row = ScoreSheet.objects.get()
    assert row.status == "confirmed" and row.current.number == 3


def test_the_director_confirms_a_sheet(director_client, play):
    start(play.round)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "E")
    )
    event = play.round.room.session.event
    url = reverse("director:sheet_confirm", args=[event.pk, done.sheet.pk])
    assert director_client.post(url).status_code == 302
    assert ScoreSheet.objects.get().status == "confirmed"


# --- adjustments ----------------------------------------------------------------------------


def test_an_adjustment_is_added_and_deleted_from_the_table_page(director_client, play):
    event = play.round.room.session.event
    url = reverse("director:adjustment_add", args=[event.pk, play.pk])
    north = entry_at(play, "N")
    bad = director_client.post(
        url, {"kind": "artificial", "entry": north.pk, "deal": "", "score": "A+", "reason": "x"}
    )
    assert bad.status_code == 400
    english = director_client.post(
        url,
        {"kind": "artificial", "entry": north.pk, "deal": "", "score": "A+", "reason": "x"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "An artificial score is given on a deal." in english.content.decode()
    assert not Adjustment.objects.exists()
    good = director_client.post(
        url, {"kind": "artificial", "entry": north.pk, "deal": "1", "score": "A+", "reason": "x"}
    )
    assert good.status_code == 302
    made = Adjustment.objects.get()
    assert made.score == "A+" and made.deal.number == 1
    listing = director_client.get(reverse("director:adjustments", args=[event.pk])).content
    assert north.full_name in listing.decode()
    delete = reverse("director:adjustment_delete", args=[event.pk, made.pk])
    assert director_client.post(delete).status_code == 302
    assert not Adjustment.objects.exists()


def test_another_director_cannot_delete_an_adjustment(client, director, other_director, play):
    made = services.adjustment_create(
        play, entry=entry_at(play, "N"), kind="penalty", penalty=1, by_user=director, reason="x"
    )
    event = play.round.room.session.event
    client.force_login(other_director)
    url = reverse("director:adjustment_delete", args=[event.pk, made.pk])
    assert client.post(url).status_code == 404
    assert Adjustment.objects.exists()


# --- publishing and the public pages --------------------------------------------------------


@pytest.fixture
def scored(play, director):
    for number in (1, 2, 3):
        data = THREE_DIAMONDS if number != 3 else sheet(declarer="S", defence=None)
        services.sheet_record(play, deal_of(play, number), data, by_user=director)
    return play


def _public_urls(play):
    event = play.round.room.session.event
    deal = deal_of(play, 1)
    entry = entry_at(play, "N")
    slug = event.slug
    return [
        reverse("public:event", args=[slug]),
        reverse("public:session", args=[slug, 1]),
        reverse("public:traveller", args=[slug, deal.pk]),
        reverse("public:card", args=[slug, entry.number]),
        reverse("public:event_csv", args=[slug]),
        reverse("public:session_csv", args=[slug, 1]),
        reverse("public:session_travellers_csv", args=[slug, 1]),
        reverse("public:traveller_csv", args=[slug, deal.pk]),
        reverse("public:card_csv", args=[slug, entry.number]),
    ]


def test_public_results_are_hidden_until_published(client, other_director, scored):
    for url in _public_urls(scored):
        response = client.get(url)
        assert response.status_code == 403, url
        assert 'id="results-hidden"' in response.content.decode()
    client.force_login(other_director)
    assert client.get(_public_urls(scored)[0]).status_code == 403


def test_the_director_previews_unpublished_results(director_client, scored):
    body = director_client.get(_public_urls(scored)[0]).content.decode()
    assert 'class="preview-banner"' in body


def test_publishing_opens_the_results_to_everyone(client, director, scored):
    event = scored.round.room.session.event
    client.force_login(director)
    assert (
        client.post(reverse("director:publish", args=[event.pk]), {"public": "1"}).status_code
        == 302
    )
    client.logout()
    urls = _public_urls(scored)
    # Mid-session: the standings, the card and the files are public at once, but the
    # traveller of a deal the other tables have still to play is not (scoring.standings.disclosure).
    for url in urls:
        response = client.get(url)
        assert response.status_code == (403 if url in (urls[2], urls[7]) else 200), url
    assert 'id="deal-in-play"' in client.get(urls[2]).content.decode()
    play_out(scored.round.room.session)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
    body = client.get(_public_urls(scored)[0]).content.decode()
    assert 'class="preview-banner"' not in body and 'id="standings"' in body
    client.force_login(director)
    client.post(reverse("director:publish", args=[event.pk]), {"public": "0"})
    client.logout()
    assert client.get(_public_urls(scored)[0]).status_code == 403


def test_an_unknown_event_is_not_found(client):
    assert client.get(reverse("public:event", args=["nosuch"])).status_code == 404


def test_public_pages_show_standings_traveller_and_card(client, scored):
    play_out(scored.round.room.session)
    Event.objects.filter(pk=scored.round.room.session.event_id).update(results_public=True)
    urls = _public_urls(scored)
    north = entry_at(scored, "N")
    standings_page = client.get(urls[1]).content.decode()
    assert north.full_name in standings_page and "1\u201315" not in standings_page
    traveller = client.get(urls[2]).content.decode()
    assert 'id="traveller"' in traveller and "N: три ♦" in traveller and "50.00" in traveller
    card = client.get(urls[3]).content.decode()
    assert 'id="card"' in card and "N: три ♦" in card


def test_csv_files_are_utf8_with_a_bom(client, scored):
    play_out(scored.round.room.session)
    Event.objects.filter(pk=scored.round.room.session.event_id).update(results_public=True)
    urls = _public_urls(scored)
    for url in urls[4:]:
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        assert "attachment" in response["Content-Disposition"]
        assert response.content.startswith("\ufeff".encode())
    standing = client.get(urls[5]).content.decode("utf-8-sig").splitlines()
    assert len(standing) == 1 + 15
    assert entry_at(scored, "N").full_name in "\n".join(standing)
    card = client.get(urls[8]).content.decode("utf-8-sig")
    assert "N: три ♦" in card
    traveller = client.get(urls[7]).content.decode("utf-8-sig").splitlines()
    assert len(traveller) == 1 + 5  # the set is played by five tables
    # Tables are numbered anew in every room: each row names its room and its players' numbers.
    head = traveller[0].split(";")
    assert head[:3] == ["Тур", "Комната", "Стол"]
    north = entry_at(scored, "N")
    row = next(line.split(";") for line in traveller[1:] if north.full_name in line)
    assert row[1] == str(scored.table.room) and row[2] == str(scored.table.number)
    assert row[head.index("N")] == f"{north.number} {north.full_name}"
