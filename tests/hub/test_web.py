"""The hub's pages and API: anyone reads, only a logged-in referee of the tournament changes anything (with
the session's CSRF token), and the model decides who may do what."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.hub.builders import PIN, finish_game, new_hub
from web_dashboard.hub import create_hub_app

FOUR = ("ada", "bo", "cy", "dee")


@pytest.fixture
def hub(tmp_path: Path):
    hub = new_hub(tmp_path / "hub.sqlite", players=FOUR)
    hub.pair_next_round("organiser", ["t1", "t2"])  # ada v cy at t1, bo v dee at t2
    finish_game(hub, "t1", "g1", records=4)
    yield hub
    hub.store.close()


@pytest.fixture
def client(hub):
    app = create_hub_app(hub, table_url_template="http://{table}.local:8080/")
    app.testing = True
    return app.test_client()


def csrf(client, page: str = "/hub/login") -> str:
    html = client.get(page).get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def log_in(client, name: str, pin: str = PIN) -> str:
    token = csrf(client)
    client.post("/hub/login", data={"name": name, "pin": pin, "csrf_token": token})
    return csrf(client, "/hub/")


def test_spectators_read_everything_without_a_login(client) -> None:
    overview = client.get("/hub/api/overview").get_json()
    t1 = next(t for t in overview["tables"] if t["table"] == "t1")
    assert (t1["outcome"], t1["match"], t1["dashboard"]) == (
        "heroes",
        {"a": "ada", "b": "cy"},
        "http://t1.local:8080/",
    )
    page = client.get("/hub/standings").get_data(as_text=True)
    assert "Ada" in page and "Standings" in page
    assert "open table" in client.get("/hub/").get_data(as_text=True)
    assert client.get("/hub/export/standings.csv").headers["Content-Disposition"].endswith('standings.csv"')
    log = client.get("/hub/games/g1/log.jsonl?upto=2").get_data(as_text=True).splitlines()
    assert [line.count('"seq":') for line in log] == [1, 1] and '"seq":2' in log[1]
    assert client.get("/hub/games/nope/log.jsonl").status_code == 404


def test_a_spectator_cannot_sign_off(client, hub) -> None:
    token = csrf(client)
    answer = client.post(
        "/hub/api/sign-off", json={"table": "t1", "winner": "ada"}, headers={"X-CSRF-Token": token}
    )
    assert answer.status_code == 401
    assert (
        client.post("/hub/api/sign-off", json={"table": "t1", "winner": "ada"}).status_code == 400
    )  # no token
    assert hub.tournament.results == {}


def test_a_wrong_pin_is_refused_and_counted(client) -> None:
    token = csrf(client)
    answer = client.post("/hub/login", data={"name": "rita", "pin": "0000", "csrf_token": token})
    assert answer.status_code == 401 and "wrong PIN" in answer.get_data(as_text=True)


def test_the_table_referee_signs_off_and_the_head_referee_corrects(client, hub) -> None:
    token = log_in(client, "rita")
    headers = {"X-CSRF-Token": token}
    refused = client.post("/hub/api/sign-off", json={"table": "t2", "winner": "bo"}, headers=headers)
    assert refused.status_code == 409 and "no game from table t2" in refused.get_json()["error"]
    signed = client.post(
        "/hub/api/sign-off", json={"table": "t1", "winner": "cy"}, headers=headers
    ).get_json()
    assert signed["ok"] and hub.tournament.results[(1, "t1")].signed_by == "referee:rita"
    forbidden = client.post(
        "/hub/api/correct",
        json={"round": 1, "table": "t1", "winner": "ada", "reason": "x y z"},
        headers=headers,
    )
    assert forbidden.status_code == 403
    assert client.post("/hub/api/pair", json={"tables": ["t1", "t2"]}, headers=headers).status_code == 403

    client.post("/hub/logout", data={"csrf_token": token})
    headers = {"X-CSRF-Token": log_in(client, "hana")}
    corrected = client.post(
        "/hub/api/correct",
        json={"round": 1, "table": "t1", "winner": "ada", "reason": "scoresheet swapped the names"},
        headers=headers,
    )
    assert corrected.get_json()["ok"]
    results = client.get("/hub/api/results").get_json()
    assert (results[0]["winner"], results[0]["corrected_by"]) == ("ada", "referee:hana")
    early = client.post("/hub/api/pair", json={"tables": ["t1", "t2"]}, headers=headers)
    assert early.status_code == 409 and "without a signed-off result" in early.get_json()["error"]


def test_a_rule_set_the_hub_cannot_replay_is_said_so(client) -> None:
    answer = client.get("/hub/games/g1/replay")
    assert answer.status_code == 422 and "cannot replay" in answer.get_json()["error"]


def test_the_overview_flags_a_doubtful_shot_and_shows_a_matchs_health_pools(client, hub) -> None:
    hub.on_status("t2", "online")
    hub.on_state(
        "t2",
        {
            "ruleset": "catacombs-and-castles-2e",
            "phase": "battle",
            "outcome": None,
            "seq": 9,
            "turn": {"side": "bo"},
            "sides": [{"id": "bo", "health": 7}, {"id": "dee", "health": 4}],
            "table": {"pending_shot": {"shot_seq": 9}},
        },
    )
    t2 = next(t for t in client.get("/hub/api/overview").get_json()["tables"] if t["table"] == "t2")
    assert t2["doubtful_shot"] and t2["sides"] == [{"id": "bo", "health": 7}, {"id": "dee", "health": 4}]
    assert "doubtful shot waiting" in client.get("/hub/").get_data(as_text=True)
    assert "health Bo 7, Dee 4" in " ".join(client.get("/hub/standings").get_data(as_text=True).split())
    hub.on_bridge("t2", "0")
    assert not next(t for t in client.get("/hub/api/overview").get_json()["tables"] if t["table"] == "t2")[
        "online"
    ]
    assert "link down" in client.get("/hub/").get_data(as_text=True)
