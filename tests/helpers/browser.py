"""Headless Chromium for tests: Debian's /usr/bin/chromium driven by Playwright (never a downloaded one)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium); required in CI",
)


@pytest.fixture(scope="module")
def module_chromium() -> Iterator[Any]:
    """One Chromium for a test module: starting it takes a second or more."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def chromium(module_chromium: Any) -> Iterator[Any]:
    """The module's browser; every context a test opened is closed after it, so no page of one test (still
    reconnecting to its stopped server, say) outlives it."""
    yield module_chromium
    for context in list(module_chromium.contexts):
        context.close()


@pytest.fixture
def shots_dir(tmp_path: Path) -> Path:
    """Where screenshots go: $SMARTMAT_SCREENSHOT_DIR (docs/screenshots/ for the docs) or a temp folder."""
    folder = Path(os.environ.get("SMARTMAT_SCREENSHOT_DIR", tmp_path / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def phone(chromium: Any, url: str) -> tuple[Any, list[str]]:
    """A phone-sized page at ``url`` and the list its script errors are collected into."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    return page, errors


def log_in(page: Any, pin: str, name: str = "anna") -> None:
    page.fill("input[name=name]", name)
    page.fill("input[name=pin]", pin)
    page.click("button[type=submit]")


def open_tools(page: Any) -> None:
    """Tap open every folded tool of the referee console (a phone shows them folded: corrections, discs, a
    shot by hand, the QR code), as a referee who needs one does."""
    page.wait_for_selector("#correct-tool", state="attached")  # the console itself, not the page the tap left
    for tool in page.locator("details.tool").all():
        if tool.is_visible() and tool.get_attribute("open") is None:  # a game without pools hides that one
            tool.locator("summary").click()
