"""A game log records what it was played with; a replay says where this machine differs (docs/game-log.md)."""

from __future__ import annotations

from pathlib import Path

from service.gamelog.context import game_context
from service.gamelog.replay import replay
from service.gamelog.writer import LogWriter
from tests.helpers.game_script import GameScript

SETUP = {
    "ruleset": "catacombs-3e",
    "content": "shipped",
    "heroes": ["xoric", "varesh", "roosan", "elani"],
    "lord": "vasesak-the-sorcerer",
    "rooms": ["the-outer-bailey"],
    "seed": 1,
}


def test_the_daemon_records_the_software_rule_set_and_content_digest_in_the_setup() -> None:
    """docs/game-log.md (setup record: context)."""
    table = GameScript()
    try:
        context = table.eventlog.records()[0].payload["context"]
    finally:
        table.close()
    assert context["software"].startswith("smartmat ")
    assert context["ruleset"] == "catacombs-3e"
    assert context["overlay"] is None


def test_a_replay_with_other_cards_says_so_and_still_replays(tmp_path: Path) -> None:
    """docs/game-log.md (context): a dispute months later learns that the cards have changed since."""
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    played = {**SETUP, "overlay": str(overlay)}
    played["context"] = game_context(played)
    assert played["context"]["content"].startswith("sha256:")
    log = LogWriter()
    log.setup(played)
    assert replay(log.records).context_differences == []
    (overlay / "monsters.yaml").write_text("monsters: {}\n")  # the organiser changed the cards since
    result = replay(log.records)
    assert [d.split(":")[0] for d in result.context_differences] == ["overlay"]
    assert result.state.room_deck == ("the-outer-bailey",)
