"""The overview and the public page tell the truth about each table's match (docs/tournaments.md,
"Screens"): a table still showing round 1's game after round 2 is paired is waiting, not finished; the log
names the winner on the button; a game in play offers a sign-off at time with the side ahead preselected."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.hub.builders import PIN, new_hub
from web_dashboard.hub import create_hub_app


def castles_game(hub: Any, table: str, game: str, match: Any, round_number: int, **state: Any) -> None:
    """A table's game of ``match`` as the feed hands it over: its setup names the match and the entrants."""
    setup = {
        "ruleset": "catacombs-and-castles-2e",
        "mode": "one-versus-one",
        "sides": [{"id": match.a, "team": "castle"}, {"id": match.b, "team": "catacomb"}],
        "match": {"event": "Test Open", "round": round_number, "table": table},
    }
    hub.on_status(table, "online")
    stamp = "2026-11-28T10:00:00Z"
    hub.on_log(
        table, game, {"v": 1, "seq": 1, "at": stamp, "by": "referee:x", "kind": "setup", "payload": setup}
    )
    hub.on_state(
        table,
        {
            "ruleset": "catacombs-and-castles-2e",
            "seq": 1,
            "sides": [
                {"id": match.a, "health": state.get("a", 12)},
                {"id": match.b, "health": state.get("b", 12)},
            ],
            "phase": state.get("phase", "battle"),
            "outcome": state.get("outcome"),
            "turn": {"side": match.a} if state.get("outcome") is None else None,
        },
    )


def rows(app: Any) -> dict[str, dict[str, Any]]:
    return {r["table"]: r for r in app.test_client().get("/hub/api/overview").get_json()["tables"]}


def test_an_earlier_rounds_game_is_not_shown_as_this_rounds_result(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo"))
    hub.pair_next_round("organiser", ["t1"])
    match = hub.tournament.rounds[0][0]
    castles_game(hub, "t1", "g1", match, 1, b=0, phase="game_over", outcome=match.a)
    hub.sign_off("referee:rita", "t1")
    hub.pair_next_round("organiser", ["t1"])  # round 2; the table still shows round 1's finished game
    app = create_hub_app(hub)
    row = rows(app)["t1"]
    assert row["plays_match"] is False and row["outcome"] is None and row["sides"] == []
    assert row["waiting"] == "waiting for round 2's game to start"
    page = app.test_client().get("/hub/standings").get_data(as_text=True)
    assert "finished" not in page and "waiting" in page
    hub.store.close()


def test_the_log_names_the_winner_and_a_game_in_play_can_stop_at_time(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])
    one, two = hub.tournament.rounds[0]
    castles_game(hub, "t1", "g1", one, 1, a=0, phase="game_over", outcome=one.b)
    castles_game(hub, "t2", "g2", two, 1, a=9, b=5)
    app = create_hub_app(hub)
    by_table = rows(app)
    assert by_table["t1"]["reported_winner"] == one.b
    assert (by_table["t2"]["running"], by_table["t2"]["leader"]) == (True, two.a)
    client = app.test_client()
    html = client.get("/hub/login").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)  # type: ignore[union-attr]
    client.post("/hub/login", data={"name": "rita", "pin": PIN, "csrf_token": token})
    page = client.get("/hub/").get_data(as_text=True)
    names = {e.id: e.name for e in hub.tournament.entrants.values()}
    assert f"Sign off: {names[one.b]} won" in page
    assert "Stopped at time: sign off" in page and f'value="{two.a}" selected' in page
    public = client.get("/hub/standings").get_data(as_text=True)
    assert f"{names[two.a]} to play" in public and f"{two.a} to play" not in public  # names, not ids
    hub.store.close()
