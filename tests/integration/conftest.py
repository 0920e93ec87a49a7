"""Fixtures shared by the integration tests."""

from tests.helpers.browser import chromium, shots_dir  # noqa: F401  (fixtures)
