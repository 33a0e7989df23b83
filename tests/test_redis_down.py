"""Issue 21: with Redis down entirely — the cache and the broker at one closed address, as in
any real deployment — the app works from the database: slower, never a 500.

A real web server (gunicorn, two processes sharing nothing but the database, as `make run`
and the compose file start it) with ``REDIS_URL`` where nothing listens, and no Celery
worker (none could reach the broker). Through it, as the pages post: the director logs in,
opens his event, rooms, room page and console, starts round 1; the phones read their clocks
and seats, the hall its clock; a table's round link enters a sheet and confirms it with
PINs (five wrong ones lock a PIN, counted in the database); the director ends the round;
round 2, started, ends by itself on the first clock read after its time; the director
publishes and the standings are public; /healthz names the cache, the broker and the worker
with a 200. Runs on both backends: the server is only given the test database's address."""

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from http.cookiejar import CookieJar

import pytest
from django.utils import timezone

from events.models import Round, Seat
from scoring.models import ScoreSheet
from tests.factories import THREE_DIAMONDS_FORM, play_of, seat_players
from tests.serving import gunicorn

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1
LOCKED = "Слишком много неверных ПИН-кодов"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One client with its cookies; every answer is checked to be no 500 (server error)."""

    def __init__(self, base: str):
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect
        )

    def _open(self, request) -> tuple[int, str, dict]:
        try:
            with self.opener.open(request, timeout=30) as answer:
                status, body, headers = answer.status, answer.read(), dict(answer.headers)
        except urllib.error.HTTPError as error:
            status, body, headers = error.code, error.read(), dict(error.headers)
        text = body.decode("utf-8", "replace")
        assert status < 500, f"{request.get_method()} {request.full_url}: {status}\n{text[:3000]}"
        return status, text, headers

    def get(self, path: str) -> tuple[int, str, dict]:
        return self._open(urllib.request.Request(self.base + path))

    def json(self, path: str) -> dict:
        status, text, _headers = self.get(path)
        assert status == 200, (path, status, text[:2000])
        return json.loads(text)

    def post(self, path: str, data: dict) -> tuple[int, str, dict]:
        csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf}).encode()
        url = self.base + path
        return self._open(urllib.request.Request(url, data=body, headers={"Referer": url}))


def _eventually(read, check, seconds: float = 5.0):
    """What ``read()`` answers once ``check`` holds of it: two server processes share only the
    database, and one process's polls share the tokens they read for half a second
    (``events.clockdoc.POLL_TOKENS_SECONDS``), so a change shows there that much later."""
    deadline = time.monotonic() + seconds
    while True:
        found = read()
        if check(found) or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10 ** len(pin):0{len(pin)}d}"


@pytest.fixture
def server(tmp_path):
    """gunicorn on the test database, with Redis (cache and broker) where nothing listens."""
    with gunicorn(
        tmp_path, REDIS_URL=DEAD_REDIS, WEB_WORKERS="2", VAR_DIR=str(tmp_path / "var")
    ) as running:
        yield running.base, running.log


def test_the_whole_day_runs_from_the_database_with_redis_down(server_director, event, server):
    base, log = server
    session = seat_players(event, 15)
    room = session.rooms.get(number=1)
    first, second = (Round.objects.get(room=room, number=n) for n in (1, 2))
    play = play_of(session, 1, 1)
    seats = {
        s.position: s.entry
        for s in Seat.objects.filter(round=play.round, table=play.table).select_related("entry")
    }
    events_url = f"/director/events/{event.pk}"
    room_url = f"{events_url}/rooms/{room.pk}/"

    # The director logs in (axes' count is in the database) and opens his pages.
    director_browser = Browser(base)
    assert director_browser.get("/director/login/")[0] == 200
    status, _text, headers = director_browser.post(
        "/director/login/", {"username": "judge", "password": "s3cret-pass-1"}
    )
    assert status == 302, _text[:2000]
    for path, shows in (
        ("/director/", event.name),
        (f"{events_url}/", event.name),
        (f"{events_url}/rooms/", str(room)),
        (room_url, f"/rounds/{first.pk}/start/"),  # the form that starts round 1
        (f"{events_url}/rooms/{room.pk}/console.html", "data-version"),
        (f"{events_url}/scores/", event.name),
    ):
        status, text, _headers = director_browser.get(path)
        assert status == 200 and shows in text, (path, status, text[:2000])

    # Round 1 starts, as the room page posts it: committed, and the page says no timer is set.
    # At once: not after Celery's 20 retries of its result backend, a second apart.
    began = time.monotonic()
    status, _text, headers = director_browser.post(f"{events_url}/rounds/{first.pk}/start/", {})
    took = time.monotonic() - began
    assert status == 302 and headers["Location"].endswith(room_url)
    assert took < 10, f"the start took {took:.1f} s"
    first.refresh_from_db()
    assert first.state == Round.State.RUNNING
    status, text, _headers = director_browser.get(room_url)
    assert status == 200 and "очередь задач не отвечает" in text

    # The phones: clock and seats; the hall's clock.
    north = seats["N"]
    phone = Browser(base)
    clock = _eventually(
        lambda: phone.json(f"/p/{north.key}/clock.json"),
        lambda doc: doc["rooms"] and doc["rooms"][0]["state"] == "running",
    )
    assert clock["rooms"][0]["round"] == 1 and clock["rooms"][0]["state"] == "running"
    assert clock["event"] == event.name
    status, text, _headers = phone.get(f"/p/{north.key}/places")
    assert status == 200 and "Сейчас — тур 1" in text, text[:2000]
    assert '<dt>Стол</dt><dd class="seat-big">1</dd>' in text
    assert '<dt>Позиция</dt><dd class="seat-big">N</dd>' in text
    status, text, _headers = phone.get(f"/p/{north.key}/")
    assert status == 200 and north.full_name in text
    hall = Browser(base)
    assert hall.get(f"/e/{event.slug}/clock")[0] == 200
    shown = hall.json(f"/e/{event.slug}/clock.json")
    assert [(r["round"], r["state"]) for r in shown["rooms"]] == [(1, "running")]

    # The table's round link: a sheet entered by N with his PIN (checked, then saved) …
    table = Browser(base)
    link = f"/t/{play.key}/"
    status, text, _headers = table.get(link)
    assert status == 200 and "Стол 1" in text and north.full_name in text
    deal_url = f"{link}deals/1/"
    assert table.get(deal_url)[0] == 200
    who = {"as": "N", "pin": north.pin}
    status, text, _headers = table.post(deal_url, {**THREE_DIAMONDS_FORM, **who, "check": "1"})
    assert status == 200, text[:3000]
    digest = re.search(r'name="checked" value="([^"]+)"', text).group(1)
    status, text, headers = table.post(
        deal_url, {**THREE_DIAMONDS_FORM, **who, "checked": digest, "save": "1"}
    )
    assert status == 302 and "saved=1" in headers["Location"], text[:3000]
    sheet = ScoreSheet.objects.get(play=play)
    assert sheet.status == "entered" and sheet.current.entered_by_entry_id == north.pk

    # … five wrong PINs of E lock his PIN (counted in the database, with no cache) …
    confirm_url = f"{link}sheets/{sheet.pk}/confirm/"
    east, south = seats["E"], seats["S"]
    for _ in range(5):
        status, _text, _headers = table.post(confirm_url, {"as": "E", "pin": _wrong(east.pin)})
        assert status == 400
    status, text, _headers = table.post(confirm_url, {"as": "E", "pin": east.pin})
    assert status == 400 and LOCKED in text
    # … and S confirms it with his.
    status, text, _headers = table.post(confirm_url, {"as": "S", "pin": south.pin})
    assert status == 302, text[:3000]
    sheet.refresh_from_db()
    assert sheet.status == "confirmed" and sheet.confirmed_by_entry_id == south.pk
    status, text, _headers = table.get(link)
    assert status == 200 and LOCKED not in text

    # The director ends round 1; the phones and the hall see «Конец тура!».
    status, text, _headers = director_browser.get(f"{room_url}?confirm=end")
    assert status == 200
    status, _text, _headers = director_browser.post(
        f"{events_url}/rounds/{first.pk}/end/", {"confirm": "yes"}
    )
    assert status == 302
    first.refresh_from_db()
    assert first.state == Round.State.FINISHED
    ended = _eventually(
        lambda: hall.json(f"/e/{event.slug}/clock.json")["rooms"][0],
        lambda doc: doc["state"] == "finished",
    )
    assert ended["announcement"]["kind"] == "end" and ended["round"] == 1
    assert phone.json(f"/p/{north.key}/clock.json")["rooms"][0]["announcement"]["kind"] == "end"

    # Round 2 starts; no timer can be queued, so when its time is up the first clock read
    # ends it (its time is made up in the database here: five minutes are a long wait).
    status, _text, _headers = director_browser.post(
        f"{events_url}/rounds/{second.pk}/start/", {"minutes": "5"}
    )
    assert status == 302
    Round.objects.filter(pk=second.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    over = _eventually(
        lambda: hall.json(f"/e/{event.slug}/clock.json")["rooms"][0],
        lambda doc: doc["round"] == 2 and doc["state"] == "finished",
    )
    assert over["round"] == 2 and over["state"] == "finished", over
    assert over["announcement"]["kind"] == "end"
    second.refresh_from_db()
    assert second.state == Round.State.FINISHED

    # Publishing, and the public standings.
    status, _text, _headers = director_browser.post(
        f"{events_url}/scores/publish/", {"public": "1", "next": room_url}
    )
    assert status == 302
    event.refresh_from_db()
    assert event.results_public
    outsider = Browser(base)
    status, text, _headers = outsider.get(f"/e/{event.slug}/results/")
    assert status == 200 and north.full_name in text and south.full_name in text
    status, text, _headers = phone.get(f"/p/{north.key}/places")
    assert status == 200

    # /healthz: the database answers, so 200; the cache, the broker and the worker are named.
    status, text, _headers = outsider.get("/healthz")
    body = json.loads(text)
    assert status == 200, body
    assert body["status"] == "degraded"
    assert body["failing"] == ["cache", "broker", "worker"]
    assert body["database"]["ok"] and "127.0.0.1" not in text

    # No answer was a server error, nor logged as one (the warnings of what could not be
    # queued or cached are expected).
    log.seek(0)
    output = log.read()
    assert '" 500 ' not in output and "Internal Server Error" not in output, output[-5000:]
