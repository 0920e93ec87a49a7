"""Only a logged-in referee with the page's CSRF token changes anything; everyone else changes nothing."""

from __future__ import annotations

import concurrent.futures
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.dashboard.conftest import PIN, Clock, Referee, csrf_of
from web_dashboard.table.fake_feed import FakeCommandChannel

SPECTATOR_PAGES = ["/", "/table/t1", "/table/t1/tv", "/api/table/t1/view", "/qr.svg"]


def test_a_spectator_reads_everything_without_logging_in(client: FlaskClient) -> None:
    for page in SPECTATOR_PAGES:
        assert client.get(page).status_code == 200, page
    qr = client.get("/qr.svg")
    assert qr.mimetype == "image/svg+xml"
    assert qr.headers["X-Spectator-URL"] == "http://localhost/table/t1"
    view = client.get("/api/table/t1/view").get_json()
    assert view["state"]["room"]["name"] == "The Barracks"
    assert client.get("/table/other").status_code == 404
    assert client.get("/table/other/tv").status_code == 404


@pytest.mark.parametrize("page", SPECTATOR_PAGES + ["/table/t1/events"])
def test_a_spectator_cannot_post_to_read_only_pages(
    client: FlaskClient, commands: FakeCommandChannel, page: str
) -> None:
    token = csrf_of(client.get("/login").get_data(as_text=True))  # even with a valid token
    response = client.post(page, data={"command": "undo"}, headers={"X-CSRF-Token": token})
    assert response.status_code == 405
    assert commands.sent == []


def test_a_logged_out_browser_is_sent_to_login_and_cannot_command(
    client: FlaskClient, commands: FakeCommandChannel
) -> None:
    assert client.get("/referee/turn").headers["Location"].startswith("/login?next=/referee/turn")
    assert client.get("/referee/console").status_code == 302
    token = csrf_of(client.get("/login").get_data(as_text=True))
    response = client.post(
        "/api/command", json={"command": "undo", "args": {"reason": "x"}}, headers={"X-CSRF-Token": token}
    )
    assert response.status_code == 401
    assert response.get_json()["error"] == "referee login required"
    assert commands.sent == []


def test_a_forged_post_without_the_csrf_token_changes_nothing(
    referee: Referee, commands: FakeCommandChannel
) -> None:
    body = {"command": "correct", "args": {"target": "troll", "field": "health", "value": 0, "reason": "x"}}
    without = referee.client.post("/api/command", json=body)
    wrong = referee.client.post("/api/command", json=body, headers={"X-CSRF-Token": "guessed"})
    for response in (without, wrong):
        assert response.status_code == 400
        assert "CSRF" in response.get_json()["error"]
    assert referee.client.post("/logout").status_code == 400  # logout is a state change too
    assert commands.sent == []


def test_the_referee_logs_in_and_commands_go_out_under_their_name(
    referee: Referee, commands: FakeCommandChannel
) -> None:
    response = referee.command("declare", character="hero-xoric")
    assert response.status_code == 200 and response.get_json()["ok"] is True
    assert commands.sent == [
        {
            "txn": commands.sent[0]["txn"],
            "actor": "referee:anna",
            "command": "declare",
            "args": {"character": "hero-xoric"},
        }
    ]


def test_session_cookie_is_http_only_and_strict(client: FlaskClient, app: Flask) -> None:
    response = Referee(client).login()
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("smartmat_session_t1=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_behind_tls_the_cookie_is_secure(feed, commands) -> None:  # type: ignore[no-untyped-def]
    from tests.dashboard.conftest import PIN_HASH
    from web_dashboard.table import create_app

    app = create_app(
        {
            "TESTING": True,
            "TABLE": "t1",
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": commands,
            "REFEREE_PIN_HASH": PIN_HASH,
            "BEHIND_TLS": True,
        }
    )
    response = Referee(app.test_client()).login()
    assert "Secure" in response.headers["Set-Cookie"]


def test_wrong_pins_are_rate_limited_per_address_and_per_name(
    app: Flask, clock: Clock, commands: FakeCommandChannel
) -> None:
    mallory = Referee(app.test_client())
    for _ in range(5):
        assert mallory.login(name="mallory", pin="0000").status_code == 401
    blocked = mallory.login(name="anna", pin=PIN)  # even the right PIN, under any name, waits out the limit
    assert blocked.status_code == 429
    assert int(blocked.headers["Retry-After"]) == 60
    assert "Too many wrong PINs" in blocked.get_data(as_text=True)

    elsewhere = app.test_client()  # the same name tried from another address: the name's limit holds too
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert Referee(elsewhere).login(name="mallory", pin=PIN).status_code == 429

    other_table_side = app.test_client()  # another phone (another address, its own name) is not punished
    other = Referee(other_table_side)
    other_table_side.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    assert other.login(pin=PIN).status_code == 302

    clock.now += 61
    assert mallory.login(pin=PIN).status_code == 302
    assert commands.sent == []


def test_login_refuses_a_bad_name_and_a_foreign_redirect(client: FlaskClient) -> None:
    token = csrf_of(client.get("/login").get_data(as_text=True))
    bad = client.post("/login", data={"name": "Anna <b>", "pin": PIN, "csrf_token": token})
    assert bad.status_code == 400
    ok = client.post(
        "/login", data={"name": "anna", "pin": PIN, "csrf_token": token, "next": "//evil.example/phish"}
    )
    assert ok.headers["Location"] == "/referee/turn"


def test_without_a_pin_set_nobody_can_log_in(feed, commands) -> None:  # type: ignore[no-untyped-def]
    from web_dashboard.table import create_app

    app = create_app({"TESTING": True, "TABLE": "t1", "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": commands})
    response = Referee(app.test_client()).login()
    assert response.status_code == 503
    assert "smartmat dashboard set-pin" in response.get_data(as_text=True)


def test_after_logout_the_browser_commands_nothing(referee: Referee, commands: FakeCommandChannel) -> None:
    token = referee.csrf()
    assert referee.client.post("/logout", data={"csrf_token": token}).status_code == 302
    response = referee.client.post(
        "/api/command", json={"command": "pause", "args": {}}, headers={"X-CSRF-Token": token}
    )
    assert response.status_code in (400, 401)  # the old token died with the session
    assert commands.sent == []


def test_a_cookie_copied_before_logout_is_worth_nothing_after_it(
    app: Flask, referee: Referee, commands: FakeCommandChannel
) -> None:
    token = referee.csrf()
    cookie = referee.client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie(cookie.key, cookie.value)
    assert thief.get("/referee/turn").status_code == 200  # the copy works while the referee is logged in
    assert referee.client.post("/logout", data={"csrf_token": token}).status_code == 302
    assert thief.get("/referee/turn").status_code == 302  # sent to the login page
    refused = thief.post(
        "/api/command", json={"command": "pause", "args": {}}, headers={"X-CSRF-Token": token}
    )
    assert refused.status_code == 401
    assert commands.sent == []


def test_parallel_wrong_pins_get_at_most_five_checks_a_minute_from_one_address(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import web_dashboard.table.auth as auth

    checked: list[str] = []
    lock = threading.Lock()
    real_check = auth.pin_matches

    def counting_check(stored: str | None, attempt: str) -> bool:
        with lock:
            checked.append(attempt)
        return real_check(stored, attempt)

    monkeypatch.setattr(auth, "pin_matches", counting_check)
    token = csrf_of(app.test_client().get("/login").get_data(as_text=True))
    start = threading.Barrier(60)

    def attempt(i: int) -> int:
        client = app.test_client()
        with client.session_transaction() as session:
            session["csrf"] = token
        start.wait()
        data = {"name": f"guess-{i % 7}", "pin": f"{i:04d}", "csrf_token": token}
        return client.post("/login", data=data).status_code

    with concurrent.futures.ThreadPoolExecutor(max_workers=60) as pool:
        codes = list(pool.map(attempt, range(60)))
    assert len(checked) == 5
    assert sorted(set(codes)) == [401, 429] and codes.count(401) == 5


def test_a_login_form_posted_from_elsewhere_is_refused(client: FlaskClient) -> None:
    response = client.post("/login", data={"name": "anna", "pin": PIN})
    assert response.status_code == 400
    assert client.get("/referee/turn").status_code == 302  # still logged out
