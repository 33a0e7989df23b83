"""Event day under load: 100 tables × 4, 400 phones, the hall screen, two consoles, 100 saves.

    make bench-load        (or: .venv/bin/python bench/load_event_day.py [--duration 60])

Builds a 100-table × 4-seat skip session (400 players, the full 100 rounds) through the
app's services in a throwaway PostgreSQL database (bench_load_event_day), with its own Redis
queue and a fresh VAR_DIR under /tmp; starts the server exactly as ``make run`` does
(collectstatic, then ``manage.py serve`` = gunicorn + a Celery worker with its beat) on a free
port of 127.0.0.1; and drives it with aiohttp as the pages' JS does:

- 400 phones (static/js/clock.js + player.js): ``/p/<key>/clock.json`` 2 s after the last
  answer; ``/p/<key>/places`` 20 s after its last fetch, and once per change of
  round:state:next_round:announcement after a random wait of up to 2.5 s (player.js);
- the hall screen (``/e/<slug>/clock``): the event's ``clock.json`` 1 s after the last answer;
- two director consoles (the room page): the same clock every 1 s, ``console.html?since=``
  3 s after the last answer, at once on a clock announcement, and the room page fetched
  again when the clock controls change or an announcement comes;
- the 100 tables within the steady minute: the table page, the deal-1 form, «Check», «Save»
  (a form POST with CSRF; the redirect followed), with a few seconds of typing between;
- the team (issue 34): one table in 20 calls the director («Позвать судью», the table page's
  form) within the steady minute and polls its call's state (``/t/<key>/call.json``, every
  5 s ± 20 %, static/js/calls.js) until it is closed; the second console's director presses
  «Иду» after 3–8 s and «Решено» 4–10 s later, each from the room page; between rounds 1 and
  2 (the session asks check-in before each round) a quarter of the players open their page
  and tap «Я на месте» within 8 s;
- the trivial endpoint, 10 a second: ``GET /i18n/setlang/`` (Django's set_language answers
  a GET without a ``next`` with 204 and touches nothing) and a small static file.

Phases: the idle server (each polled endpoint, one request at a time), warm-up (the clients
start, spread over their intervals; 22 s, one fragment interval, so that the steady minute
finds every phone's page open since before, as in a hall), the steady minute (round 1
running, started by the director's click; the tables save), the director's «Конец тура!» click (GET ?confirm=end, POST confirm=yes), then
round 2 started through ``rounds.round_start`` for a short length so that the timer ends it.
For each phone: the time from the click (from the due instant, for the timer) to the answer
of its first clock poll that shows the end; the burst of seat fragments that follows.

Then the outage (issue 25's reconnect storm; ``--phases outage`` runs it alone, after the
warm-up): the next round started for ``--outage-before`` + 30 s (the round on the clock
ended first); the tables type and check deal 1; then every phone and table loses the
connection for 60 s (requests in flight fail; the hall screen, the consoles and the trivial
endpoints stay on), the timer ends the round 30 s into it, and all come back at once: each
phone sends its first clock request after a jitter of uniform 0–3 s (clock.js after
``online``) and fetches its seat blocks once, within 2.5 s of that answer (player.js; the
worker has built them after the end), each table's outbox sends the sheet «saved» in the outage within the second
(again after a back-off while it fails), then the same POST once more. Measured in the first
minute after the return: p95s as ratios to the trivial endpoint of that minute, the time until
the last phone saw the end, errors, and the sheets recorded exactly once (their versions
counted in the database after the run) or lost.

Then the audience (issue 36; ``--phases audience`` runs it alone, after the warm-up): the
results published, the room's next round started, and for each N of ``--audience`` (1000;
``--audience 1000,2000`` runs one after the other) N anonymous viewers beside the day's load
(the 400 phones, the hall screen, the consoles, the round's tables saving deal 1). Each
viewer is a browser with two tabs, the event's results page and session 1's standings. A tab
opens its page at a uniform moment of the first ``--audience-ramp`` seconds (10), with the
files it links (stylesheets, scripts, icons, the manifest, parsed from the HTML as a browser
finds them; later loads take a file from the browser's HTTP cache while its max-age holds,
and ask it conditionally after), then reloads it 10 s ± 2 s after each load, asking
``If-None-Match`` / ``If-Modified-Since`` with the validators it got, ``Accept-Encoding:
gzip``. A page that names a version document (``data-version-url`` on ``<body>`` or
``<main>``) has it polled instead, conditionally, every 10 s ± 2 s, and is reloaded only when
it changed (its version is not the page's ``data-version``, or, on a page that names none,
not the last one polled). The viewers share one client session without cookies (as the
phones share one) on connections of their own. After the ramp, one steady minute
(``--duration``), in which the tables save and the director ends the round by his click
(«Конец тура!», two thirds into it; if he cannot, the round is ended through the service and
the goal fails). Measured in that minute: each endpoint's p50/p95 as ratios to the trivial
endpoint of the minute, the viewers' requests asked and answered (200s, 304s, errors,
timeouts, bytes on the wire), the headers the pages came with (ETag, Cache-Control, Vary,
Set-Cookie, gzip), whether the trivial endpoint was itself saturated, the end of the round on
the phones, and the CPU of the harness and the server. Goals at N = 1,000 (or at the first N
when 1,000 is not run): the standings' p95 and the phones' clock p95 ≤ 3× the trivial,
«Конец тура!» on all the phones ≤ 10 s, 0 errors; any other N's figures beside them.

Before the load, in-process with Django's test Client: queries and ms of each polled
endpoint at 20 and 100 tables and at 10 and 100 rounds (round 1 running, every table's
deal 1 entered); on the 20-table event with three calls open and a quarter of the players
checked in, the console of a room director alone on the team and then in a team of 12 (its
cost must not grow with the staff); and on the load event after the run.

Everything is bounded (per-request timeout, counted as a timeout, after which the virtual
client goes on as the JS would after an answer; a connection limit; fixed phases; a hard
alarm); the server's process groups are stopped at the end even on error or
Ctrl-C, the Redis queue is removed and the database dropped. Goals print PASS/FAIL; only a
failure of the harness itself exits non-zero.

``--embedded`` runs the day phase against ``make run``'s embedded default instead: SQLite in a
throwaway VAR_DIR and the filesystem broker, no PostgreSQL nor Redis (a club evening:
``--tables 20``); ``--sqlite-synchronous NORMAL`` with it, only to measure what the app's
synchronous=FULL costs (docs/operations.md, «Durability»).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.benchdb import throwaway_database, throwaway_embedded  # noqa: E402

DB_NAME = "bench_load_event_day"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/6")
HOST = "127.0.0.1"

# What the pages' JS does (static/js/*.js and the data-poll-ms of the templates).
PHONE_CLOCK_S = 2.0  # player/home.html data-poll-ms="2000", after each answer
PHONE_PLACES_S = 20.0  # player.js RESULTS_MS: 20 s after the last fetch of the fragment
PHONE_SPREAD_S = 2.5  # player.js SPREAD_MS: after a change, a random wait of up to 2.5 s
HALL_CLOCK_S = 1.0  # public/clock.html and director/room_detail.html data-poll-ms="1000"
CONSOLE_S = 3.0  # director/room_detail.html console data-poll-ms="3000"
# The trivial endpoints, 10 a second each: enough samples (600 a minute) for a steady p95.
TRIVIAL_EVERY_S = 0.1
# The team (issue 34): a few tables call the director in the steady minute (one in
# CALL_EVERY_TABLES); the room's director walks over (CALL_WALK_S) and settles it
# (CALL_SETTLE_S); the called table's phone polls its call's state (static/js/calls.js).
# Between rounds 1 and 2 (check-in before each round) a share of the hall taps «Я на месте»
# within CHECKIN_WINDOW_S of the end.
CALL_EVERY_TABLES = 20
CALL_POLL_S = 5.0  # calls.js POLL_MS, ± 20 %
CALL_WALK_S = (3.0, 8.0)
CALL_SETTLE_S = (4.0, 10.0)
CHECKIN_SHARE = 0.25
CHECKIN_WINDOW_S = 8.0
# The outage (--phases outage): how long the hall is off the network, where the round's end
# falls in it, and the spread of the phones' first requests after the return (player.js).
OUTAGE_S = 60.0
OUTAGE_END_AT_S = 30.0
RETURN_JITTER_S = 3.0
RETURN_MINUTE_S = 60.0
# The audience (--phases audience): a browser tab reloads its page (or polls the page's
# version document) this long after its last load, ± the jitter; the viewers ask as a
# Russian browser does, for gzip.
AUDIENCE_REFRESH_S = 10.0
AUDIENCE_JITTER_S = 2.0
AUDIENCE_CLICK_AT = 2 / 3  # the director ends the round this far into the audience's minute
BROWSER_HEADERS = {"Accept-Encoding": "gzip", "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8"}

# The endpoints, as the tables below name them.
TRIVIAL = "trivial GET /i18n/setlang/"
STATIC = "static file (whitenoise)"
P_CLOCK = "player clock.json"
P_PLACES = "player places (seat fragment)"
H_CLOCK = "hall clock.json"
C_JSON = "console.html?since="
C_PAGE = "director room page"
D_END = "director «end round» POST"
D_START = "director «start round» POST"
T_PAGE = "table page"
T_FORM = "table deal form"
T_CHECK = "table «Check» POST"
T_SAVE = "table «Save» POST"
T_CALL = "table «Позвать судью» POST"
T_CALL_JSON = "table call.json (while called)"
D_CALL = "director «Иду»/«Решено» POST"
P_PAGE = "player page"
P_CHECKIN = "player «Я на месте» POST"
A_RESULTS = "audience: results page"
A_STANDINGS = "audience: session standings"
A_VERSION = "audience: version document"
A_ASSET = "audience: linked files (css, icon…)"
AUDIENCE = (A_RESULTS, A_STANDINGS, A_VERSION, A_ASSET)
ORDER = [TRIVIAL, STATIC, P_CLOCK, P_PLACES, H_CLOCK, C_JSON, C_PAGE, D_START, D_END]
ORDER += [T_PAGE, T_FORM, T_CHECK, T_SAVE, T_CALL, T_CALL_JSON, D_CALL, P_PAGE, P_CHECKIN]
ORDER += [*AUDIENCE]


class HarnessError(RuntimeError):
    """The harness could not do its job (not: the app missed a goal)."""


# --- recording ---------------------------------------------------------------------------


@dataclass
class Sample:
    endpoint: str
    phase: str
    cause: str
    sent: float  # monotonic
    latency: float = 0.0  # seconds (a timeout counts as the full timeout)
    status: int = 0
    outcome: str = "ok"  # ok | error | timeout
    note: str = ""
    done: bool = False  # answered, failed or timed out (not: still in flight, or cancelled)
    nbytes: int = 0  # the answer on the wire, headers and (compressed) body: ``raw`` calls only


@dataclass
class Queued:
    """A table's outbox in the outage: the sheet «saved» while offline and what became of it."""

    why: str = ""  # why nothing was queued (the table could not type and check it before)
    sends: list = field(default_factory=list)  # every send of it (Samples)
    outcome: str = ""  # saved | refused … | not sent (every send failed)
    resend: str = ""  # the second send of a sheet already saved: saved (unchanged) or why not


@dataclass
class Called:
    """A table's «Позвать судью» in the day, and what its phone saw of the answer."""

    number: int
    outcome: str = "not sent"
    sent: float | None = None  # the POST's answer
    answered: float | None = None  # the director's «Иду» POST answered
    going_seen: float | None = None  # the phone's poll first showed «Судья идёт»
    closed_seen: float | None = None  # … then no call open


@dataclass
class Run:
    base: str
    timeout: float
    phase: str = "setup"
    stopping: bool = False
    samples: list[Sample] = field(default_factory=list)
    # observer → {("end", 1): monotonic time of the answer that first showed it}
    seen: dict[str, dict[tuple[str, int], float]] = field(default_factory=lambda: defaultdict(dict))
    tasks: set = field(default_factory=set)
    saves: dict[int, str] = field(default_factory=dict)  # table number → outcome
    marks: dict[str, float] = field(default_factory=dict)
    loop_lag: list[float] = field(default_factory=list)
    burst_in_flight: int = 0  # seat fragments asked for by news, not answered yet
    in_flight: int = 0  # requests sent and not answered (the most at once: peak)
    peak: int = 0
    # The outage: while ``online`` is clear, the phones and tables (a ``device``) send
    # nothing; their requests in flight when it began fail («cut»). On the return each
    # device sends its first request after its own jitter (``jitter_of``).
    online: asyncio.Event = field(default_factory=asyncio.Event)
    back_at: float = 0.0
    jitter: dict[str, float] = field(default_factory=dict)
    jitter_rng: random.Random = field(default_factory=lambda: random.Random(25))
    cuts: set = field(default_factory=set)
    cut_samples: int = 0
    down: asyncio.Event = field(default_factory=asyncio.Event)  # set: the outage has begun
    queued: dict[int, Queued] = field(default_factory=dict)  # table number → its outbox
    audience: list[dict] = field(default_factory=list)  # each N's minute (the_audience)
    calls: dict[int, Called] = field(default_factory=dict)  # table number → its call
    checkins: dict[str, str] = field(default_factory=dict)  # player key → outcome

    def __post_init__(self):
        self.online.set()

    def go_offline(self):
        """Every phone and table loses the connection: what they have in flight fails."""
        self.online.clear()
        self.down.set()
        self.jitter.clear()
        loop = asyncio.get_running_loop()
        for cut in list(self.cuts):
            cut.reschedule(loop.time())

    def come_back(self):
        self.back_at = time.monotonic()
        self.online.set()

    def jitter_of(self, device: str) -> float:
        """player.js after ``online``: a phone's first request waits uniform 0–3 s; a table's
        outbox sends at once (within the second the connection came back)."""
        if device not in self.jitter:
            most = RETURN_JITTER_S if device.startswith("phone:") else 1.0
            self.jitter[device] = self.jitter_rng.uniform(0, most)
        return self.jitter[device]

    async def wait_online(self, device: str):
        if self.online.is_set():
            return
        await self.online.wait()
        await asyncio.sleep(max(0.0, self.back_at + self.jitter_of(device) - time.monotonic()))

    def spawn(self, coro):
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def call(
        self,
        session,
        method: str,
        path: str,
        endpoint: str,
        *,
        cause: str = "poll",
        expect=(200,),
        data=None,
        headers=None,
        redirects: bool = False,
        device: str | None = None,
        raw: bool = False,
    ) -> tuple[Sample, str | None, dict]:
        """One request, recorded; returns the sample, the body (None on failure), headers.
        ``device``: a phone's or a table's, which the outage holds back and cuts (a request
        cut by it is no sample of the server: ``done`` stays False). ``raw``: the body as
        the bytes that came (a session without ``auto_decompress`` leaves them compressed),
        the headers case-insensitive with every Set-Cookie, and the bytes on the wire
        counted."""
        import aiohttp

        if device is not None:
            await self.wait_online(device)
        sample = Sample(endpoint, self.phase, cause, time.monotonic())
        self.samples.append(sample)
        body, answer_headers = None, {}
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        cut = asyncio.timeout(None)
        try:
            async with cut:
                if device is not None:
                    self.cuts.add(cut)
                async with session.request(
                    method,
                    self.base + path,
                    data=data,
                    headers=headers,
                    allow_redirects=redirects,
                    timeout=aiohttp.ClientTimeout(total=self.timeout),
                ) as response:
                    if raw:
                        body = await response.read()
                        head = sum(len(k) + len(v) + 4 for k, v in response.raw_headers)
                        sample.nbytes = len(body) + head + 17  # + «HTTP/1.1 200 OK\r\n»
                        answer_headers = response.headers.copy()
                    else:
                        body = await response.text(errors="replace")
                        answer_headers = dict(response.headers)
                    sample.status = response.status
            sample.latency = time.monotonic() - sample.sent
            if sample.status not in expect:
                sample.outcome = "error"
                sample.note = f"HTTP {sample.status}"
        except TimeoutError:
            body = None
            if cut.expired():
                sample.latency = time.monotonic() - sample.sent
                sample.outcome, sample.note = "cut", "the outage"
                self.cut_samples += 1
                return sample, None, {}
            sample.latency = self.timeout
            sample.outcome = "timeout"
        except (aiohttp.ClientError, OSError, ValueError) as error:
            sample.latency = time.monotonic() - sample.sent
            sample.outcome = "error"
            sample.note = type(error).__name__
            body = None
        finally:
            self.in_flight -= 1
            self.cuts.discard(cut)
        sample.done = True
        return sample, body, answer_headers


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, int(-(-q * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


# --- HTML scraps ---------------------------------------------------------------------------


class Forms(HTMLParser):
    """Every <form>: its attributes, inputs (with type, value, checked) and selects."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self.attrs_of: dict[str, dict] = {}  # id → attributes of any element with an id

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "id" in a:
            self.attrs_of[a["id"]] = a
        if tag == "form":
            self._form = {"attrs": a, "inputs": []}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "select", "textarea", "button"):
            self._form["inputs"].append({"tag": tag, **a})

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def parse_forms(html: str) -> Forms:
    parser = Forms()
    parser.feed(html)
    return parser


def form_by_action(forms: Forms, needle: str) -> dict | None:
    return next((f for f in forms.forms if needle in f["attrs"].get("action", "")), None)


def hidden_fields(form: dict) -> dict[str, str]:
    return {
        i["name"]: i.get("value", "")
        for i in form["inputs"]
        if i["tag"] == "input" and i.get("type") == "hidden" and i.get("name")
    }


# --- the virtual clients ---------------------------------------------------------------------


def observe(run: Run, who: str, doc: dict, at: float) -> None:
    """Note the first answer that shows a round's start or end to this observer."""
    seen = run.seen[who]
    for room in doc.get("rooms") or []:
        a = room.get("announcement") or {}
        if a.get("kind") in ("start", "end") and a.get("round") is not None:
            seen.setdefault((a["kind"], a["round"]), at)
        if room.get("round") is not None:
            if room.get("state") == "finished":
                seen.setdefault(("end", room["round"]), at)
            elif room.get("state") in ("running", "paused"):
                seen.setdefault(("start", room["round"]), at)


class ClockJs:
    """static/js/clock.js: poll, then wait the interval; tell news (a new announcement id per
    room, not on the first answer) and each answer to the page."""

    def __init__(
        self, run, session, path, endpoint, interval, who, on_news=None, on_doc=None, device=None
    ):
        self.run, self.session, self.path, self.endpoint = run, session, path, endpoint
        self.interval, self.who, self.device = interval, who, device
        self.on_news, self.on_doc = on_news, on_doc
        self.seen_ids: dict = {}
        self.first = True

    async def loop(self, offset: float):
        await asyncio.sleep(offset)
        while not self.run.stopping:
            sample, body, _ = await self.run.call(
                self.session, "GET", self.path, self.endpoint, device=self.device
            )
            doc = None
            if body is not None and sample.outcome == "ok":
                try:
                    doc = json.loads(body)
                except ValueError:
                    sample.outcome, sample.note = "error", "not JSON"
            if doc is not None:
                observe(self.run, self.who, doc, sample.sent + sample.latency)
                for room in doc.get("rooms") or []:
                    a = room.get("announcement")
                    if not a:
                        continue
                    before = self.seen_ids.get(room.get("room"))
                    self.seen_ids[room.get("room")] = a.get("id")
                    if self.first or before == a.get("id"):
                        continue
                    if self.on_news:
                        self.on_news(room, a)
                self.first = False
                if self.on_doc:
                    self.on_doc(doc)
            await asyncio.sleep(self.interval)


class Phone:
    """A player's phone: clock.js on /p/<key>/clock.json and player.js's seat fragment."""

    def __init__(self, run: Run, session, key: str, rng: random.Random):
        self.run, self.session, self.key, self.rng = run, session, key, rng
        self.last = None
        self.clock = ClockJs(
            run,
            session,
            f"/p/{key}/clock.json",
            P_CLOCK,
            PHONE_CLOCK_S,
            f"phone:{key}",
            on_doc=self.update,
            device=f"phone:{key}",
        )
        self.wake = asyncio.Event()
        self.cause = "interval"
        self.returned = False  # back from an outage: the next clock answer fetches

    def refresh(self, cause: str):
        self.cause = cause
        self.wake.set()

    async def places(self, cause: str):
        news = cause != "interval"
        self.run.burst_in_flight += news
        try:
            await self.run.call(
                self.session,
                "GET",
                f"/p/{self.key}/places",
                P_PLACES,
                cause=cause,
                device=f"phone:{self.key}",
            )
        finally:
            self.run.burst_in_flight -= news

    def update(self, doc: dict):
        """One fetch per change of round, state, next round or latest announcement, after a
        random wait of up to PHONE_SPREAD_S (player.js)."""
        rooms = doc.get("rooms") or []
        if not rooms:
            return
        room = rooms[0]
        news = (room.get("announcement") or {}).get("id", "")
        key = f"{room.get('round')}:{room.get('state')}:{room.get('next_round') or ''}:{news}"
        if (self.last is not None and key != self.last) or self.returned:
            self.refresh("return" if self.returned else "change")
            self.returned = False
        self.last = key

    async def interval(self, offset: float):
        """player.js: the fragment 20 s after its last fetch, or after a change's spread;
        back from an outage, once after the clock's first answer (not on ``online`` too)."""
        await asyncio.sleep(offset)
        while not self.run.stopping:
            if not self.run.online.is_set():
                # Offline its fetches fail at once; on the return it waits for the clock.
                await self.run.online.wait()
                self.returned = True
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), PHONE_PLACES_S)
                except TimeoutError:
                    continue
                await asyncio.sleep(self.rng.uniform(0, PHONE_SPREAD_S))
                continue
            cause, self.cause = self.cause, "interval"
            self.wake.clear()  # a change during the fetch fetches once more after it
            await self.places(cause)
            if not self.wake.is_set():
                try:
                    await asyncio.wait_for(self.wake.wait(), PHONE_PLACES_S)
                except TimeoutError:
                    continue
            if not self.run.stopping:
                await asyncio.sleep(self.rng.uniform(0, PHONE_SPREAD_S))

    def start(self):
        # The pages were opened at different moments: spread the first poll over one interval.
        self.run.spawn(self.clock.loop(self.rng.uniform(0, PHONE_CLOCK_S)))
        self.run.spawn(self.interval(self.rng.uniform(0, PHONE_PLACES_S)))


class Console:
    """The director's room page: its clock (its own room's clock.json, 1 s) and console.js."""

    def __init__(self, run: Run, session, event_pk: int, room_pk: int, slug: str, name: str):
        self.run, self.session, self.name = run, session, name
        self.page = f"/director/events/{event_pk}/rooms/{room_pk}/"
        self.url = f"/director/events/{event_pk}/rooms/{room_pk}/console.html"
        self.version = ""
        self.controls = ""
        self.poke = asyncio.Event()
        self.clock = ClockJs(
            run,
            session,
            f"/e/{slug}/clock.json?room={room_pk}",
            H_CLOCK,
            HALL_CLOCK_S,
            f"console:{name}",
            on_news=self.news,
        )

    async def load_page(self, query: str = "", cause: str = "page") -> str:
        """The room page; its console's controls key (console.js reloadParts() takes only
        that), and the version too when the page is opened, not reloaded in parts."""
        sample, body, _ = await self.run.call(
            self.session, "GET", self.page + query, C_PAGE, cause=cause
        )
        if body is None or sample.outcome != "ok":
            return ""
        forms = parse_forms(body)
        console = forms.attrs_of.get("console", {})
        if "data-controls" in console:
            self.controls = console["data-controls"]
        if cause in ("page", "click") and "data-version" in console:
            self.version = console["data-version"]
        return body

    def news(self, room, announcement):
        self.poke.set()  # console_.poll() at once
        self.run.spawn(self.load_page(cause="announcement"))  # console_.reloadParts()

    async def poll_loop(self):
        while not self.run.stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.poke.wait(), timeout=CONSOLE_S)
            self.poke.clear()
            if self.run.stopping:
                return
            sample, body, _ = await self.run.call(
                self.session,
                "GET",
                f"{self.url}?since={self.version}",
                C_JSON,
                headers={"Accept": "text/html"},
                expect=(200, 204),
            )
            if body is None or sample.outcome != "ok" or not body:
                continue  # 204: nothing changed
            # console.js swaps the board in; it reads its version and controls key.
            board = parse_forms(body).attrs_of.get("console-board", {})
            if "data-version" not in board:
                sample.outcome, sample.note = "error", "no board"
                continue
            self.version = board["data-version"]
            if board.get("data-controls") != self.controls:
                self.run.spawn(self.load_page(cause="controls"))

    def start(self):
        self.run.spawn(self.clock.loop(random.uniform(0, HALL_CLOCK_S)))
        self.run.spawn(self.poll_loop())

    async def click(self, action_path_part: str, data: dict, endpoint: str, query: str = ""):
        """Press a clock button of the page: the page (or its ?confirm= dialog), then the
        form's POST with its CSRF token; the redirect followed. Returns the POST's sample."""
        form = None
        for _attempt in range(2):  # a director reloads a page that did not come
            body = await self.load_page(query, cause="click")
            form = form_by_action(parse_forms(body), action_path_part) if body else None
            if form is not None or self.run.stopping:
                break
        if form is None:
            return None
        fields = hidden_fields(form) | data
        sample, _, headers = await self.run.call(
            self.session,
            "POST",
            form["attrs"]["action"],
            endpoint,
            cause="click",
            expect=(302, 303),
            data=fields,
        )
        if sample.outcome == "ok" and headers.get("Location"):
            await self.load_page(cause="click")
        return sample


async def login(run: Run, session, username: str, password: str) -> None:
    sample, body, _ = await run.call(session, "GET", "/director/login/", "login", cause="login")
    form = parse_forms(body or "").forms
    form = next((f for f in form if f["attrs"].get("method", "").lower() == "post"), None)
    if form is None:
        raise HarnessError(f"no login form at /director/login/ ({sample.status} {sample.note})")
    fields = hidden_fields(form) | {"username": username, "password": password}
    sample, _, headers = await run.call(
        session, "POST", "/director/login/", "login", cause="login", expect=(302,), data=fields
    )
    if sample.outcome != "ok":
        raise HarnessError(f"the director's login failed: {sample.status} {sample.note}")


GOOD_SHEET = ("three", "diamonds", ("whist", "pass"), (7, 3))  # N «три» ♦, E whists 3, S passes


@dataclass
class Prepared:
    """A table's deal-1 sheet typed and checked: the POST that «Save» sends."""

    deal_path: str
    save: dict


async def table_prepare(
    run: Run, session, key: str, rng: random.Random, *, typing=(3, 8), device=None
) -> Prepared | str:
    """A table's phone at deal 1: the table's round page (``key``: its round link, where the
    table's QR code leads its players), the deal form, «Check». The «Save» it would send, or
    why not."""
    sample, body, _ = await run.call(
        session, "GET", f"/t/{key}/", T_PAGE, cause="save", device=device
    )
    if body is None or sample.outcome != "ok":
        return f"table page {sample.status or sample.outcome}"
    links = re.findall(rf'href="(/t/{re.escape(key)}/deals/1/)[^"]*"', body)
    deal_path = links[0] if links else f"/t/{key}/deals/1/"
    await asyncio.sleep(rng.uniform(1, 3))
    sample, body, _ = await run.call(session, "GET", deal_path, T_FORM, cause="save", device=device)
    if body is None or sample.outcome != "ok":
        return f"deal form {sample.status or sample.outcome}"
    form = next((f for f in parse_forms(body).forms if f["attrs"].get("id") == "scorer"), None)
    if form is None:
        return "no scorer form on the deal page"
    names = {i.get("name") for i in form["inputs"]}
    active = [s for s in "WNES" if f"defence_{s}" in names]
    if len(active) != 3:
        return f"deal 1 has {len(active)} active seats, expected 3"
    declarer, whister, passer = active
    contract, trump, (d1, d2), (t1, t2) = GOOD_SHEET
    typed = {
        "as": declarer,
        "declarer": declarer,
        "contract": contract,
        "trump": trump,
        f"defence_{declarer}": "",
        f"defence_{whister}": d1,
        f"defence_{passer}": d2,
        f"tricks_{declarer}": str(t1),
        f"tricks_{whister}": str(t2),
        f"tricks_{passer}": "",
        "auction": "",
        "note": "",
    }
    await asyncio.sleep(rng.uniform(*typing))  # typing the sheet
    data = hidden_fields(form) | typed | {"check": "1"}
    sample, body, _ = await run.call(
        session, "POST", deal_path, T_CHECK, cause="save", data=data, expect=(200,), device=device
    )
    if body is None or sample.outcome != "ok":
        return f"check {sample.status or sample.outcome}"
    form = next((f for f in parse_forms(body).forms if f["attrs"].get("id") == "scorer"), None)
    checked = hidden_fields(form).get("checked") if form else None
    if not checked:
        sample.outcome, sample.note = "error", "check refused"
        return "«Check» showed no settlement (refused)"
    return Prepared(deal_path, hidden_fields(form) | typed | {"save": "1"})


async def table_save(
    run: Run,
    session,
    number: int,
    key: str,
    at: float,
    rng: random.Random,
    into: dict[int, str] | None = None,
):
    """A table's phone saves deal 1: :func:`table_prepare`, then «Save» (the redirect to the
    round's page followed). Its outcome goes to ``into`` (the day's ``run.saves``)."""
    saves = run.saves if into is None else into
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    if run.stopping:
        return
    prepared = await table_prepare(run, session, key, rng)
    if isinstance(prepared, str):
        saves[number] = prepared
        return
    await asyncio.sleep(rng.uniform(1, 3))  # reading the settlement
    sample, _, headers = await run.call(
        session,
        "POST",
        prepared.deal_path,
        T_SAVE,
        cause="save",
        data=prepared.save,
        expect=(302, 303),
    )
    where = headers.get("Location", "")
    if sample.outcome != "ok":
        saves[number] = f"save {sample.status or sample.outcome}"
        return
    if "saved=" not in where:
        sample.outcome, sample.note = "error", "not saved"
        saves[number] = f"save redirected to {where!r}"
        return
    saves[number] = "saved"
    await run.call(session, "GET", where, T_PAGE, cause="save")


OUTBOX_BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 16.0)  # the outbox's waits while a send fails


async def table_outbox(run: Run, session, number: int, key: str, at: float, rng: random.Random):
    """A table in the outage: deal 1 typed and checked while the round runs, «Сохранить»
    pressed once the connection is gone (the outbox keeps the POST); on the return the
    outbox sends it at once, again after a back-off while it fails (a 5xx, a timeout, no
    connection; a 4xx is a refusal, shown to the table, not sent again); once saved, the
    redirect followed and the same POST sent once more, which the server's dedup must
    answer as saved without a second version (scoring.sheets.services.sheet_record)."""
    queued = run.queued[number] = Queued()
    device = f"table:{number}"
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    prepared = await table_prepare(run, session, key, rng, typing=(2, 5), device=device)
    if isinstance(prepared, str):
        queued.why = prepared
        return
    if run.online.is_set():
        await run.down.wait()

    async def send(cause: str):
        sample, _, headers = await run.call(
            session,
            "POST",
            prepared.deal_path,
            T_SAVE,
            cause=cause,
            data=prepared.save,
            expect=(302, 303),
            device=device,
        )
        return sample, headers.get("Location", "")

    for wait in (*OUTBOX_BACKOFF_S, None):
        sample, where = await send("outbox")
        queued.sends.append(sample)
        if sample.outcome == "ok":
            queued.outcome = "saved" if "saved=" in where else f"redirected to {where!r}"
            break
        if 400 <= sample.status < 500:
            queued.outcome = f"refused ({sample.status})"
            return
        if wait is None or run.stopping:
            queued.outcome = f"not sent ({sample.status or sample.outcome})"
            return
        await asyncio.sleep(wait)
    if queued.outcome != "saved":
        return
    await run.call(session, "GET", where, T_PAGE, cause="outbox", device=device)
    sample, where = await send("resend")
    queued.sends.append(sample)
    queued.resend = (
        "saved"
        if sample.outcome == "ok" and "saved=" in where
        else f"{sample.status or sample.outcome} {where!r}"
    )


CALL_REASONS = ("dispute", "sheet", "box", "other")


async def table_call(
    run: Run, session, number: int, key: str, at: float, rng: random.Random, calls: asyncio.Queue
):
    """A table calls the director from its round page (the form of templates/table/_call.html,
    its CSRF token from the page), then polls its call's state as static/js/calls.js does
    while one is open, until the director has said «Иду» and «Решено»."""
    called = run.calls[number] = Called(number)
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    if run.stopping:
        return
    sample, body, _ = await run.call(session, "GET", f"/t/{key}/", T_PAGE, cause="call")
    if body is None or sample.outcome != "ok":
        called.outcome = f"table page {sample.status or sample.outcome}"
        return
    form = form_by_action(parse_forms(body), f"/t/{key}/call/")
    if form is None:
        called.outcome = "no call form on the table's page"
        return
    data = hidden_fields(form) | {
        "reason": rng.choice(CALL_REASONS),
        "as": "",
        "client_id": uuid.uuid4().hex,
    }
    sample, _, _ = await run.call(
        session,
        "POST",
        form["attrs"]["action"],
        T_CALL,
        cause="call",
        data=data,
        expect=(302, 303),
    )
    if sample.outcome != "ok":
        called.outcome = f"call {sample.status or sample.outcome}"
        return
    called.outcome, called.sent = "open", time.monotonic()
    calls.put_nowait(called)
    while not run.stopping:
        await asyncio.sleep(CALL_POLL_S * rng.uniform(0.8, 1.2))
        sample, body, _ = await run.call(
            session, "GET", f"/t/{key}/call.json", T_CALL_JSON, cause="call"
        )
        if body is None or sample.outcome != "ok":
            continue
        try:
            state = json.loads(body).get("state")
        except ValueError:
            sample.outcome, sample.note = "error", "call.json is not JSON"
            continue
        if state == "going" and called.going_seen is None:
            called.going_seen = time.monotonic()
        elif not state and called.answered is not None:
            called.closed_seen = time.monotonic()
            called.outcome = "closed"
            return


async def director_answers(run: Run, console: Console, calls: asyncio.Queue, rng: random.Random):
    """The room's director on his console: for each call, «Иду» after a look and the walk,
    «Решено» once settled (the forms of templates/director/_console_calls.html, oldest
    first, each pressed from the room page as a click)."""
    while not run.stopping:
        called = await calls.get()
        await asyncio.sleep(rng.uniform(*CALL_WALK_S))
        going = await console.click("/going/", {}, D_CALL)
        if going is None or going.outcome != "ok":
            called.outcome = "«Иду» failed" if going else "no «Иду» on the console"
            continue
        called.answered = time.monotonic()
        await asyncio.sleep(rng.uniform(*CALL_SETTLE_S))
        closed = await console.click("/close/", {}, D_CALL)
        if closed is None or closed.outcome != "ok":
            called.outcome = "«Решено» failed" if closed else "no «Решено» on the console"


async def player_checkin(run: Run, session, key: str, at: float):
    """A player taps «Я на месте» on his page (templates/player/_checkin.html)."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    if run.stopping:
        return
    sample, body, _ = await run.call(session, "GET", f"/p/{key}/", P_PAGE, cause="checkin")
    if body is None or sample.outcome != "ok":
        run.checkins[key] = f"page {sample.status or sample.outcome}"
        return
    form = form_by_action(parse_forms(body), f"/p/{key}/checkin/")
    if form is None:
        run.checkins[key] = "no «Я на месте» on the page"
        return
    sample, _, _ = await run.call(
        session,
        "POST",
        form["attrs"]["action"],
        P_CHECKIN,
        cause="checkin",
        data=hidden_fields(form),
        expect=(302, 303),
    )
    run.checkins[key] = "checked in" if sample.outcome == "ok" else f"POST {sample.status}"


async def probe(run: Run, session, path: str, endpoint: str, every: float, headers=None):
    """The trivial endpoints, on a fixed schedule."""
    due = time.monotonic() + random.uniform(0, every)
    while not run.stopping:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        run.spawn(run.call(session, "GET", path, endpoint, expect=(200, 204), headers=headers))
        due += every


async def lag_meter(run: Run):
    """How late the harness's own event loop wakes up (a busy harness inflates latencies)."""
    while not run.stopping:
        before = time.monotonic()
        await asyncio.sleep(0.1)
        run.loop_lag.append(time.monotonic() - before - 0.1)


# --- the audience: anonymous browsers on the public results --------------------------------

_TAG = re.compile(r"<(link|script|img|body|main)\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


def linked_files(page: str, html: str) -> tuple[list[str], str | None, str | None]:
    """What a browser fetches after a page's HTML: its stylesheets, scripts, icons, manifest
    and images on this site (in order, once each); the version document its
    ``data-version-url`` names (on ``<body>`` or ``<main>``), or None; and the version the
    page was drawn at (``data-version`` beside it), or None."""
    files, version, drawn = [], None, None
    for tag, attrs in _TAG.findall(html):
        a = {k.lower(): unescape(x or y or z) for k, x, y, z in _ATTR.findall(attrs)}
        tag = tag.lower()
        if tag in ("body", "main"):
            if not version and a.get("data-version-url"):
                version, drawn = a["data-version-url"], a.get("data-version")
            continue
        if tag == "link":
            rel = set(a.get("rel", "").lower().split())
            url = a.get("href") if rel & {"stylesheet", "icon", "manifest"} else None
        else:
            url = a.get("src")
        if url and not url.startswith(("//", "data:")) and "://" not in url:
            url = urljoin(page, url).split("#", 1)[0]
            if url not in files:
                files.append(url)
    if version and not version.startswith("//") and "://" not in version:
        version = urljoin(page, version)
    else:
        version, drawn = None, None
    return files, version, drawn


def fresh_for(headers) -> float | None:
    """How long a browser may take the answer from its cache without asking (Cache-Control's
    max-age), or None: it asks again (conditionally, with the validators it got)."""
    control = headers.get("Cache-Control", "").lower()
    if "no-store" in control or "no-cache" in control:
        return None
    if "immutable" in control:
        return float("inf")
    found = re.search(r"(?:^|[,\s])max-age=(\d+)", control)
    return float(found.group(1)) if found and int(found.group(1)) > 0 else None


def version_of(body: bytes, headers) -> str:
    """A version document's version: its JSON's «version», else its ETag, else its body."""
    with contextlib.suppress(ValueError, AttributeError):
        found = json.loads(body).get("version")
        if found is not None:
            return str(found)
    return headers.get("ETag") or body.decode("utf-8", "replace")


@dataclass
class Kept:
    """A browser's HTTP cache entry: the validators, until when it is fresh, and for a page,
    the files it links and its version document."""

    etag: str = ""
    modified: str = ""
    fresh_until: float = 0.0
    files: list = field(default_factory=list)
    version_url: str | None = None
    drawn: str | None = None  # the version the page was drawn at (its data-version)
    version: str = ""  # a version document's version: what a 304 says is still so


class Audience:
    """N anonymous viewers (:class:`Tab`s of a :class:`Browser` each) on one client session
    without cookies, as the phones share one: the pages' headers as seen, and what they
    link, parsed once per distinct answer."""

    def __init__(self, run: Run, session, n: int, pages: list[tuple[str, str]], seed: float):
        self.run, self.session, self.n, self.pages = run, session, n, pages
        self.rng = random.Random(seed)
        self.stopping = False
        self.in_flight = 0
        self.tasks: set = set()
        self.parsed: dict[tuple, tuple[list[str], str | None, str | None]] = {}
        self.from_cache = 0  # linked files a tab took from its own cache, not asking
        # endpoint → what its answers carried (counted over every answer, not one minute)
        self.seen: dict[str, dict] = defaultdict(lambda: defaultdict(int))
        self.values: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))

    def start(self, ramp: float) -> None:
        for _ in range(self.n):
            browser = Browser(self, random.Random(self.rng.random()))
            for path, endpoint in self.pages:
                tab = Tab(browser, path, endpoint)
                task = self.run.spawn(tab.loop(browser.rng.uniform(0, ramp)))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def stop(self, most: float) -> None:
        """No new request; those in flight answered (or ``most`` seconds), the tabs gone."""
        self.stopping = True
        deadline = time.monotonic() + most
        while self.in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def note(self, endpoint: str, sample: Sample, headers) -> None:
        if not sample.status:
            return
        seen, values = self.seen[endpoint], self.values[endpoint]
        seen["answers"] += 1
        seen[f"status {sample.status}"] += 1
        etag = headers.get("ETag", "")
        if etag:
            seen["weak ETag" if etag.startswith("W/") else "strong ETag"] += 1
        if headers.get("Last-Modified"):
            seen["Last-Modified"] += 1
        if headers.getall("Set-Cookie", []):
            seen["Set-Cookie"] += 1
            for cookie in headers.getall("Set-Cookie"):
                values["cookies"].add(cookie.split("=", 1)[0])
        vary = headers.get("Vary", "")
        if "cookie" in vary.lower():
            seen["Vary: Cookie"] += 1
        if headers.get("Content-Encoding"):
            seen[f"Content-Encoding: {headers['Content-Encoding']}"] += 1
        if len(values["Cache-Control"]) < 6:
            values["Cache-Control"].add(headers.get("Cache-Control", "(none)"))
        if len(values["Vary"]) < 6:
            values["Vary"].add(vary or "(none)")

    def parse(self, path: str, body: bytes, headers) -> tuple[list[str], str | None, str | None]:
        """:func:`linked_files` of a page, parsed once per distinct answer."""
        key = (path, headers.get("ETag") or hashlib.blake2b(body, digest_size=16).digest())
        if key not in self.parsed:
            encoding = headers.get("Content-Encoding", "").lower()
            if encoding == "gzip":
                body = gzip.decompress(body)
            elif encoding == "deflate":
                body = zlib.decompress(body)
            self.parsed[key] = linked_files(path, body.decode("utf-8", "replace"))
        return self.parsed[key]


class Browser:
    """One viewer's browser: its HTTP cache, shared by its tabs."""

    def __init__(self, audience: Audience, rng: random.Random):
        self.audience, self.rng = audience, rng
        self.cache: dict[str, Kept] = {}

    async def get(self, path: str, endpoint: str, cause: str, accept: str, conditional=True):
        """A GET as the browser sends it: conditional with what it keeps of ``path``; the
        answer kept (a 304 refreshes what is kept); a 304 to a question that was not
        conditional is an error (someone kept a 304 for everyone)."""
        audience = self.audience
        headers = {"Accept": accept, **BROWSER_HEADERS}
        kept = self.cache.get(path) if conditional else None
        if kept is not None and kept.etag:
            headers["If-None-Match"] = kept.etag
        if kept is not None and kept.modified:
            headers["If-Modified-Since"] = kept.modified
        audience.in_flight += 1
        try:
            sample, body, answer = await audience.run.call(
                audience.session,
                "GET",
                path,
                endpoint,
                cause=cause,
                expect=(200, 304),
                headers=headers,
                raw=True,
            )
        finally:
            audience.in_flight -= 1
        if sample.done and sample.status:
            audience.note(endpoint, sample, answer)
        if sample.outcome != "ok":
            return sample, None, answer
        fresh = fresh_for(answer)
        until = time.monotonic() + fresh if fresh is not None else 0.0
        if sample.status == 304:
            if kept is None:
                sample.outcome, sample.note = "error", "304 to an unconditional GET"
                return sample, None, answer
            kept.fresh_until = until
            return sample, None, answer
        if "no-store" in answer.get("Cache-Control", "").lower():
            self.cache.pop(path, None)
        else:
            etag, modified = answer.get("ETag", ""), answer.get("Last-Modified", "")
            self.cache[path] = Kept(etag, modified, until)
        return sample, body, answer

    async def linked(self, urls: list[str], cause: str) -> None:
        """The files a page links, as its load asks them: from the cache while fresh, else
        (conditionally) from the server, several at once."""
        now = time.monotonic()
        wanted = []
        for url in urls:
            kept = self.cache.get(url)
            if kept is not None and kept.fresh_until > now:
                self.audience.from_cache += 1
            else:
                wanted.append(url)
        await asyncio.gather(*(self.get(url, A_ASSET, cause, "*/*") for url in wanted))


class Tab:
    """A browser tab on a public page: opened at ``offset``, then reloaded 10 s ± 2 s after
    each load — or, if the page names a version document, that polled every 10 s ± 2 s and
    the page reloaded only when it changed."""

    def __init__(self, browser: Browser, path: str, endpoint: str):
        self.browser, self.path, self.endpoint = browser, path, endpoint
        self.version_url: str | None = None
        self.drawn: str | None = None  # the version the shown page was drawn at, if it says
        self.version_seen: str | None = None  # the version document's last answer

    def stopping(self) -> bool:
        return self.browser.audience.stopping or self.browser.audience.run.stopping

    async def load(self, cause: str) -> None:
        """The page (conditional on a reload), then the files it links."""
        browser = self.browser
        sample, body, answer = await browser.get(
            self.path, self.endpoint, cause, "text/html,application/xhtml+xml"
        )
        if sample.outcome != "ok":
            return
        kept = browser.cache.get(self.path)
        if body is not None:
            files, version_url, drawn = browser.audience.parse(self.path, body, answer)
            if kept is not None:
                kept.files, kept.version_url, kept.drawn = files, version_url, drawn
        elif kept is not None:
            files, version_url, drawn = kept.files, kept.version_url, kept.drawn
        else:
            return
        if version_url != self.version_url:
            self.version_url, self.version_seen = version_url, None
        self.drawn = drawn
        await browser.linked(files, cause)

    async def version_changed(self) -> bool:
        """The version document, asked conditionally: whether the page is out of date — its
        version is not the one the page says it was drawn at (``data-version``), or, on a
        page that does not say, not the one of this tab's last answer (the first answer is
        no change). A 304 gives the script the browser's kept copy, which the other tab may
        have refreshed since."""
        url = self.version_url
        sample, body, answer = await self.browser.get(url, A_VERSION, "version", "application/json")
        if sample.outcome != "ok":
            return False
        kept = self.browser.cache.get(url)
        if sample.status == 304:
            seen = kept.version if kept is not None else ""
        else:
            seen = version_of(body or b"", answer)
            if kept is not None:
                kept.version = seen
        if self.drawn is not None:
            changed = seen != self.drawn
        else:
            changed = self.version_seen is not None and seen != self.version_seen
        self.version_seen = seen
        return changed

    async def loop(self, offset: float) -> None:
        rng = self.browser.rng
        await asyncio.sleep(offset)
        if self.stopping():
            return
        await self.load("open")
        while not self.stopping():
            await asyncio.sleep(AUDIENCE_REFRESH_S + rng.uniform(-1, 1) * AUDIENCE_JITTER_S)
            if self.stopping():
                return
            if self.version_url is None:
                await self.load("reload")
            elif await self.version_changed() and not self.stopping():
                await self.load("changed")


# --- the load run ------------------------------------------------------------------------------


async def drive(
    args, run: Run, plan: dict, start_round2, end_round1, start_outage_round, start_audience_round
) -> None:
    import aiohttp

    connector = aiohttp.TCPConnector(
        limit=args.connections,
        limit_per_host=args.connections,
        # gunicorn closes an idle keep-alive connection after 2 s: let go of it before, so
        # that no request goes out on a connection the server is closing.
        keepalive_timeout=1.5,
    )

    # The audience's browsers are other clients than the hall's phones: connections of
    # their own, so that a saturated audience does not hold the phones' requests back in
    # this harness (the server's queue is shared, as it is in a hall).
    audience_connector = aiohttp.TCPConnector(
        limit=args.audience_connections,
        limit_per_host=args.audience_connections,
        keepalive_timeout=1.5,
    )

    def new_session(cookies: bool):
        jar = aiohttp.CookieJar(unsafe=True) if cookies else aiohttp.DummyCookieJar()
        return aiohttp.ClientSession(connector=connector, connector_owner=False, cookie_jar=jar)

    sessions = []

    def session(cookies=False):
        s = new_session(cookies)
        sessions.append(s)
        return s

    def viewers_session():
        """The audience's one session: no cookies, the bodies as they came (gzip counted
        on the wire; a page is unpacked only to read what it links)."""
        s = aiohttp.ClientSession(
            connector=audience_connector,
            connector_owner=False,
            cookie_jar=aiohttp.DummyCookieJar(),
            auto_decompress=False,
        )
        sessions.append(s)
        return s

    rng = random.Random(args.seed)
    try:
        # The two directors' consoles: log in, open the room page.
        consoles = []
        for i in range(2):
            s = session(cookies=True)
            await login(run, s, plan["username"], plan["password"])
            c = Console(run, s, plan["event_pk"], plan["room_pk"], plan["slug"], f"console {i + 1}")
            await c.load_page()
            if not c.version:
                raise HarnessError(f"{c.name}: the room page has no console (data-version)")
            consoles.append(c)
        director = consoles[0]
        plan["answering"] = consoles[1]  # the room's second director answers the calls
        # «Start round 1» on the console (empty minutes: deals × minutes per deal).
        started = await director.click("/start/", {"minutes": ""}, D_START)
        if started is None or started.outcome != "ok":
            why = f"{started.status} {started.note}" if started else "no «start» form"
            raise HarnessError(f"«start round 1» on the console failed: {why}")

        # The idle server, one request at a time: what each endpoint costs unloaded.
        run.phase = "idle"
        shared = session()
        key = plan["entry_keys"][len(plan["entry_keys"]) // 2]
        idle = [
            ("/i18n/setlang/", TRIVIAL, {"Accept": "application/json"}),
            (plan["static_path"], STATIC, None),
            (f"/p/{key}/clock.json", P_CLOCK, None),
            (f"/p/{key}/places", P_PLACES, None),
            (f"/e/{plan['slug']}/clock.json", H_CLOCK, None),
        ]
        for _ in range(args.idle):
            for path, name, headers in idle:
                await run.call(shared, "GET", path, name, expect=(200, 204), headers=headers)
            await run.call(
                director.session,
                "GET",
                f"{director.url}?since={director.version}",
                C_JSON,
                headers={"Accept": "text/html"},
                expect=(200, 204),
            )

        run.phase = "warm-up"
        run.marks["warm-up"] = time.monotonic()
        run.spawn(lag_meter(run))
        run.spawn(
            probe(
                run,
                shared,
                "/i18n/setlang/",
                TRIVIAL,
                TRIVIAL_EVERY_S,
                {"Accept": "application/json"},
            )
        )
        run.spawn(probe(run, shared, plan["static_path"], STATIC, TRIVIAL_EVERY_S))
        for key in plan["entry_keys"]:
            Phone(run, shared, key, random.Random(rng.random())).start()
        hall = ClockJs(run, shared, f"/e/{plan['slug']}/clock.json", H_CLOCK, HALL_CLOCK_S, "hall")
        run.spawn(hall.loop(0))
        for c in consoles:
            c.start()
        await asyncio.sleep(args.warmup)
        if "day" in args.phases:
            await the_day(args, run, plan, director, session, rng, start_round2, end_round1)
            run.marks["day-end"] = time.monotonic()
        if "outage" in args.phases:
            await the_outage(args, run, session, rng, start_outage_round)
        if "audience" in args.phases:
            await the_audience(
                args, run, plan, director, session, viewers_session(), rng, start_audience_round
            )
        run.marks["end"] = time.monotonic()
    finally:
        run.stopping = True
        run.online.set()  # nothing waits for a return that will not come
        for task in list(run.tasks):
            task.cancel()
        await asyncio.gather(*list(run.tasks), return_exceptions=True)
        for s in sessions:
            await s.close()
        await connector.close()
        await audience_connector.close()


async def the_day(args, run: Run, plan: dict, director, session, rng, start_round2, end_round1):
    """The steady minute (round 1, every table saves), the director's click, the timer."""
    # The steady minute: every table saves deal 1 within it.
    run.phase = "steady"
    t0 = run.marks["steady"] = time.monotonic()
    latest = max(1.0, args.duration - 20)  # a save takes ~5–15 s of typing and reading
    for number, key in plan["table_keys"]:
        at = t0 + rng.uniform(0.5, latest)
        run.spawn(table_save(run, session(cookies=True), number, key, at, random.Random(number)))
    # A few tables call the director meanwhile; the second console's director answers.
    calls: asyncio.Queue = asyncio.Queue()
    callers = rng.sample(plan["table_keys"], max(1, len(plan["table_keys"]) // CALL_EVERY_TABLES))
    for number, key in sorted(callers):
        at = t0 + rng.uniform(0.5, max(1.0, args.duration - 30))
        run.spawn(
            table_call(run, session(cookies=True), number, key, at, random.Random(-number), calls)
        )
    run.spawn(director_answers(run, plan["answering"], calls, random.Random(34)))
    await asyncio.sleep(max(0.0, t0 + args.duration - time.monotonic()))

    # «Конец тура!» by the director's click: the dialog, then «Yes, end round 1 now».
    run.phase = "end-click"
    run.marks["end-click"] = time.monotonic()
    post = await director.click("/end/", {"confirm": "yes"}, D_END, query="?confirm=end")
    if post is not None:
        run.marks["click-sent"] = post.sent
        run.marks["click-latency"] = post.latency
        run.marks["click-ok"] = post.outcome == "ok"
        await settle(run, ("end", 1), post.sent, plan, args.phase_max)
    if post is None or post.outcome != "ok":
        # The director could not end it (no page, or the POST failed): end it as the
        # service would, so that the timer's round can still be measured.
        run.marks["click-ok"] = False
        await asyncio.to_thread(end_round1)

    # Between the rounds a share of the hall taps «Я на месте» for round 2.
    run.phase = "check-in"
    t = run.marks["check-in"] = time.monotonic()
    keys = rng.sample(plan["entry_keys"], int(len(plan["entry_keys"]) * CHECKIN_SHARE))
    checking = [
        run.spawn(
            player_checkin(run, session(cookies=True), key, t + rng.uniform(0, CHECKIN_WINDOW_S))
        )
        for key in keys
    ]
    await asyncio.wait(checking, timeout=CHECKIN_WINDOW_S + 4 * args.timeout)

    if args.timer_round:
        # Round 2 on the clock for a short length; the timer (the worker) ends it.
        run.phase = "start-2"
        t = time.monotonic()
        run.marks["start-2"] = t
        ends_at = await asyncio.to_thread(start_round2, args.timer_round)
        if ends_at is None:
            raise HarnessError("round 2 could not be started (round 1 still on the clock?)")
        due = time.monotonic() + (ends_at - datetime.now(UTC)).total_seconds()
        run.marks["timer-due"] = due
        await settle(run, ("start", 2), t, plan, min(args.phase_max, args.timer_round - 2))
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        run.phase = "timer"
        run.marks["timer"] = time.monotonic()
        await settle(run, ("end", 2), due, plan, args.phase_max)


async def the_outage(args, run: Run, session, rng, start_outage_round):
    """The hall's Wi-Fi drops: the round running, every phone and table off the network for
    OUTAGE_S, the round's end (the timer) OUTAGE_END_AT_S into it, and all back within the
    same second; each table's outbox sends the sheet «saved» meanwhile. The minute after the
    return is the one measured (phase «return»)."""
    run.phase = "outage-before"
    t = run.marks["outage-before"] = time.monotonic()
    before = args.outage_before
    started = await asyncio.to_thread(start_outage_round, int(before + OUTAGE_END_AT_S))
    if started is None:
        raise HarnessError("the outage's round could not be started")
    number, ends_at, table_keys = started
    due = time.monotonic() + (ends_at - datetime.now(UTC)).total_seconds()
    run.marks["outage-round"] = number
    run.marks["outage-due"] = due
    down_at = due - OUTAGE_END_AT_S
    run.marks["outage-tables"] = len(table_keys)
    # The tables type and check deal 1 while the round runs, done well before the outage.
    latest = max(1.0, down_at - t - 15)
    for table, key in table_keys:
        run.spawn(
            table_outbox(
                run,
                session(cookies=True),
                table,
                key,
                t + rng.uniform(0.5, latest),
                random.Random(1000 + table),
            )
        )
    await asyncio.sleep(max(0.0, down_at - time.monotonic()))
    run.phase = "outage"
    run.marks["down"] = time.monotonic()
    run.go_offline()
    await asyncio.sleep(OUTAGE_S)
    run.phase = "return"
    run.come_back()
    run.marks["back"] = run.back_at
    await asyncio.sleep(RETURN_MINUTE_S)
    run.phase = "after-return"
    run.marks["return-end"] = time.monotonic()


async def the_audience(args, run: Run, plan: dict, director, session, viewers, rng, start_round):
    """For each N of ``--audience``: the results published and the next round started (its
    tables' deal 1 to save), then N viewers ramped up over ``--audience-ramp`` seconds, then
    the measured minute (phase ``audience-N``): the tables save, and two thirds into it the
    director ends the round by his click. The viewers go on until the end has reached every
    phone (or ``--phase-max``), then stop; the next N starts from a quiet server."""
    slug, number = plan["slug"], plan["session_number"]
    pages = [
        (f"/e/{slug}/results/", A_RESULTS),
        (f"/e/{slug}/results/sessions/{number}/", A_STANDINGS),
    ]
    for n in args.audience:
        run.phase = f"audience-{n}-setup"
        t = time.monotonic()
        began = t
        started = await asyncio.to_thread(start_round)
        if started is None:
            raise HarnessError("the audience's round could not be started")
        rnd, table_keys = started
        await settle(run, ("start", rnd), t, plan, args.phase_max)
        record = {"n": n, "round": rnd, "tables": len(table_keys), "saves": {}, "began": began}
        run.audience.append(record)
        audience = Audience(run, viewers, n, pages, rng.random())
        record["audience"] = audience
        run.phase = f"audience-{n}-ramp"
        record["ramp"] = time.monotonic()
        audience.start(args.audience_ramp)
        await asyncio.sleep(args.audience_ramp)

        run.phase = f"audience-{n}"
        t0 = record["t0"] = time.monotonic()
        lag0, cpu0, server0 = len(run.loop_lag), resource.getrusage(resource.RUSAGE_SELF), None
        with contextlib.suppress(Exception):
            server0 = plan["server_cpu"]()
        click_at = t0 + args.duration * AUDIENCE_CLICK_AT
        # Saved before the round's end: a sheet that comes after it is refused (400) unless
        # its phone names a seat and PIN (issue 32), which these tables' phones do not.
        latest = max(1.0, click_at - t0 - 25)
        for table, key in table_keys:
            at = t0 + rng.uniform(0.5, latest)
            table_rng = random.Random(3000 + table)
            saving = table_save(run, session(True), table, key, at, table_rng, record["saves"])
            run.spawn(saving)
        clicker = run.spawn(end_by_click(run, director, plan, rnd, click_at, record, args))
        await asyncio.sleep(max(0.0, t0 + args.duration - time.monotonic()))
        record["t1"] = time.monotonic()
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        record["harness_cpu"] = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
        with contextlib.suppress(Exception):
            server1 = plan["server_cpu"]()
            record["server_cpu"] = {k: server1.get(k, 0) - server0.get(k, 0) for k in server0}
        record["lag"] = run.loop_lag[lag0:]

        run.phase = f"audience-{n}-after"
        await clicker
        record["until"] = time.monotonic()
        await audience.stop(args.timeout + 1)
        await asyncio.sleep(2.0)  # the server's queue drains before the next N
        record["closed"] = time.monotonic()


async def end_by_click(run: Run, director, plan: dict, rnd: int, at: float, record, args):
    """«Конец тура!» by the director's click at ``at``, as the day's; until every phone saw it.
    If he could not (no page, or the POST failed), the round is ended as the service would
    end it, so that the way of the end to the phones is still measured (from then)."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    post = await director.click("/end/", {"confirm": "yes"}, D_END, query="?confirm=end")
    record["click-ok"] = post is not None and post.outcome == "ok"
    if post is not None:
        record["click-sent"], record["click-latency"] = post.sent, post.latency
        record["click-why"] = f"{post.status or ''} {post.outcome} {post.note}".strip()
    if record["click-ok"]:
        await settle(run, ("end", rnd), post.sent, plan, args.phase_max)
        return
    record["by-service"] = time.monotonic()
    await asyncio.to_thread(plan["end_round"], rnd)
    await settle(run, ("end", rnd), record["by-service"], plan, args.phase_max)


async def settle(run: Run, what: tuple[str, int], since: float, plan: dict, most: float):
    """Wait until every phone has seen ``what`` and the burst it caused was answered (or
    ``most`` seconds), then 2 s more."""
    phones = [f"phone:{k}" for k in plan["entry_keys"]]
    deadline = since + most
    while time.monotonic() < deadline:
        if not run.burst_in_flight and all(what in run.seen[p] for p in phones):
            break
        await asyncio.sleep(0.2)
    await asyncio.sleep(2.0)


# --- building the event (in-process, through the app's services) ------------------------------


def build_event(director, *, tables: int, rounds: int | None, name: str, sheets: bool, start: bool):
    """A skip room of ``tables`` × 4 (the planner's one-room movement for 4 × tables players);
    round 1 running and deal 1 of every table entered if asked."""
    from events import rounds as round_services
    from events import services
    from events.models import Round
    from movements import planner
    from movements.services import session_create
    from scoring.models import TablePlay

    players = tables * 4
    event = services.event_create(owner=director, name=name, date="2026-12-05", venue="Bench")
    for i in range(players):
        services.entry_create(event, last_name=f"Игроков{i + 1:03d}", first_name="Игорь")
    services.draw_make(event, seed="bench-load")
    single = planner.single_rooms(players)
    if [tables, 4] not in single["skip"]:
        raise HarnessError(f"the planner has no {tables} × 4 skip room for {players}: {single}")
    # The planner's ranked options for 400 do not list this one room (they split the field);
    # single_rooms() names it and session_create() builds any such room from kind and size.
    session = session_create(
        event, {"rooms": [{"kind": "skip", "tables": tables, "seats": 4}]}, rounds=rounds
    )
    room = session.rooms.get()
    if start:
        round_services.round_start(Round.objects.get(room=room, number=1))
    if sheets:
        enter_deal_1(TablePlay.objects.filter(round__room=room, round__number=1))
    return event, room


def enter_deal_1(plays) -> int:
    """Deal 1 of each table-play entered (the good sheet) by its declarer, as the table's
    phone would, where it has no sheet yet; how many were entered."""
    from events.models import Seat
    from scoring.models import ScoreSheet
    from scoring.sheets import services as scoring

    contract, trump, (d1, d2), (t1, t2) = GOOD_SHEET
    entered = 0
    for play in plays.select_related("board_set", "table", "round"):
        deal = play.board_set.deals.get(number=1)
        if ScoreSheet.objects.filter(play=play, deal=deal).exists():
            continue
        a, b, c = [s for s in "WNES" if s in deal.active_seats]
        seat = Seat.objects.get(round=play.round, table=play.table, position=a)
        data = {
            "declarer": a,
            "contract": contract,
            "trump": trump,
            "defenders": {b: d1, c: d2},
            "tricks": {a: t1, b: t2},
        }
        scoring.sheet_record(play, deal, data, by_entry=seat.entry)
        entered += 1
    return entered


# --- per-request cost (in-process, Django's test Client) ---------------------------------------

TEAM_SIZE = 12
TEAM_0 = "20 t., calls, check-ins, team of 1"
TEAM_N = f"… team of {TEAM_SIZE}"


def add_calls_and_checkins(event, room, director):
    """Three tables of ``room`` call the director (one answered «Иду»), and a quarter of its
    players are checked in for round 2 by hand."""
    from events import calls, checkin
    from events.models import Entry, Seat, TableCall

    for table in room.tables.order_by("number")[:3]:
        calls.call_open(table, reason="dispute")
    calls.call_going(TableCall.objects.filter(table__room=room).first(), by=director)
    seats = Seat.objects.filter(round__room=room, round__number=2, table__isnull=False)
    entries = Entry.objects.filter(pk__in=seats.values("entry")).order_by("pk")
    for entry in entries[: entries.count() // 4]:
        checkin.checkin_mark(room.session, entry, round=2, by=director)


def add_team(event, director, numbers: range):
    """Accounts ``numbers`` of the event's team, the roles in turn — a room director of room
    1 first, then a director and a secretary; returns the first room director added."""
    from events import staff

    roles = ("room", "director", "secretary")
    member = None
    for i in numbers:
        role = roles[i % 3]
        row = staff.staff_add(
            event,
            f"bench_team_{event.pk}_{i}",
            role,
            [1] if role == "room" else [],
            uuid.uuid4().hex,
            by_user=director,
        )
        if role == "room" and member is None:
            member = row.user
    return member


C_FULL = "console.html (full board)"
COST_ENDPOINTS = [P_CLOCK, P_PLACES, H_CLOCK, C_JSON, C_FULL, TRIVIAL]


def request_costs(
    event, room, director, repeat: int, budget: float = 3.0
) -> dict[str, tuple[str, float]]:
    """Queries and median ms of each polled endpoint on this event, warm: ``repeat``
    requests, or fewer (3 at least) once ``budget`` seconds are spent on one endpoint."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from events import clockdoc
    from events.models import Seat

    middle = room.tables.count() // 2 or 1
    seat = (
        Seat.objects.filter(round__room=room, round__number=1, table__number=middle)
        .select_related("entry")
        .first()
    )
    key = seat.entry.key
    client = Client(HTTP_HOST="127.0.0.1")  # an allowed host outside pytest
    client.force_login(director)
    console = f"/director/events/{event.pk}/rooms/{room.pk}/console.html"
    version = client.get(console)["X-Console-Version"]
    urls = {
        P_CLOCK: (f"/p/{key}/clock.json", {}),
        P_PLACES: (f"/p/{key}/places", {}),
        H_CLOCK: (f"/e/{event.slug}/clock.json", {}),
        C_JSON: (f"{console}?since={version}", {"HTTP_ACCEPT": "text/html"}),
        C_FULL: (console, {"HTTP_ACCEPT": "text/html"}),
        TRIVIAL: ("/i18n/setlang/", {"HTTP_ACCEPT": "application/json"}),
    }
    out = {}
    for name, (url, extra) in urls.items():
        client.get(url, **extra)
        queries, times = [], []
        began_all = time.monotonic()
        for i in range(repeat):
            if i >= 3 and time.monotonic() - began_all > budget:
                break
            if name == C_FULL:
                # What a full console costs is its build after a change (a save, the clock);
                # unchanged, every console takes the copy built for the version.
                clockdoc.room_changed(room.pk, clock=False)
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                response = client.get(url, **extra)
                times.append((time.perf_counter() - began) * 1000)
            if response.status_code not in (200, 204):
                raise HarnessError(f"{url} answered {response.status_code} in-process")
            queries.append(len(captured.captured_queries))
        q = str(queries[0]) if min(queries) == max(queries) else f"{min(queries)}–{max(queries)}"
        out[name] = (q, statistics.median(times))
    return out


# --- the server, as `make run` starts it -------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
            children[int(parts[1])].append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{pid}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
            total += int(parts[11]) + int(parts[12])
    return total / ticks


class Server:
    def __init__(self, port: int, env: dict, log_path: Path):
        self.port, self.env, self.log_path = port, env, log_path
        self.proc: subprocess.Popen | None = None
        self.groups: set[int] = set()  # serve's children lead their own process groups

    def start(self):
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.groups.add(self.proc.pid)

    def remember_children(self):
        if self.proc is not None:
            for pid in descendants(self.proc.pid):
                with contextlib.suppress(ProcessLookupError):
                    self.groups.add(os.getpgid(pid))

    def pids(self) -> dict[str, list[int]]:
        """The web server's and the worker's processes (by command line)."""
        out = {"web": [], "worker": []}
        for pid in descendants(self.proc.pid) if self.proc else []:
            with contextlib.suppress(OSError):
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                out["worker" if b"celery" in cmd else "web"].append(pid)
        return out

    def wait_healthy(self, timeout: float) -> None:
        import urllib.error
        import urllib.request

        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise HarnessError(f"the server exited with {self.proc.returncode}: {self.tail()}")
            try:
                with urllib.request.urlopen(f"http://{HOST}:{self.port}/healthz", timeout=5) as r:
                    # 200 also while «degraded» (a worker not up yet): wait for «ok».
                    if r.status == 200 and json.loads(r.read() or b"{}").get("status") == "ok":
                        self.remember_children()
                        return
            except (urllib.error.URLError, OSError) as error:
                last = str(error)
            time.sleep(0.5)
        raise HarnessError(
            f"/healthz did not answer 200 within {timeout:.0f} s ({last}): {self.tail()}"
        )

    def tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n" + "\n".join(self.log_path.read_text().splitlines()[-lines:])
        return ""

    def stop(self):
        if self.proc is None:
            return
        self.remember_children()
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGTERM)  # serve stops its children in order
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=25)
        for group in self.groups:  # whatever is left of serve, gunicorn and the worker
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.log.close()


def redis_cleanup(url: str, queue: str) -> None:
    """Remove this run's queue, its bindings and unacknowledged (eta) messages, and what an
    earlier, killed run of this harness left (queues named bench-load-…); nothing else."""
    import redis

    client = redis.Redis.from_url(url)
    prefix = queue.rsplit("-", 1)[0] + "-"
    try:
        client.delete(queue)
        for pattern in (f"{prefix}*", f"_kombu.binding*.{prefix}*"):
            for key in client.scan_iter(match=pattern):
                client.delete(key)
        for tag, payload in client.hscan_iter("unacked"):
            with contextlib.suppress(ValueError, IndexError, TypeError):
                if str(json.loads(payload)[2]).startswith(prefix):
                    client.hdel("unacked", tag)
                    client.zrem("unacked_index", tag)
    finally:
        client.close()


# --- the report ------------------------------------------------------------------------------


def endpoint_rows(samples: list[Sample]) -> dict[str, dict]:
    rows = {}
    for name in ORDER:
        mine = [s for s in samples if s.endpoint == name and s.done]
        if not mine:
            continue
        first = min(s.sent for s in mine)
        last = max(s.sent + s.latency for s in mine)
        lat = [s.latency * 1000 for s in mine]
        rows[name] = {
            "n": len(mine),
            "rps": len(mine) / max(1e-6, last - first),
            "p50": pct(lat, 50),
            "p95": pct(lat, 95),
            "p99": pct(lat, 99),
            "max": max(lat),
            "errors": sum(s.outcome == "error" for s in mine),
            "timeouts": sum(s.outcome == "timeout" for s in mine),
            "notes": sorted({s.note for s in mine if s.note}),
        }
    return rows


def print_endpoints(title: str, rows: dict[str, dict]) -> None:
    base = rows.get(TRIVIAL, {}).get("p95")
    print(f"\n{title}")
    head = f"{'endpoint':36} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
    print(head + f" {'max ms':>8} {'errors':>6} {'timeouts':>8} {'p95/trivial':>11}")
    for name, r in rows.items():
        ratio = f"{r['p95'] / base:.1f}×" if base else "—"
        print(
            f"{name:36} {r['n']:8d} {r['rps']:7.1f} {r['p50']:8.1f} {r['p95']:8.1f} "
            f"{r['p99']:8.1f} {r['max']:8.0f} {r['errors']:6d} {r['timeouts']:8d} {ratio:>11}"
        )
    notes = {n: r["notes"] for n, r in rows.items() if r["notes"]}
    for name, kinds in notes.items():
        print(f"  {name}: failures were {', '.join(kinds[:6])}")


def ratio_goals(rows: dict, base: float | None, run, args):
    """``ratio_goal(endpoint, most, what)``: a goal that the endpoint's p95 is at most
    ``most`` times the trivial endpoint's ``base`` (the same run's or minute's), printed with
    the ratio to the idle trivial beside it."""
    idle = endpoint_rows([s for s in run.samples if s.phase == "idle"])
    idle_base = idle.get(TRIVIAL, {}).get("p95")
    cap = args.timeout * 1000

    def ratio_goal(name: str, most: float, what: str):
        r = rows.get(name)
        if not r or not base:
            return goal(False, f"{what}: not measured")
        also = (
            f"; {r['p95'] / idle_base:.0f}× the idle trivial {idle_base:.1f} ms"
            if idle_base
            else ""
        )
        text = (
            f"{what} p95 {r['p95']:.0f} ms ≤ {most:g}× trivial {base:.1f} ms "
            f"(is {r['p95'] / base:.1f}×{also})"
        )
        if r["p95"] >= cap or base >= cap:
            # Both stuck in one queue of timeouts: a ratio near 1 would mean nothing.
            return goal(False, text + " — timeouts inside the p95: no ratio")
        return goal(r["p95"] <= most * base, text)

    return ratio_goal


def goal(ok: bool, text: str) -> bool:
    print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    return ok


def round_event_report(
    run: Run, plan: dict, what, since: float, label: str, until: float, ref: str
):
    phones = [f"phone:{k}" for k in plan["entry_keys"]]
    times = [run.seen[p][what] - since for p in phones if what in run.seen[p]]
    missing = len(phones) - len(times)
    burst = [
        s
        for s in run.samples
        if s.endpoint == P_PLACES
        and s.cause in ("announcement", "change")
        and since <= s.sent <= until
    ]
    out = {"label": label, "missing": missing, "times": times, "burst": burst}
    print(f"\n{label}")
    if times:
        print(
            f"  seen on {len(times)}/{len(phones)} phones; from {ref}: "
            f"p50 {pct(times, 50):.2f} s, p95 {pct(times, 95):.2f} s, last phone {max(times):.2f} s"
        )
    else:
        print(f"  seen on 0/{len(phones)} phones")
    for who in ("hall", "console:console 1"):
        if what in run.seen.get(who, {}):
            print(f"  {who}: {run.seen[who][what] - since:.2f} s")
    if burst:
        lat = [s.latency for s in burst]
        bad = sum(s.outcome != "ok" for s in burst)
        done = max(s.sent + s.latency for s in burst) - since
        print(
            f"  seat-fragment burst: {len(burst)} requests ({len(burst) / len(phones):.1f} per "
            f"phone), p50 {pct(lat, 50):.2f} s, p95 {pct(lat, 95):.2f} s, max {max(lat):.2f} s, "
            f"{bad} errors/timeouts; last answer {done:.2f} s after"
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of 4 (default 100)")
    parser.add_argument("--duration", type=float, default=60, help="steady seconds (60)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=PHONE_PLACES_S + 2,
        help="seconds before the steady minute (22: every phone has fetched its fragment once)",
    )
    parser.add_argument("--timeout", type=float, default=10, help="per-request timeout, s")
    parser.add_argument(
        "--connections", type=int, default=1500, help="client connection limit (1500)"
    )
    parser.add_argument("--phase-max", type=float, default=20, help="longest wait per round event")
    parser.add_argument(
        "--timer-round", type=int, default=20, help="round 2's length for the timer (0: skip)"
    )
    parser.add_argument("--idle", type=int, default=10, help="idle requests per endpoint")
    parser.add_argument("--no-cost", action="store_true", help="skip the per-request cost table")
    parser.add_argument("--repeat", type=int, default=10, help="requests per cost figure")
    parser.add_argument(
        "--phases",
        default="day,outage,audience",
        help="day (the steady minute, the click, the timer), outage (the reconnect storm), "
        "audience (N viewers on the public results beside the day's load): comma-separated, "
        "run in that order (default all three, about 7 minutes in all)",
    )
    parser.add_argument(
        "--audience",
        default="1000",
        help="the audience phase's viewers, N or N1,N2,…: one measured minute for each, one "
        "after the other (1000; the goals are at 1000, or at the first N without it)",
    )
    parser.add_argument(
        "--audience-ramp",
        type=float,
        default=AUDIENCE_REFRESH_S,
        help="seconds over which the viewers open their pages, before the minute (10)",
    )
    parser.add_argument(
        "--audience-connections",
        type=int,
        default=1500,
        help="the viewers' own client connection limit (1500)",
    )
    parser.add_argument(
        "--outage-before",
        type=float,
        default=35,
        help="seconds of the outage's round before the connection drops (35)",
    )
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="against make run's embedded default (SQLite with synchronous=FULL and the "
        "filesystem broker, no PostgreSQL nor Redis) instead; the day phase only",
    )
    parser.add_argument(
        "--sqlite-synchronous",
        choices=("FULL", "NORMAL"),
        default="FULL",
        help="with --embedded: the server's SQLite synchronous (FULL, the app's; NORMAL only "
        "to measure what FULL costs: bench/settings_sqlite_normal.py)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the VAR_DIR (logs)")
    args = parser.parse_args()
    args.phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    unknown = sorted(set(args.phases) - {"day", "outage", "audience"})
    if unknown or not args.phases:
        parser.error(f"--phases: day, outage and/or audience, not {','.join(unknown) or 'nothing'}")
    try:
        args.audience = [int(n) for n in args.audience.split(",") if n.strip()]
    except ValueError:
        parser.error(f"--audience: whole numbers separated by commas, not {args.audience!r}")
    if not args.audience or min(args.audience) < 1:
        parser.error("--audience: at least one viewer")
    if not 0 < args.audience_ramp <= 120:
        parser.error("--audience-ramp: more than 0 and at most 120 seconds")
    if "audience" in args.phases and args.duration < 15:
        parser.error("--duration: at least 15 s with the audience (saves, then the click)")
    if args.outage_before < 20:
        parser.error("--outage-before: at least 20 s (the tables type and check deal 1)")

    if args.embedded and args.phases != ["day"]:
        parser.error("--embedded: the day phase only (--phases day)")
    if args.sqlite_synchronous != "FULL" and not args.embedded:
        parser.error("--sqlite-synchronous: with --embedded only")
    if not args.embedded and urlparse(REDIS_URL).hostname not in ("127.0.0.1", "localhost"):
        raise HarnessError("REDIS_URL must point at this machine")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, 4 * args.connections)
    if "audience" in args.phases:
        wanted += 4 * args.audience_connections
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    # Sockets for every virtual client here and in the server (which inherits the limit).
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    var_dir = Path(tempfile.mkdtemp(prefix="bench_load-"))
    queue = f"bench-load-{uuid.uuid4().hex[:6]}"
    load_before = os.getloadavg()
    began = time.monotonic()

    def on_signal(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in background
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGALRM, on_signal)
    # A hard stop, whatever happens: setup, the load, the costs and the teardown.
    outage_s = args.outage_before + OUTAGE_S + RETURN_MINUTE_S if "outage" in args.phases else 0
    # Each N: the round's start settled, the ramp, the minute, the end settled, the drain;
    # and a minute to build its round (deal 1 of the round before entered in-process).
    audience_s = (
        len(args.audience)
        * (
            args.phase_max
            + 2
            + args.audience_ramp
            + args.duration
            + args.phase_max
            + 2
            + args.timeout
            + 1
            + 2
            + 60
        )
        if "audience" in args.phases
        else 0
    )
    signal.alarm(
        int(
            args.duration
            + args.warmup
            + 3 * args.phase_max
            + args.timer_round
            + outage_s
            + audience_s
            + 420
        )
    )
    server = None
    ok = True
    print(
        f"load_event_day: {args.tables} tables × 4 = {args.tables * 4} phones; "
        f"{os.cpu_count()} cores, load average {load_before[0]:.2f} {load_before[1]:.2f} "
        f"{load_before[2]:.2f} before the run; VAR_DIR {var_dir}"
    )
    try:
        if args.embedded:
            backend = throwaway_embedded(str(var_dir), CELERY_TASK_DEFAULT_QUEUE=queue)
        else:
            backend = throwaway_database(
                DB_NAME, REDIS_URL=REDIS_URL, VAR_DIR=str(var_dir), CELERY_TASK_DEFAULT_QUEUE=queue
            )
        with backend as database_url:
            from django.contrib.auth import get_user_model
            from django.core.management import call_command
            from django.db import connections

            call_command("loaddata", "schemes", verbosity=0)  # as `make migrate` does
            password = uuid.uuid4().hex
            director = get_user_model().objects.create_user("bench_director", password=password)

            costs = {}
            if not args.no_cost:
                t = time.monotonic()
                sizes = [("20 tables, 10 rounds", 20, 10), ("100 tables, 10 rounds", 100, 10)]
                sizes.append(("100 tables, 100 rounds", 100, None))
                for label, tables, rounds in sizes:
                    event, room = build_event(
                        director, tables=tables, rounds=rounds, name=label, sheets=True, start=True
                    )
                    if rounds is None:
                        label = f"100 tables, {room.rounds_planned} rounds"
                    costs[label] = request_costs(event, room, director, args.repeat)
                    if tables == 20:
                        small = (event, room)
                # The console beside a team (issue 34): calls open and check-ins on the
                # 20-table event, then a team of 12 — the console of one of them.
                event, room = small
                add_calls_and_checkins(event, room, director)
                member = add_team(event, director, range(1))
                costs[TEAM_0] = request_costs(event, room, member, args.repeat)
                add_team(event, director, range(1, TEAM_SIZE))
                costs[TEAM_N] = request_costs(event, room, member, args.repeat)
                print(f"per-request cost measured in {time.monotonic() - t:.0f} s")

            t = time.monotonic()
            event, room = build_event(
                director, tables=args.tables, rounds=None, name="Load", sheets=False, start=False
            )
            from events.models import Entry, Round, TablePlay

            # The players check in before each round (issue 34): between rounds 1 and 2.
            room.session.checkin_each_round = True
            room.session.save(update_fields=["checkin_each_round"])
            plan = {
                "username": "bench_director",
                "password": password,
                "event_pk": event.pk,
                "room_pk": room.pk,
                "slug": event.slug,
                "entry_keys": list(Entry.objects.filter(event=event).values_list("key", flat=True)),
                # Round 1's link of each table (the table's QR code is a gate that asks a
                # player's PIN: the phones here come as their table's players already did).
                "table_keys": list(
                    TablePlay.objects.filter(round__room=room, round__number=1)
                    .order_by("table__number")
                    .values_list("table__number", "key")
                ),
                "static_path": "/static/js/player.js",
                "session_number": room.session.number,
            }
            print(
                f"load event: {room.tables.count()} tables, {room.rounds_planned} rounds, "
                f"{len(plan['entry_keys'])} players, built in {time.monotonic() - t:.1f} s"
            )
            call_command("collectstatic", interactive=False, verbosity=0)  # as `make run` does
            connections.close_all()

            def start_round2(seconds: int):
                from django.core.exceptions import ValidationError

                from events import rounds as round_services

                try:
                    rnd = round_services.round_start(
                        Round.objects.get(room=room, number=2), length_seconds=seconds
                    )
                    return rnd.ends_at
                except ValidationError:
                    return None
                finally:
                    connections.close_all()

            def end_round1():
                from django.core.exceptions import ValidationError

                from events import rounds as round_services

                try:
                    with contextlib.suppress(ValidationError):
                        round_services.round_end_now(Round.objects.get(room=room, number=1))
                finally:
                    connections.close_all()

            def start_outage_round(seconds: int):
                """End the round on the clock (if any), start the next one for ``seconds``:
                its number, its end, its tables' round links."""
                from django.core.exceptions import ValidationError

                from events import rounds as round_services

                try:
                    for rnd in Round.objects.filter(room=room).on_clock():
                        round_services.round_end_now(rnd)
                    rnd = (
                        Round.objects.filter(room=room, state=Round.State.PENDING)
                        .order_by("number")
                        .first()
                    )
                    if rnd is None:
                        return None
                    rnd = round_services.round_start(rnd, length_seconds=seconds)
                    keys = list(
                        TablePlay.objects.filter(round=rnd)
                        .order_by("table__number")
                        .values_list("table__number", "key")
                    )
                    return rnd.number, rnd.ends_at, keys
                except ValidationError:
                    return None
                finally:
                    connections.close_all()

            def end_round(number: int):
                """End round ``number`` now as the director's click would (if on the clock)."""
                from django.core.exceptions import ValidationError

                from events import rounds as round_services

                try:
                    with contextlib.suppress(ValidationError):
                        round_services.round_end_now(Round.objects.get(room=room, number=number))
                finally:
                    connections.close_all()

            plan["end_round"] = end_round

            def start_audience_round():
                """Before an audience: the round on the clock (if any) ends with deal 1 of
                every table entered, so that the standings have figures; the results are
                published; the next round starts (its own length). Its number, its tables'
                round links."""
                from django.core.exceptions import ValidationError

                from events import rounds as round_services
                from events import services

                try:
                    for rnd in Round.objects.filter(room=room).on_clock():
                        enter_deal_1(TablePlay.objects.filter(round=rnd))
                        round_services.round_end_now(rnd)
                    event.refresh_from_db()
                    if not event.results_public:
                        services.event_set_results_public(event, True)
                    rnd = (
                        Round.objects.filter(room=room, state=Round.State.PENDING)
                        .order_by("number")
                        .first()
                    )
                    if rnd is None:
                        return None
                    rnd = round_services.round_start(rnd)
                    keys = list(
                        TablePlay.objects.filter(round=rnd)
                        .order_by("table__number")
                        .values_list("table__number", "key")
                    )
                    return rnd.number, keys
                except ValidationError:
                    return None
                finally:
                    connections.close_all()

            port = free_port()
            env = dict(os.environ)
            env.update(VAR_DIR=str(var_dir), CELERY_TASK_DEFAULT_QUEUE=queue, PORT=str(port))
            if not args.embedded:
                env.update(DATABASE_URL=database_url, REDIS_URL=REDIS_URL)
            elif args.sqlite_synchronous == "NORMAL":
                env.update(DJANGO_SETTINGS_MODULE="bench.settings_sqlite_normal")
            server = Server(port, env, var_dir / "serve.log")
            try:
                server.start()
                server.wait_healthy(90)
                pids = server.pids()
                print(
                    f"server up on http://{HOST}:{port}/ ({len(pids['web'])} web processes, "
                    f"{len(pids['worker'])} worker processes) after {time.monotonic() - began:.0f} s"
                )

                run = Run(base=f"http://{HOST}:{port}", timeout=args.timeout)
                plan["server_cpu"] = lambda: {k: cpu_seconds(v) for k, v in server.pids().items()}
                cpu_before = {k: cpu_seconds(v) for k, v in pids.items()}
                self_before = resource.getrusage(resource.RUSAGE_SELF)
                wall = time.monotonic()
                asyncio.run(
                    drive(
                        args,
                        run,
                        plan,
                        start_round2,
                        end_round1,
                        start_outage_round,
                        start_audience_round,
                    )
                )
                wall = time.monotonic() - wall
                self_after = resource.getrusage(resource.RUSAGE_SELF)
                cpu_after = {k: cpu_seconds(v) for k, v in server.pids().items()}
                load_after = os.getloadavg()

                log_path = server.log_path
            except BaseException:
                print(f"server log tail:{server.tail()}", file=sys.stderr)
                raise
            finally:
                # Before the database is dropped: no request of the server may find it gone.
                server.stop()
                server = None
            # What the database says happened.
            from events.models import Announcement
            from scoring.models import ScoreSheet

            sheets = ScoreSheet.objects.filter(play__round__room=room, play__round__number=1)
            saved_sheets = sheets.count()
            fired = {
                (a.kind, a.round.number): a
                for a in Announcement.objects.filter(room=room).select_related("round")
            }
            outage_sheets = {}
            if "outage-round" in run.marks:
                from django.db.models import Count

                outage_sheets = dict(
                    ScoreSheet.objects.filter(
                        play__round__room=room,
                        play__round__number=run.marks["outage-round"],
                        deal__number=1,
                    )
                    .annotate(versions_n=Count("versions"))
                    .values_list("play__table__number", "versions_n")
                )
            from django.db.models import Count

            from events.models import CheckIn, TableCall

            team = {
                "checkins": CheckIn.objects.filter(session=room.session, round=2).count(),
                "calls": dict(
                    TableCall.objects.filter(table__room=room)
                    .values_list("state")
                    .annotate(n=Count("id"))
                    .values_list("state", "n")
                ),
            }
            if not args.no_cost:
                room.refresh_from_db()
                costs["load event after the run"] = request_costs(
                    event, room, director, args.repeat
                )
            server_log = log_path.read_text(errors="replace")
            ok = report(
                args,
                run,
                plan,
                costs,
                saved_sheets=saved_sheets,
                team=team,
                outage_sheets=outage_sheets,
                fired=fired,
                wall=wall,
                harness_cpu=(self_after.ru_utime + self_after.ru_stime)
                - (self_before.ru_utime + self_before.ru_stime),
                server_cpu={k: cpu_after.get(k, 0) - cpu_before.get(k, 0) for k in cpu_before},
                load=(load_before, load_after),
                server_log=server_log,
            )
    except HarnessError as error:
        print(f"\nHARNESS FAILED: {error}", file=sys.stderr)
        ok = False
    except KeyboardInterrupt as error:
        print(f"\nHARNESS STOPPED: {error or 'Ctrl-C'}", file=sys.stderr)
        ok = False
    except Exception:
        import traceback

        traceback.print_exc()
        print("\nHARNESS FAILED (the traceback above)", file=sys.stderr)
        ok = False
    finally:
        signal.alarm(0)
        if server is not None:
            server.stop()
        if not args.embedded:
            with contextlib.suppress(Exception):
                redis_cleanup(REDIS_URL, queue)
        if args.keep or not ok:
            print(f"VAR_DIR kept: {var_dir}", file=sys.stderr)
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    print(f"\nload_event_day: {time.monotonic() - began:.0f} s in all")
    return 0 if ok else 1


def report(args, run: Run, plan: dict, costs: dict, **facts) -> bool:
    """Print the tables and the goal lines; False if the harness itself did not work."""
    steady = [s for s in run.samples if s.phase == "steady"]
    later = [s for s in run.samples if s.phase in ("end-click", "check-in", "start-2", "timer")]
    rows = endpoint_rows(steady)
    print_endpoints(
        "== the idle server (before the phones: one request at a time, the same client)",
        endpoint_rows([s for s in run.samples if s.phase == "idle"]),
    )
    day = "day" in args.phases
    if day:
        print_endpoints(
            f"== the steady minute ({args.duration:.0f} s: {len(plan['entry_keys'])} phones, the "
            f"hall screen, 2 consoles, {len(plan['table_keys'])} tables saving; round 1 running; "
            f"timeouts count as {args.timeout:.0f} s)",
            rows,
        )
        print_endpoints(
            "== after the steady minute (the click, round 2 and its timer)", endpoint_rows(later)
        )
    # The audience counts its own errors (its goals): the day's line is the rest of the run.
    all_rows = endpoint_rows(
        [s for s in run.samples if s.phase != "setup" and not s.phase.startswith("audience")]
    )

    lag = run.loop_lag or [0.0]
    harness_cpu, server_cpu, wall = facts["harness_cpu"], facts["server_cpu"], facts["wall"]
    (b1, b5, _), (a1, a5, _) = facts["load"]
    print(
        f"\nmachine: load average {b1:.2f}/{b5:.2f} (1/5 min) before, {a1:.2f}/{a5:.2f} after; "
        f"over {wall:.0f} s of load: web server {server_cpu.get('web', 0):.0f} CPU-s, worker "
        f"{server_cpu.get('worker', 0):.0f} CPU-s, this harness {harness_cpu:.0f} CPU-s "
        f"({os.cpu_count()} cores = {wall * (os.cpu_count() or 1):.0f} CPU-s); the harness's "
        f"loop woke late by p95 {pct(lag, 95) * 1000:.0f} ms, max {max(lag) * 1000:.0f} ms; "
        f"at most {run.peak} requests in flight at once (connection limit {args.connections}"
        f"{': reached, so some waited for a connection' if run.peak >= args.connections else ''})"
    )
    saves = run.saves
    saved = sum(v == "saved" for v in saves.values())
    if day:
        in_minute = sum(s.endpoint == T_SAVE and s.outcome == "ok" for s in steady)
        print(
            f"sheets: {saved}/{len(plan['table_keys'])} tables saved deal 1 through the form, "
            f"{in_minute} of them within the steady minute "
            f"({facts['saved_sheets']} sheets of round 1 in the database)"
        )
        failures = defaultdict(int)
        for v in saves.values():
            if v != "saved":
                failures[v] += 1
        for why, n in sorted(failures.items(), key=lambda kv: -kv[1])[:5]:
            print(f"  {n} tables: {why}")
        not_started = len(plan["table_keys"]) - len(saves)
        if not_started:
            print(f"  {not_started} tables did not get to save before the minute was over")
    if day:
        team_report(run, facts["team"])
    errors_in_log = facts["server_log"].count("Traceback")
    print(
        f"server log: {errors_in_log} tracebacks, "
        f"{facts['server_log'].count('WORKER TIMEOUT')} gunicorn worker timeouts"
    )

    click_sent = run.marks.get("click-sent")
    events = []
    if not day:
        pass
    elif click_sent is None:
        print("\n== «Конец тура!» by the director's click: the console's page never came")
        events.append(
            {
                "label": "end of round 1 (the click)",
                "missing": len(plan["entry_keys"]),
                "times": [],
                "burst": [],
            }
        )
    else:
        print(
            f"\n== «Конец тура!» by the director's click: the POST answered in "
            f"{run.marks['click-latency'] * 1000:.0f} ms ({'ok' if run.marks['click-ok'] else 'FAILED'})"
        )
        day_end = run.marks.get("day-end", run.marks.get("end", time.monotonic()))
        until = run.marks.get("start-2", day_end)
        events.append(
            round_event_report(
                run, plan, ("end", 1), click_sent, "end of round 1 (the click)", until, "the click"
            )
        )
    if "timer-due" in run.marks:
        due = run.marks["timer-due"]
        a = facts["fired"].get(("end", 2))
        lag = f"{(a.fired_at - a.due_at).total_seconds():.2f} s" if a and a.due_at else "not fired"
        start = run.marks["start-2"]
        round_event_report(
            run, plan, ("start", 2), start, "start of round 2 (round_start)", due, "the start"
        )
        print(
            f"\n== «Конец тура!» by the timer (round 2 of {args.timer_round} s): fired {lag} after due"
        )
        events.append(
            round_event_report(
                run,
                plan,
                ("end", 2),
                due,
                "end of round 2 (the timer)",
                run.marks.get("day-end", run.marks["end"]),
                "the due instant",
            )
        )

    if costs:
        labels = list(costs)
        print("\n== per-request cost, in-process (Django test Client, warm; queries / median ms)")
        print(f"{'endpoint':36}" + "".join(f" {label:>26}" for label in labels))
        for name in COST_ENDPOINTS:
            cells = []
            for label in labels:
                q, ms = costs[label][name]
                cells.append(f" {q + ' q / ' + f'{ms:.1f} ms':>26}")
            print(f"{name:36}" + "".join(cells))

    print("\n== goals (ratios to the trivial endpoint's p95 in the same run)")
    base = rows.get(TRIVIAL, {}).get("p95")

    ratio_goal = ratio_goals(rows, base, run, args)

    if day:
        ratio_goal(P_CLOCK, 2, "clock poll")
        ratio_goal(P_PLACES, 4, "seat fragment")
        ratio_goal(T_SAVE, 10, "sheet save")
    errors = sum(r["errors"] for r in all_rows.values())
    timeouts = sum(r["timeouts"] for r in all_rows.values())
    goal(
        errors == 0 and timeouts == 0 and (not day or saved == len(plan["table_keys"])),
        "0 errors and 0 timeouts over the whole run"
        + (" before the audience" if "audience" in args.phases else "")
        + f": {errors} errors, {timeouts} timeouts"
        + (f"; {saved}/{len(plan['table_keys'])} sheets saved" if day else ""),
    )
    for e in events:
        t = max(e["times"]) if e["times"] else float("inf")
        goal(
            e["missing"] == 0 and t <= 5,
            f"{e['label']}: seen on all phones within 5 s (last {t:.2f} s, {e['missing']} never)",
        )
        b = e["burst"]
        worst = max((s.latency for s in b), default=0.0)
        bad = sum(s.outcome != "ok" for s in b)
        goal(
            bool(b) and bad == 0 and worst <= 5,
            f"{e['label']}: the seat-fragment burst answered within 5 s "
            f"({len(b)} requests, slowest {worst:.2f} s, {bad} failed)",
        )
    if TEAM_N in costs:
        for name in (C_JSON, C_FULL):
            qa, ma = costs[TEAM_0][name]
            qb, mb = costs[TEAM_N][name]
            flat = _queries(qb) <= _queries(qa) and mb <= 1.5 * ma + 1.0
            goal(
                flat,
                f"{name} flat with a team of {TEAM_SIZE}: {qa} → {qb} queries, "
                f"{ma:.1f} → {mb:.1f} ms",
            )
    if costs:
        labels = list(costs)
        small, big, long = labels[0], labels[1], labels[2]
        for name in COST_ENDPOINTS[:-1]:
            for a, b, what in ((small, big, "20 → 100 tables"), (big, long, "10 → 100 rounds")):
                qa, ma = costs[a][name]
                qb, mb = costs[b][name]
                flat = _queries(qb) <= _queries(qa) and mb <= 1.5 * ma + 1.0
                goal(flat, f"{name} flat {what}: {qa} → {qb} queries, {ma:.1f} → {mb:.1f} ms")
    print(
        "  (flat: no more queries, and ms at most 1.5× + 1 ms; the machine is shared, "
        "so ms are noisy)"
    )
    if day:
        team_goals(run, facts["team"], ratio_goal)
    harness_ok = not day or (bool(rows.get(TRIVIAL)) and bool(rows.get(P_CLOCK)))
    if "outage" in args.phases:
        harness_ok = outage_report(args, run, plan, facts) and harness_ok
    if "audience" in args.phases:
        harness_ok = audience_report(args, run, plan) and harness_ok
    if not harness_ok:
        print("the harness did not get its measurements", file=sys.stderr)
    return harness_ok


def team_report(run: Run, team: dict) -> None:
    """The tables' calls and the check-in of the day (issue 34)."""
    calls = list(run.calls.values())
    answered = [c for c in calls if c.answered is not None and c.sent is not None]
    seen = [c.going_seen - c.answered for c in answered if c.going_seen is not None]
    print(
        f"calls: {len(calls)} tables called the director, {len(answered)} answered «Иду» on "
        f"the console, {sum(c.outcome == 'closed' for c in calls)} seen closed on their "
        f"phones; in the database {team['calls'] or 'none'}"
    )
    if seen:
        print(
            f"  «Судья идёт» on the calling phone after the «Иду» click: "
            f"p50 {pct(seen, 50):.1f} s, max {max(seen):.1f} s (calls.js polls every "
            f"{CALL_POLL_S:.0f} s ± 20 %)"
        )
    for c in calls:
        if c.outcome != "closed":
            print(f"  table {c.number}: {c.outcome}")
    checked = sum(v == "checked in" for v in run.checkins.values())
    print(
        f"check-in: {checked}/{len(run.checkins)} players tapped «Я на месте» between the "
        f"rounds; {team['checkins']} check-ins for round 2 in the database"
    )
    for why in sorted({v for v in run.checkins.values() if v != "checked in"})[:5]:
        print(f"  {sum(v == why for v in run.checkins.values())} players: {why}")


def team_goals(run: Run, team: dict, ratio_goal) -> None:
    calls = list(run.calls.values())
    closed = sum(c.outcome == "closed" for c in calls)
    goal(
        bool(calls) and closed == len(calls) and team["calls"].get("closed", 0) == len(calls),
        f"every call answered «Иду» and «Решено», seen on its phone: {closed}/{len(calls)}",
    )
    late = [
        c.going_seen - c.answered
        for c in calls
        if c.answered is not None and c.going_seen is not None
    ]
    worst = max(late, default=float("inf"))
    goal(
        len(late) == len(calls) and worst <= CALL_POLL_S * 1.2 + 2,
        f"«Судья идёт» on the calling phone within one poll of the click "
        f"(slowest {worst:.1f} s, ≤ {CALL_POLL_S * 1.2 + 2:.0f} s)",
    )
    checked = sum(v == "checked in" for v in run.checkins.values())
    goal(
        bool(run.checkins) and checked == len(run.checkins) == team["checkins"],
        f"every «Я на месте» recorded once: {checked}/{len(run.checkins)} answered, "
        f"{team['checkins']} in the database",
    )
    ratio_goal(T_CALL, 10, "«Позвать судью» POST (the steady minute)")


OUTAGE_PHASES = ("outage-before", "outage", "return", "after-return")


def outage_report(args, run: Run, plan: dict, facts: dict) -> bool:
    """The reconnect storm's figures and goals (issue 25); False if it was not measured."""
    if "back" not in run.marks:
        print("\n== the outage: it did not happen (the harness stopped before)")
        return False
    number, back = run.marks["outage-round"], run.marks["back"]
    a = facts["fired"].get(("end", number))
    due = run.marks["outage-due"]
    fired = f"fired {(a.fired_at - a.due_at).total_seconds():.2f} s after due" if a else "not fired"
    minute = [s for s in run.samples if s.phase == "return" and s.sent < back + RETURN_MINUTE_S]
    rows = endpoint_rows(minute)
    print_endpoints(
        f"== the outage: round {number} running, {len(plan['entry_keys'])} phones and "
        f"{run.marks['outage-tables']} tables off the network for {OUTAGE_S:.0f} s (the "
        f"{run.cut_samples} requests in flight then cut), the round's end by the timer "
        f"{due - run.marks['down']:.0f} s into it ({fired}); all back at once, phones after "
        f"0–{RETURN_JITTER_S:.0f} s of jitter, tables within 1 s; the first "
        f"{RETURN_MINUTE_S:.0f} s after the return:",
        rows,
    )
    print_endpoints(
        "  of which the first 10 s (the storm itself)",
        endpoint_rows([s for s in minute if s.sent < back + 10]),
    )
    phones = [f"phone:{k}" for k in plan["entry_keys"]]
    what = ("end", number)
    times = [max(0.0, run.seen[p][what] - back) for p in phones if what in run.seen[p]]
    missing = len(phones) - len(times)
    last = max(times) if times else float("inf")
    if times:
        print(
            f"the end of round {number} (during the outage) seen on {len(times)}/{len(phones)} "
            f"phones; from the return: p50 {pct(times, 50):.2f} s, p95 {pct(times, 95):.2f} s, "
            f"last phone {last:.2f} s"
        )
    else:
        print(f"the end of round {number} seen on 0/{len(phones)} phones after the return")
    for who in ("hall", "console:console 1"):
        if what in run.seen.get(who, {}):
            print(f"  {who} (online throughout): {run.seen[who][what] - due:.2f} s after due")

    mine = [s for s in run.samples if s.phase in OUTAGE_PHASES and s.done]
    e5xx = sum(s.status >= 500 for s in mine)
    timeouts = sum(s.outcome == "timeout" for s in mine)
    other = sum(s.outcome == "error" and s.status < 500 for s in mine)
    kinds = sorted({f"{s.endpoint}: {s.note}" for s in mine if s.outcome == "error"})
    print(
        f"errors from the outage's round on: {e5xx} server errors (5xx), {timeouts} timeouts "
        f"(> {args.timeout:.0f} s), {other} others"
        + (f" ({'; '.join(kinds[:6])})" if kinds else "")
    )

    tables = run.marks["outage-tables"]
    queued = {n: q for n, q in run.queued.items() if not q.why}
    sent = sum(bool(q.sends) for q in queued.values())
    saved = sum(q.outcome == "saved" for q in queued.values())
    retried = sum(len([s for s in q.sends if s.cause == "outbox"]) > 1 for q in queued.values())
    resent_ok = sum(q.resend == "saved" for q in queued.values())
    versions = facts.get("outage_sheets", {})
    once = sum(versions.get(n) == 1 for n in queued)
    twice = sum((versions.get(n) or 0) > 1 for n in queued)
    lost = sum(n not in versions for n in queued)
    print(
        f"sheets: {len(queued)}/{tables} tables queued deal 1 in the outage, {sent} sent, "
        f"{saved} saved ({retried} after a retry), the re-send answered «saved» for "
        f"{resent_ok}; in the database: {once} recorded exactly once, {twice} with more than "
        f"one version, {lost} lost"
    )
    why = defaultdict(int)
    for q in run.queued.values():
        if q.why:
            why[f"not queued: {q.why}"] += 1
        elif q.outcome != "saved":
            why[q.outcome or "not sent"] += 1
        elif q.resend != "saved":
            why[f"re-send: {q.resend}"] += 1
    for text, n in sorted(why.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {n} tables: {text}")

    print("\n== goals of the outage (issue 25; ratios to the trivial endpoint in the same minute)")
    base = rows.get(TRIVIAL, {}).get("p95")
    ratio_goal = ratio_goals(rows, base, run, args)

    ratio_goal(P_CLOCK, 3, "clock document")
    ratio_goal(P_PLACES, 6, "seat blocks")
    ratio_goal(T_SAVE, 15, "sheet saves")
    goal(
        missing == 0 and last <= 10,
        f"the end in the outage on all {len(phones)} phones within 10 s of the return "
        f"(last {last:.2f} s, {missing} never)",
    )
    goal(
        once == tables and lost == 0 and twice == 0,
        f"{tables}/{tables} sheets recorded once, none lost: {once} once, {twice} more than "
        f"once, {lost} lost",
    )
    goal(
        e5xx == 0 and timeouts == 0 and other == 0,
        f"0 server errors: {e5xx} 5xx, {timeouts} timeouts, {other} others",
    )
    idle_base = idle_trivial(run)
    if base and idle_base and base > SATURATED * idle_base:
        # The trivial view waits in the same queue as the storm: a ratio near 1 then says
        # the server was saturated, not that the storm's requests were cheap.
        print(
            f"  NOTE  the trivial endpoint itself had a p95 of {base:.0f} ms in this minute, "
            f"{base / idle_base:.0f}× its idle {idle_base:.1f} ms: the server was saturated "
            f"and the ratios compare one queue with itself; read the absolute times"
        )
    return bool(rows.get(TRIVIAL)) and bool(rows.get(P_CLOCK))


# The trivial endpoint's p95 above this many times its idle p95: the server was saturated.
SATURATED = 10


def idle_trivial(run: Run) -> float | None:
    """The trivial endpoint's p95 on the idle server (one request at a time)."""
    return endpoint_rows([s for s in run.samples if s.phase == "idle"]).get(TRIVIAL, {}).get("p95")


def audience_report(args, run: Run, plan: dict) -> bool:
    """Each N's minute, side by side, and the goals at N = 1,000 (or the first N); False if
    the audience was not measured."""
    done = [r for r in run.audience if "t1" in r]
    if not done:
        print("\n== the audience: it did not happen (the harness stopped before)")
        return False
    phones = len(plan["entry_keys"])
    idle_base = idle_trivial(run)
    figures = {}
    for rec in done:
        n, audience = rec["n"], rec["audience"]
        minute = [s for s in run.samples if s.phase == f"audience-{n}"]
        rows = endpoint_rows(minute)
        base = rows.get(TRIVIAL, {}).get("p95")
        saved = sum(v == "saved" for v in rec["saves"].values())
        print_endpoints(
            f"== the audience, N = {n}: {n} viewers × 2 tabs (the results page, session "
            f"{plan['session_number']}'s standings) opened over {args.audience_ramp:.0f} s, "
            f"reloaded {AUDIENCE_REFRESH_S:.0f} ± {AUDIENCE_JITTER_S:.0f} s after each load, "
            f"conditionally; beside {phones} phones, the hall screen, 2 consoles and "
            f"{rec['tables']} tables saving deal 1 of round {rec['round']} ({saved} saved); "
            f"«Конец тура!» {args.duration * AUDIENCE_CLICK_AT:.0f} s into the "
            f"{args.duration:.0f}-s minute; timeouts count as {args.timeout:.0f} s",
            rows,
        )
        base50 = rows.get(TRIVIAL, {}).get("p50")
        for name in (A_STANDINGS, A_RESULTS):
            r = rows.get(name)
            if r and base and base50:
                print(
                    f"  {name}: p50 {r['p50']:.0f} ms ({r['p50'] / base50:.1f}× the trivial's "
                    f"p50 {base50:.1f} ms), p95 {r['p95']:.0f} ms ({r['p95'] / base:.1f}× its p95)"
                )
        viewers = [s for s in minute if s.endpoint in AUDIENCE]
        answered = [s for s in viewers if s.done and s.status]
        status = defaultdict(int)
        for s in answered:
            status[s.status] += 1
        v_errors = sum(s.done and s.outcome == "error" for s in viewers)
        v_timeouts = sum(s.outcome == "timeout" for s in viewers)
        unfinished = sum(not s.done for s in viewers)
        wire = defaultdict(int)
        for s in viewers:
            wire[s.endpoint] += s.nbytes
        pages_asked = sum(s.endpoint in (A_RESULTS, A_STANDINGS) for s in viewers)
        polls = sum(s.endpoint == A_VERSION for s in viewers)
        others = ", ".join(
            f"{code}: {k}" for code, k in sorted(status.items()) if code not in (200, 304)
        )
        print(
            f"  viewers asked {len(viewers)} requests in the minute "
            f"({len(viewers) / args.duration:.0f}/s: {pages_asked} pages, {polls} version "
            f"polls, the rest linked files; {2 * n} tabs answered at once would load or poll "
            f"{2 * n * args.duration / AUDIENCE_REFRESH_S:.0f} times), answered {len(answered)} "
            f"({100 * len(answered) / max(1, len(viewers)):.0f}%): {status.get(200, 0)} × 200, "
            f"{status.get(304, 0)} × 304{', ' + others if others else ''}; {v_errors} errors, "
            f"{v_timeouts} timeouts, {unfinished} unanswered when the tabs closed; "
            f"{audience.from_cache} linked files taken from the tabs' caches unasked"
        )
        total = sum(wire.values())
        print(
            f"  bytes sent to the viewers: {total / 2**20:.1f} MiB "
            f"({total / args.duration / 2**20:.2f} "
            f"MiB/s; headers and bodies as sent): "
            + ", ".join(f"{name.split(': ', 1)[1]} {b / 2**20:.1f} MiB" for name, b in wire.items())
        )
        versions = {v for _, v, _ in audience.parsed.values() if v}
        print(
            "  the pages name a version document ("
            + ", ".join(sorted(versions))
            + "): polled instead of reloading"
            if versions
            else "  the pages name no version document (no data-version-url on <body> or <main>): "
            "the tabs reload them"
        )
        for name in (A_RESULTS, A_STANDINGS, A_VERSION, A_ASSET):
            seen, values = audience.seen.get(name), audience.values.get(name, {})
            if not seen:
                continue
            facts = ", ".join(f"{k} {v}" for k, v in sorted(seen.items()) if k != "answers")
            cookies = ", ".join(sorted(values.get("cookies", ()))) or "—"
            print(
                f"  {name}, every answer of the run ({seen['answers']}): {facts}; cookies set: "
                f"{cookies}; Cache-Control: {' | '.join(sorted(values.get('Cache-Control', ())))}; "
                f"Vary: {' | '.join(sorted(values.get('Vary', ())))}"
            )
        saturated = bool(base and idle_base and base > SATURATED * idle_base)
        if base and idle_base:
            print(
                f"  the trivial endpoint: p95 {base:.0f} ms in this minute, "
                f"{base / idle_base:.1f}× "
                f"its idle {idle_base:.1f} ms: "
                + (
                    "SATURATED — the server queued it with the rest, and a ratio near 1 "
                    "compares one queue with itself; read the absolute times"
                    if saturated
                    else f"not saturated (saturated: > {SATURATED}× idle)"
                )
            )
        lag = rec.get("lag") or [0.0]
        cpu, server = rec.get("harness_cpu", 0.0), rec.get("server_cpu", {})
        loads = defaultdict(int)
        for s in viewers:
            if s.endpoint in (A_RESULTS, A_STANDINGS):
                loads[s.cause] += 1
        print(
            f"  page loads in the minute: {loads['open']} first opens, {loads['reload']} "
            f"reloads on the tabs' timer, {loads['changed']} after the version document "
            f"changed ({polls} polls)"
        )
        if "closed" in rec:
            print(
                f"  this N took {rec['closed'] - rec['began']:.0f} s, from its round's start to "
                f"its tabs closed"
            )
        print(
            f"  CPU in the minute: this harness {cpu:.0f} CPU-s ({100 * cpu / args.duration:.0f}% "
            f"of one core; {os.cpu_count()} cores in all), the web server "
            f"{server.get('web', 0):.0f}, the worker {server.get('worker', 0):.0f}; the harness's "
            f"loop woke late by p95 {pct(lag, 95) * 1000:.0f} ms, max {max(lag) * 1000:.0f} ms"
        )
        if pct(lag, 95) > 0.1:
            print(
                "  NOTE  the harness's loop woke late: its latencies include up to that much "
                "of its own waiting for the CPU (its own use is above; the rest is the server's)"
            )
        end = None
        if rec.get("click-ok"):
            print(
                f"  «Конец тура!» by the director's click: the POST answered in "
                f"{rec['click-latency'] * 1000:.0f} ms"
            )
            since, label, ref = rec["click-sent"], "the click", "the click"
        else:
            why = (
                f"the POST failed ({rec['click-why']}, {rec['click-latency']:.1f} s)"
                if "click-sent" in rec
                else "the console's page never came"
            )
            print(
                f"  «Конец тура!» by the director's click: FAILED, {why}; the round ended "
                f"through the service instead, its way to the phones measured from then"
            )
            since, label, ref = rec.get("by-service"), "by the service", "the service's end"
        if since is not None:
            end = round_event_report(
                run,
                plan,
                ("end", rec["round"]),
                since,
                f"end of round {rec['round']} ({label}, N = {n})",
                rec["until"],
                ref,
            )
        last = max(end["times"]) if end and end["times"] else float("inf")
        late = [
            s
            for s in minute
            if s.endpoint == T_SAVE
            and s.status == 400
            and since is not None
            and s.sent + s.latency >= since
        ]
        if late:
            print(
                f"  {len(late)} table saves answered 400 after «Конец тура!»: the round was over "
                f"and the app asks a late sheet for a seat and PIN — not counted as errors"
            )
        figures[n] = {
            "rows": rows,
            "base": base,
            "last": last,
            "missing": end["missing"] if end else phones,
            "errors": sum(r["errors"] for r in rows.values()) - len(late),
            "timeouts": sum(r["timeouts"] for r in rows.values()),
            "viewers": (len(viewers), len(answered), status, v_errors, v_timeouts, total),
            "saturated": saturated,
            "cpu": cpu,
            "clicked": bool(rec.get("click-ok")),
        }

    print(
        "\n== the audience, N side by side "
        "(p95, and its ratio to the trivial endpoint of the minute)"
    )
    print(f"{'':34}" + "".join(f" {'N = ' + str(n):>24}" for n in figures))

    def line(label, cell):
        print(f"{label:34}" + "".join(f" {cell(f):>24}" for f in figures.values()))

    def p95(name):
        return lambda f: _p95(f["rows"].get(name), f["base"])

    line("session standings p95", p95(A_STANDINGS))
    line("results page p95", p95(A_RESULTS))
    line("phones' clock p95", p95(P_CLOCK))
    line(
        "trivial endpoint p95",
        lambda f: (
            f"{f['base']:.0f} ms" + (" saturated" if f["saturated"] else "") if f["base"] else "—"
        ),
    )
    line(
        "«Конец тура!» on the last phone",
        lambda f: f"{f['last']:.2f} s" + (f", {f['missing']} never" if f["missing"] else ""),
    )
    line("viewers: asked / answered", lambda f: f"{f['viewers'][0]} / {f['viewers'][1]}")
    line(
        "viewers: 200 / 304",
        lambda f: f"{f['viewers'][2].get(200, 0)} / {f['viewers'][2].get(304, 0)}",
    )
    line("viewers: errors / timeouts", lambda f: f"{f['viewers'][3]} / {f['viewers'][4]}")
    line("bytes sent to the viewers", lambda f: f"{f['viewers'][5] / 2**20:.1f} MiB")
    line("all clients: errors / timeouts", lambda f: f"{f['errors']} / {f['timeouts']}")
    line("this harness's CPU", lambda f: f"{f['cpu']:.0f} CPU-s")

    at = 1000 if 1000 in figures else next(iter(figures))
    f = figures[at]
    print(
        f"\n== goals of the audience at N = {at}"
        + ("" if at == 1000 else " (the goals are set for N = 1,000)")
        + " (ratios to the trivial endpoint of the same minute)"
    )
    ratio_goal = ratio_goals(f["rows"], f["base"], run, args)
    ratio_goal(A_STANDINGS, 3, "session standings")
    ratio_goal(P_CLOCK, 3, "phones' clock")
    goal(
        f["clicked"] and f["missing"] == 0 and f["last"] <= 10,
        f"«Конец тура!» on all {phones} phones within 10 s of the click "
        + (
            f"(last {f['last']:.2f} s, {f['missing']} never)"
            if f["clicked"]
            else f"(the click failed; ended by the service, the last phone after "
            f"{f['last']:.2f} s, {f['missing']} never)"
        ),
    )
    goal(
        f["errors"] == 0 and f["timeouts"] == 0,
        f"0 errors in the minute, every client: {f['errors']} errors, {f['timeouts']} timeouts "
        f"(the viewers' {f['viewers'][3]} and {f['viewers'][4]})",
    )
    if f["saturated"]:
        print("  NOTE  the trivial endpoint was saturated in this minute: the ratios mean little")
    for n, g in figures.items():
        if n == at:
            continue
        r, c = g["rows"].get(A_STANDINGS), g["rows"].get(P_CLOCK)
        print(
            f"  N = {n}, beside them (no goal): standings p95 {_p95(r, g['base'])}, "
            f"clock p95 {_p95(c, g['base'])}, "
            f"the end on the last phone {g['last']:.2f} s ({g['missing']} never), "
            f"{g['errors']} errors, {g['timeouts']} timeouts"
            + ("; the trivial endpoint saturated" if g["saturated"] else "")
        )
    return bool(f["rows"].get(TRIVIAL)) and bool(f["rows"].get(A_STANDINGS))


def _p95(row: dict | None, base: float | None) -> str:
    """«p95 ms (ratio×)» of an endpoint's row, the ratio to the trivial ``base``."""
    if not row:
        return "—"
    return f"{row['p95']:.0f} ms ({row['p95'] / base:.1f}×)" if base else f"{row['p95']:.0f} ms"


def _queries(text: str) -> int:
    return int(text.split("–")[-1])


if __name__ == "__main__":
    sys.exit(main())
