"""Issue 36: the public pages drawn once per change and shared (``scoring.standings.public_cache``).

A second anonymous request of any public page reads nothing from the database (at 25 and
at 100 tables alike) and a tab that has it gets a 304; the copy changes as soon as a sheet
is counted, an adjustment made, a deal played out or publishing withdrawn; an anonymous
answer sets no cookie and varies on no cookie; the director's answers are never the shared
copy."""

import gzip

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from bench.bench_disclosure import build
from events import clockdoc
from events.services import event_set_results_public
from scoring.models import Adjustment, ScoreSheet
from scoring.sheets import services

pytestmark = pytest.mark.django_db


class Counted:
    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _get(client, url, **headers):
    found = Counted()
    with connection.execute_wrapper(found):
        answer = client.get(url, **headers)
    return answer, found.count


def _urls(event, deal_pk, number=1):
    slug = event.slug
    return [
        f"/e/{slug}/results/",
        f"/e/{slug}/results/standings.csv",
        f"/e/{slug}/results/standings.xlsx",
        f"/e/{slug}/results/sessions/1/",
        f"/e/{slug}/results/sessions/1/standings.csv",
        f"/e/{slug}/results/sessions/1/travellers.csv",
        f"/e/{slug}/results/sessions/1/hands/",
        f"/e/{slug}/results/sessions/1/hands.txt",
        f"/e/{slug}/results/deals/{deal_pk}/",
        f"/e/{slug}/results/deals/{deal_pk}.csv",
        f"/e/{slug}/results/cards/{number}/",
        f"/e/{slug}/results/version.json",
        f"/en/e/{slug}/results/sessions/1/",
    ]


@pytest.fixture
def field(request, director):
    """A published event mid-session, T tables × 4 (bench/bench_disclosure.py)."""
    event, session, play, entry = build(request.param, f"t{request.param}")
    return event, session, play, entry


@pytest.mark.parametrize("field", [25, 100], indirect=True)
def test_a_second_request_reads_nothing_and_a_tab_that_has_it_gets_a_304(field):
    event, session, play, entry = field
    deal = play.board_set.deals.order_by("number").first()
    reader = Client()
    for url in _urls(event, deal.pk, entry.number):
        first, _queries = _get(reader, url)
        assert first.status_code in (200, 403), url
        again, queries = _get(reader, url)
        assert queries == 0, (url, queries)
        assert again.content == first.content, url
        assert again["ETag"] == first["ETag"] and again["ETag"].startswith('"'), url
        assert "public" in again["Cache-Control"] and "max-age" in again["Cache-Control"], url
        tab, queries = _get(reader, url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert tab.status_code == 304 and queries == 0, url
        assert tab["ETag"] == first["ETag"] and not tab.content, url


@pytest.mark.parametrize("field", [25], indirect=True)
def test_an_anonymous_answer_sets_no_cookie_and_comes_gzipped(field):
    event, session, play, entry = field
    reader = Client()
    for url in _urls(event, 0)[:4] + [f"/e/{event.slug}/results/sessions/1/"]:
        answer = reader.get(url)
        assert not answer.cookies, (url, answer.cookies)
        assert "Cookie" not in answer.get("Vary", ""), url
        assert "csrftoken" not in answer.content.decode(errors="ignore"), url
    page = reader.get(f"/e/{event.slug}/results/sessions/1/", HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip" and "Accept-Encoding" in page["Vary"]
    assert "Игроков" in gzip.decompress(page.content).decode() or b"<table" in gzip.decompress(
        page.content
    )
    # The language is in the address: the English copy is another address, never a cookie.
    english = reader.get(f"/en/e/{event.slug}/results/sessions/1/")
    assert 'lang="en"' in english.content.decode() and not english.cookies
    assert f'href="/e/{event.slug}/results/sessions/1/?lang=ru"' in english.content.decode()
    # Without a language in the address, the browser's: the answer says it varies by it.
    by_browser = reader.get(f"/e/{event.slug}/results/sessions/1/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'lang="en"' in by_browser.content.decode()
    assert "Accept-Language" in by_browser["Vary"] and "Cookie" not in by_browser["Vary"]
    ru = reader.get(f"/e/{event.slug}/results/sessions/1/?lang=ru", HTTP_ACCEPT_LANGUAGE="en")
    assert 'lang="ru"' in ru.content.decode()


def _standing(reader, event) -> str:
    return reader.get(f"/e/{event.slug}/results/sessions/1/").content.decode()


@pytest.mark.parametrize("field", [25], indirect=True)
def test_the_copy_changes_as_soon_as_a_result_changes(field):
    event, session, play, entry = field
    director = event.owner
    reader = Client()
    before = _standing(reader, event)
    etag = reader.get(f"/e/{event.slug}/results/sessions/1/")["ETag"]
    # A sheet of a deal played out corrected by the director: counted at once.
    played = ScoreSheet.objects.filter(play__round__number=1).select_related("play", "deal")
    sheet = played.first()
    result = {"contract": "passed"}
    services.sheet_record(sheet.play, sheet.deal, result, by_user=director)
    after = _standing(reader, event)
    assert after != before
    again = reader.get(f"/e/{event.slug}/results/sessions/1/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200  # the tab's copy is stale: the new one, not a 304
    # An adjustment: at once.
    from events.models import Seat

    seat_entry = Seat.objects.filter(round=sheet.play.round, table=sheet.play.table)[0].entry
    services.adjustment_create(
        sheet.play,
        entry=seat_entry,
        kind=Adjustment.Kind.PENALTY,
        penalty="5",
        reason="опоздание",
        by_user=director,
    )
    assert _standing(reader, event) != after
    # Publishing withdrawn: the next reader is refused at once.
    event_set_results_public(event, False)
    hidden = reader.get(f"/e/{event.slug}/results/sessions/1/")
    assert hidden.status_code == 403
    event_set_results_public(event, True)
    assert reader.get(f"/e/{event.slug}/results/sessions/1/").status_code == 200


@pytest.mark.parametrize("field", [25], indirect=True)
def test_a_deal_played_out_shows_at_once_and_never_before(field):
    """The running round's sets are held by later rounds too: closing them all plays the
    second half's deals out, and the public copy shows their travellers at once."""
    from events.models import Round
    from scoring.models import TablePlay

    event, session, play, entry = field
    deal = play.board_set.deals.order_by("number").first()
    reader = Client()
    url = f"/e/{event.slug}/results/deals/{deal.pk}/"
    assert reader.get(url).status_code == 403
    assert reader.get(url).status_code == 403  # the shared copy: still in play
    Round.objects.filter(room__session=session).update(state=Round.State.FINISHED)
    TablePlay.objects.filter(round__room__session=session).update(
        players_access=TablePlay.Access.CLOSED
    )
    clockdoc.room_changed(session.rooms.get().pk, clock=False)
    assert reader.get(url).status_code == 200


@pytest.mark.parametrize("field", [25], indirect=True)
def test_the_directors_answers_are_never_the_shared_copy(field, client):
    event, session, play, entry = field
    deal = play.board_set.deals.order_by("number").first()
    client.force_login(event.owner)
    url = f"/e/{event.slug}/results/deals/{deal.pk}/"
    assert Client().get(url).status_code == 403  # the public copy, kept
    own = client.get(f"{url}?view=director")
    assert own.status_code == 200 and "no-store" in own["Cache-Control"]
    public = client.get(url)
    assert public.status_code == 403 and "no-store" in public["Cache-Control"]
    assert "ETag" not in own
    # His view is never stored for the next anonymous reader either.
    assert Client().get(f"{url}?view=director").status_code == 403
    page = client.get(f"/e/{event.slug}/results/sessions/1/")
    assert 'class="director-switch"' in page.content.decode()
    assert (
        'class="director-switch"'
        not in Client().get(f"/e/{event.slug}/results/sessions/1/").content.decode()
    )
    assert reverse("public:version", args=[event.slug]).endswith("version.json")


@pytest.mark.parametrize("field", [25], indirect=True)
def test_a_sheet_of_a_deal_in_play_changes_no_public_page(field):
    """The public may not see it (docs/game.md §4.5): the version, the pages and the tabs
    that follow them stay — a hall of readers is not sent reloading at every sheet."""
    event, session, play, entry = field
    reader = Client()
    url = f"/e/{event.slug}/results/sessions/1/"
    version = reader.get(f"/e/{event.slug}/results/version.json").json()["version"]
    page = reader.get(url)
    pending = ScoreSheet.objects.filter(play__round=play.round).values_list("play_id", flat=True)
    open_play = type(play).objects.filter(round=play.round).exclude(pk__in=list(pending)).first()
    deal = open_play.board_set.deals.order_by("number").first()
    services.sheet_record(open_play, deal, {"contract": "passed"}, by_user=event.owner)
    assert reader.get(f"/e/{event.slug}/results/version.json").json()["version"] == version
    assert reader.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304


# --- the cheap answers before the middleware stack (config.public_early) ----------------------

EARLY = "config.public_early.PublicEarlyMiddleware"
REACHED: list[str] = []


class ReachedTheStack:
    """Last in the stack for these tests: notes each request that got past sessions, CSRF,
    authentication and the rest to the views."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        REACHED.append(request.path)
        return self.get_response(request)


SHOWN_HEADERS = (
    "Content-Type",
    "Content-Encoding",
    "Content-Language",
    "ETag",
    "Cache-Control",
    "Vary",
    "X-Frame-Options",
    "Content-Security-Policy",
)


def _shown(answer) -> tuple:
    return answer.status_code, answer.content, {h: answer.get(h) for h in SHOWN_HEADERS}


@pytest.mark.parametrize("field", [25], indirect=True)
def test_the_early_answers_are_the_stacks_and_never_reach_it(field, settings):
    event, session, play, entry = field
    deal = play.board_set.deals.order_by("number").first()
    stack = [m for m in settings.MIDDLEWARE if m != EARLY]
    headers = [
        {},
        {"HTTP_ACCEPT_ENCODING": "gzip"},
        {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"},
    ]
    for url in _urls(event, deal.pk, entry.number):
        for asked in headers:
            settings.MIDDLEWARE = [*stack, f"{__name__}.ReachedTheStack"]
            drawn = Client().get(url, **asked)  # the stack alone: drawn and kept
            settings.MIDDLEWARE = [*stack[:4], EARLY, *stack[4:], f"{__name__}.ReachedTheStack"]
            REACHED.clear()
            early = Client().get(url, **asked)
            if url.endswith("version.json"):
                # The same document in every language: it no longer says it varies by one.
                same = ("Content-Type", "ETag", "Cache-Control")
                assert early.content == drawn.content, url
                assert [early[h] for h in same] == [drawn[h] for h in same], url
            else:
                assert _shown(early) == _shown(drawn), (url, asked)
            assert REACHED == [], (url, asked)  # answered before sessions & co.
            tab = Client().get(url, HTTP_IF_NONE_MATCH=early["ETag"], **asked)
            assert tab.status_code == 304 and REACHED == [], (url, asked)
    # What the early path does not answer goes down the stack: the director, ?view=, a page
    # never drawn, an event that does not exist.
    REACHED.clear()
    assert Client().get(f"/e/{event.slug}/results/?view=director").status_code in (200, 302, 403)
    assert Client().get(f"/e/{event.slug}/results/sessions/1/?never=drawn").status_code == 200
    assert Client().get("/e/no-such-event/results/version.json").status_code == 404
    assert len(REACHED) == 3
    assert settings.MIDDLEWARE.index(EARLY) < settings.MIDDLEWARE.index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )


class OthersBuilding:
    """The shared cache as another process sees it while it builds: the right to build a
    digest or draw a page (``…:building`` / ``…:drawing``) is taken."""

    def __init__(self, real):
        self.real = real

    def __call__(self, key, *args, **kwargs):
        if key.endswith((":building", ":drawing")):
            return False
        return self.real(key, *args, **kwargs)


@pytest.mark.parametrize("field", [25], indirect=True)
def test_a_change_is_built_once_the_others_get_the_last_copy_meanwhile(field, monkeypatch):
    from django.core.cache import cache

    from scoring.standings import public_cache

    event, session, play, entry = field
    url = f"/e/{event.slug}/results/sessions/1/"
    version_url = f"/e/{event.slug}/results/version.json"
    reader = Client()
    before, version_before = reader.get(url), reader.get(version_url).json()["version"]
    sheet = ScoreSheet.objects.filter(play__round__number=1).select_related("play", "deal")[0]
    services.sheet_record(sheet.play, sheet.deal, {"contract": "passed"}, by_user=event.owner)
    clockdoc._memo.clear()
    public_cache._pages.clear()
    # While another reader builds the new digest and draws the new page, this one is given
    # the last ones: the page as it was, under its own ETag — nothing built twice.
    with monkeypatch.context() as patched:
        patched.setattr(cache, "add", OthersBuilding(cache.add))
        waiting, queries = _get(reader, url)
        assert reader.get(version_url).json()["version"] == version_before
    assert waiting.status_code == 200 and waiting.content == before.content
    assert waiting["ETag"] == before["ETag"] and queries == 0
    # The digest built (the version moved) while another reader draws the page at it: the
    # last copy of the page meanwhile.
    assert reader.get(version_url).json()["version"] != version_before
    with monkeypatch.context() as patched:
        patched.setattr(cache, "add", OthersBuilding(cache.add))
        waiting, queries = _get(reader, url)
    assert waiting.content == before.content and waiting["ETag"] == before["ETag"]
    # Drawn: the next reader gets the change.
    after = reader.get(url)
    assert after.content != before.content and after["ETag"] != before["ETag"]
    assert reader.get(version_url).json()["version"] != version_before
