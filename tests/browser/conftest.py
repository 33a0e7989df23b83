"""Playwright driving Debian's Chromium (Playwright's own browser download does not work here)."""

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import backend

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

# Playwright's sync API runs an event loop; Django must allow its ORM calls from fixtures.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# `make test` runs the suite twice, and the browser tests were half of each run's time (CI's
# 30 minutes): each browser file runs in one half, the two halves sharing them out about
# equally (their own pytestmark says so for the whole-evening replays), except those whose
# subject depends on the backend — the clock documents and seat blocks the cache serves, the
# broker's timer and its absence — which run in both. Every test of the server itself (the
# database, the cache, the broker, the worker) still runs in both halves; a page's layout,
# script and words are the same on either. The offline pages run on PostgreSQL + Redis: the
# HTTPS of the compose setup, where a service worker really runs, is that backend.
BOTH_HALVES = {
    "test_clock_screen",
    "test_console",
    "test_console_controls",
    "test_phone",
    "test_phones_follow_the_round",
}
EMBEDDED_HALF = {
    "test_adjustments_page",
    "test_boxes",
    "test_browser",  # tests/scoring/test_browser.py
    "test_checkin",
    "test_director_setup",
    "test_fair_pages",
    "test_hand_records",
    "test_planner",
    "test_substitutes",
    "test_table",
}
POSTGRES_HALF = {
    "test_accessibility",
    "test_calls",
    "test_cards_session",
    "test_clock_next_session",
    "test_csp",
    "test_director_team",
    "test_error_summary",
    "test_hall_fills_the_screen",
    "test_ladder_pages",
    "test_offline_fairness",
    "test_offline_outbox",
    "test_planner_card",
    "test_register_io",
    "test_register_merge",
    "test_register_preview",
    "test_russian_hand_records",
    "test_russian_sheet",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Before ``-m`` deselects: each browser file's half as its marker (a file's own
    ``embedded`` or ``postgres`` mark stands; one named in no list fails the run)."""
    for item in items:
        if item.get_closest_marker("browser") is None:
            continue
        if item.get_closest_marker("embedded") or item.get_closest_marker("postgres"):
            continue
        name = item.module.__name__.rsplit(".", 1)[-1]
        if name in EMBEDDED_HALF:
            item.add_marker(pytest.mark.embedded)
        elif name in POSTGRES_HALF:
            item.add_marker(pytest.mark.postgres)
        elif name not in BOTH_HALVES:
            raise pytest.UsageError(
                f"{name}: a browser file names its half in tests/browser/conftest.py"
            )


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is needed at {CHROMIUM} (apt-get install chromium); .ci/run installs it"
        )
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def laptop(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def shot(request):
    """A full-page screenshot to look at, in artifacts/screenshots/ (a fifth of a browser
    test's time: a test that runs in both halves takes its pictures in the embedded one)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    once = request.node.get_closest_marker("embedded") or request.node.get_closest_marker(
        "postgres"
    )
    taking = bool(once) or backend() == "sqlite"

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        if taking:
            page.screenshot(path=str(path), full_page=True)
        return path

    return take
