"""Fixtures for the hub's tests: headless Chromium and the screenshot folder (tests/helpers/browser.py)."""

from tests.helpers.browser import chromium, shots_dir

__all__ = ["chromium", "shots_dir"]
