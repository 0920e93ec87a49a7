"""Fixtures for the hub's tests: headless Chromium and the screenshot folder (tests/helpers/browser.py)."""

from tests.helpers.browser import chromium, module_chromium, shots_dir

__all__ = ["chromium", "module_chromium", "shots_dir"]
