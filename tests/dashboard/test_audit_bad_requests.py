"""Bad HTTP input to the dashboard: a 4xx with a message that says what is wrong, never a 500, and nothing
reaches the table (docs/dashboard.md). The app runs with TESTING on, so a 500 would raise in the test."""

from __future__ import annotations

import logging

import pytest
from flask.testing import FlaskClient

from tests.dashboard.conftest import Referee, csrf_of
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

JSON_HINT = 'send a JSON body {"command": …, "args": {…}} with Content-Type application/json'


def post(referee: Referee, data: bytes | str, content_type: str | None = "application/json") -> object:
    return referee.client.post(
        "/api/command", data=data, content_type=content_type, headers={"X-CSRF-Token": referee.csrf()}
    )


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        pytest.param(b"", "application/json", id="empty"),
        pytest.param(b"null", "application/json", id="null"),
        pytest.param(b'{"command": "pause", "args": {}', "application/json", id="cut short"),
        pytest.param(b'{"command": "pause"}\xff', "application/json", id="not UTF-8"),
        pytest.param(b'{"command": "pause", "args": {}}', "text/plain", id="text/plain"),
        pytest.param(b"command=pause", "application/x-www-form-urlencoded", id="a form"),
        pytest.param(b'{"command": "pause", "args": {}}', None, id="no content type"),
    ],
)
def test_a_body_that_is_not_a_json_command_is_a_400_that_says_so(
    referee: Referee, commands: FakeCommandChannel, data: bytes, content_type: str | None
) -> None:
    response = post(referee, data, content_type)
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert response.get_json() == {"ok": False, "error": JSON_HINT}  # type: ignore[attr-defined]
    assert commands.sent == []


def test_a_body_nested_too_deeply_is_a_400_not_a_500(referee: Referee, commands: FakeCommandChannel) -> None:
    for body in (
        "[" * 3000 + "]" * 3000,
        '{"command": "pause", "args": {"a": ' + "[" * 3000 + "]" * 3000 + "}}",
    ):
        response = post(referee, body)
        assert response.status_code == 400  # type: ignore[attr-defined]
        assert response.get_json()["error"] == "the JSON body is nested too deeply to be a command"  # type: ignore[attr-defined]
    assert commands.sent == []


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ('"pause"', "the request body must be a JSON object"),
        ("[]", "the request body must be a JSON object"),
        ('{"args": {}}', "unknown command None; known:"),
        ('{"command": ["pause"]}', "unknown command ['pause']"),
        (
            '{"command": "teleport", "args": {}}',
            "unknown command 'teleport'; known: enter_room, start_battle, declare",
        ),
        ('{"command": "pause", "args": null}', "'args' must be a JSON object"),
        ('{"command": "undo", "args": {"count": NaN, "reason": "x"}}', "'count' must be a whole number"),
        ('{"command": "undo", "args": {"count": 1e400, "reason": "x"}}', "'count' must be a whole number"),
        (
            '{"command": "undo", "args": {"count": 1, "reason": "\\ud800"}}',
            "'reason' holds text that is not Unicode",
        ),
        ('{"command": "undo", "args": {"count": 1, "reason": ["x"]}}', "'reason' must be text"),
        (
            '{"command": "correct", "args": '
            '{"target": "../../etc", "field": "health", "value": 1, "reason": "x"}}',
            "'target' must be an id",
        ),
        ('{"command": "declare", "args": {"character": "hero-xoric", "alternative": 10}}', "from 0 to 9"),
        (
            '{"command": "bind", "args": {"character": "troll", "piece": "Dungeon 3"}}',
            "'piece' must be an id",
        ),
        # A misspelt argument is refused, never dropped: "undo 3" must not become "undo 1".
        (
            '{"command": "undo", "args": {"cuont": 3, "reason": "x"}}',
            "undo does not take 'cuont' (it takes count, reason, seq)",
        ),
        (
            '{"command": "pause", "args": {"why": "lunch"}}',
            "pause does not take 'why' (it takes reason)",
        ),
    ],
)
def test_a_json_body_with_wrong_fields_is_a_400_naming_the_field(
    referee: Referee, commands: FakeCommandChannel, body: str, error: str
) -> None:
    response = post(referee, body)
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert error in response.get_json()["error"]  # type: ignore[attr-defined]
    assert commands.sent == []


def test_an_oversize_body_is_a_413_in_json(referee: Referee, commands: FakeCommandChannel) -> None:
    body = '{"command": "undo", "args": {"count": 1, "reason": "' + "x" * 20_000 + '"}}'
    response = post(referee, body)
    assert response.status_code == 413  # type: ignore[attr-defined]
    assert response.get_json()["ok"] is False  # type: ignore[attr-defined]
    assert response.get_json()["error"] == (  # type: ignore[attr-defined]
        "the request body is larger than the 16384 bytes this dashboard accepts"
    )
    assert commands.sent == []


def test_other_methods_on_the_command_endpoint_are_refused(
    referee: Referee, commands: FakeCommandChannel
) -> None:
    token = referee.csrf()
    for method in ("PUT", "PATCH", "DELETE"):
        response = referee.client.open(
            "/api/command", method=method, json={"command": "pause"}, headers={"X-CSRF-Token": token}
        )
        assert response.status_code == 405, method
        assert set(response.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
        assert response.get_json()["ok"] is False
    assert referee.client.get("/api/command").status_code == 405  # a spectator's browser only reads
    assert commands.sent == []


def test_a_stranger_without_a_session_gets_a_400_and_a_logged_out_browser_a_401(
    client: FlaskClient, commands: FakeCommandChannel, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        stranger = client.post("/api/command", json={"command": "pause", "args": {}})
    assert stranger.status_code == 400
    assert stranger.get_json()["error"] == "missing or wrong CSRF token; reload the page and try again"
    assert "missing or wrong CSRF token" in caplog.text
    token = csrf_of(client.get("/login").get_data(as_text=True))  # a session, but nobody logged in
    logged_out = client.post(
        "/api/command", json={"command": "pause", "args": {}}, headers={"X-CSRF-Token": token}
    )
    assert logged_out.status_code == 401
    assert logged_out.get_json() == {"ok": False, "error": "referee login required"}
    assert commands.sent == []


@pytest.mark.parametrize(
    "form",
    [
        {},
        {"name": "anna"},
        {"pin": "1234"},
        {"name": "Ännä", "pin": "1234"},
        {"name": "a" * 40, "pin": "1234"},
        {"name": "anna\u0000", "pin": "1234"},
    ],
)
def test_a_broken_login_form_is_refused_and_logs_nobody_in(client: FlaskClient, form: dict[str, str]) -> None:
    token = csrf_of(client.get("/login").get_data(as_text=True))
    response = client.post("/login", data={**form, "csrf_token": token})
    assert response.status_code in (400, 401)
    assert client.get("/referee/turn").status_code == 302  # still logged out


@pytest.mark.parametrize(
    ("header", "error"),
    [
        ("abc", "Last-Event-ID 'abc' is not an event id like '12' or '12.1'"),
        ("12.x", "is not an event id"),
        ("12.1.1", "is not an event id"),
        ("1e3", "is not an event id"),
        ("0x10", "is not an event id"),
        ("\u0000", "is not an event id"),
        ("-1", "Last-Event-ID '-1' must not be negative"),
        ("3.-1", "must not be negative"),
        ("9" * 5000, "is not an event id"),
    ],
)
def test_a_bad_last_event_id_is_a_400_that_names_it(client: FlaskClient, header: str, error: str) -> None:
    response = client.get("/table/t1/events", headers={"Last-Event-ID": header})
    assert response.status_code == 400
    assert error in response.get_data(as_text=True)
    by_query = client.get("/table/t1/events", query_string={"lastEventId": header})
    assert by_query.status_code == 400


def test_an_event_id_from_beyond_this_log_starts_the_page_over(client: FlaskClient) -> None:
    response = client.get(
        "/table/t1/events", headers={"Last-Event-ID": "99999999999999999999"}, buffered=False
    )
    try:
        assert response.status_code == 200
        first = b""
        for chunk in response.response:  # type: ignore[attr-defined]
            first += chunk
            if b"event: hello" in first:
                break
        assert b"event: hello" in first  # the whole picture again, not an empty catch-up
    finally:
        response.close()


@pytest.mark.parametrize("path", ["/table/t2", "/api/table/t2/view", "/table/t2/events", "/table/T1/events"])
def test_an_unknown_table_is_a_404_that_names_the_right_one(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert "this dashboard shows table 't1'" in response.get_data(as_text=True)


def test_a_message_nested_too_deeply_on_the_feed_is_skipped_and_the_view_is_kept(
    feed: FakeFeed, client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    before = client.get("/api/table/t1/view").get_json()
    with caplog.at_level(logging.WARNING):
        feed.publish("state", '{"seq": 9, "x": ' + "[" * 5000 + "]" * 5000 + "}", retained=True)
        feed.publish("event", "[" * 5000)
    assert "payload is nested too deeply" in caplog.text
    assert feed.feed.rejected[-1].endswith("payload is nested too deeply")
    assert client.get("/api/table/t1/view").get_json() == before
