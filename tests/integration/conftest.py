"""Fixtures shared by the integration tests."""

from tests.helpers.browser import chromium, module_chromium, shots_dir  # noqa: F401  (fixtures)
