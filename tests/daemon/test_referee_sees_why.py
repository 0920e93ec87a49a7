"""The referee is told in words why a shot came to them, even when the mat could not read it at all."""

from __future__ import annotations

from tests.helpers.game_script import GameScript


def test_a_shot_the_mat_could_not_read_says_why_in_the_snapshot() -> None:
    table = GameScript()
    try:
        assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
        assert table.declare("hero-xoric", 0)["ok"]
        expected = table.state["expected_shot"]
        why = "the mat did not see the flicked disc before the shot"
        # What the daemon records when the pre-shot scan missed the flicked disc (service/daemon/shots.py,
        # _trace).
        table.daemon.record(
            "shot",
            {
                "character": expected["character"],
                "shot": expected["shot"],
                "auto": False,
                "unreadable": why,
                "candidates": [],
            },
            "sensor",
        )
        waiting = table.state["table"]["pending_shot"]
        assert waiting["unreadable"] == why and waiting["candidates"] == []
        assert (
            "The mat could not read that shot (the mat did not see the flicked disc"
            in table.event_texts()[-1]
        )
    finally:
        table.close()
