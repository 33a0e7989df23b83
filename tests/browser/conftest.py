"""Playwright driving Debian's Chromium (Playwright's own browser download does not work here)."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

# Playwright's sync API runs an event loop; Django must allow its ORM calls from fixtures.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


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
def shot():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
