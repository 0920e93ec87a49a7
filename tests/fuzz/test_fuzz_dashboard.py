"""Fuzzing every HTTP endpoint of the dashboard: random methods, paths, query strings, headers, JSON and form
bodies and cookies, logged in or not. Never a 5xx (the app runs with TESTING on, so an exception would
raise here), an ``/api/`` refusal is JSON with the reason, and only a logged-in referee's well-formed
command is ever published (docs/dashboard.md: Security)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings

from tests.fuzz.targets import DASHBOARD


@pytest.mark.slow
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(DASHBOARD.strategy)
# Found by this fuzzing: a CSRF token with a non-ASCII character was a 500 (hmac.compare_digest refuses such
# str); it is a 400 like any wrong token.
@example(
    (
        False,
        [
            {
                "method": "POST",
                "path": "/api/command",
                "query_string": {},
                "headers": {"X-CSRF-Token": "é"},
                "csrf": "none",
                "cookie": "keep",
            }
        ],
    )
)
@example(
    (
        True,
        [
            {
                "method": "POST",
                "path": "/login",
                "query_string": {},
                "headers": {},
                "csrf": "none",
                "cookie": "keep",
                "data": {"csrf_token": "\u20ac", "name": "anna"},
            }
        ],
    )
)
def test_no_request_gets_a_server_error_or_publishes_what_it_should_not(example: Any) -> None:
    DASHBOARD.check(example)
