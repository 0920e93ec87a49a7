"""The referee runs the table over MQTT: every change is checked, logged first, published, and answered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.eventlog.memory import MemoryEventLog
from service.table.session import TableSession
from tests.helpers.game_script import GameScript


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript()
    yield table
    table.close()


def into_battle(table: GameScript) -> None:
    assert table.send("enter_room")["ok"]
    assert table.send("start_battle")["ok"]
    assert table.state["phase"] == "battle"


def test_a_new_table_starts_the_configured_game_and_publishes_it(table: GameScript) -> None:
    assert [r.kind for r in table.eventlog.records()] == ["setup"]
    state = table.state
    assert state["seq"] == 1
    assert {c["id"] for c in state["characters"]} == {
        "hero-varesh",
        "hero-roosan",
        "hero-elani",
        "hero-xoric",
    }
    assert all(c["piece"] == c["id"] for c in state["characters"])  # heroes stand on their own discs


def test_entering_the_room_places_monsters_on_free_discs_of_their_family(table: GameScript) -> None:
    table.send("enter_room")
    monsters = [c for c in table.state["characters"] if c["kind"] == "monster"]
    assert {c["piece"] for c in monsters if c["id"].startswith("monster-orc")} <= {
        f"dungeon-{i}" for i in range(1, 10)
    }
    assert len({c["piece"] for c in monsters}) == len(monsters)  # one disc each


def test_declaring_and_ending_a_turn_is_logged_and_answered_with_its_seq(table: GameScript) -> None:
    into_battle(table)
    answer = table.declare("hero-xoric")
    assert answer["ok"] and answer["seq"] == table.eventlog.last_seq()
    assert table.state["expected_shot"]["character"] == "hero-xoric"
    assert table.end_turn()["ok"]
    assert "hero-xoric" in table.state["turn"]["acted"]


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing(table: GameScript) -> None:
    into_battle(table)
    before = table.eventlog.last_seq()
    answer = table.declare("monster-orc-1")  # the heroes act first
    assert not answer["ok"]
    assert "catacombs-3e-reference.txt" in answer["error"]
    assert table.eventlog.last_seq() == before
    assert table.state["seq"] == before


def test_malformed_and_unknown_commands_are_refused_and_nothing_is_logged(table: GameScript) -> None:
    before = table.eventlog.last_seq()
    broken = table.send(
        "declare", raw=b'{"txn": "t-1", "actor": "referee:anna", "command": "declare", "args": [1]}'
    )
    assert broken["txn"] == "t-1" and broken["ok"] is False  # answered, to the body's own transaction
    assert "args" in broken["error"]
    assert not table.send("teleport_everyone")["ok"]
    assert not table.declare(42)["ok"]
    assert table.eventlog.last_seq() == before


def test_a_retained_command_is_a_broker_replay_and_is_ignored(table: GameScript) -> None:
    table.send("enter_room", retain=True)  # a careless client leaves its command retained on the broker
    after_live_command = table.eventlog.last_seq()
    table.daemon_mqtt.reconnect()  # the broker replays the retained command to the new subscription
    table.settle()
    assert table.eventlog.last_seq() == after_live_command


def test_undo_takes_back_the_last_action_by_appending_a_record(table: GameScript) -> None:
    into_battle(table)
    table.declare("hero-elani")
    assert table.state["turn"]["character"] == "hero-elani"
    answer = table.send("undo", reason="declared the wrong hero")
    assert answer["ok"]
    assert table.state["turn"]["character"] is None
    kinds = [r.kind for r in table.eventlog.records()]
    assert kinds[-2:] == ["action", "undo"]  # nothing rewritten
    assert any("declared the wrong hero" in t for t in table.event_texts())


def test_corrections_need_a_reason_and_are_logged_as_corrections(table: GameScript) -> None:
    into_battle(table)
    refused = table.send("correct", target="hero-xoric", field="health", value=3)
    assert not refused["ok"] and "reason" in refused["error"]
    answer = table.send("correct", target="hero-xoric", field="health", value=3, reason="tracker slipped")
    assert answer["ok"], answer
    assert table.character("hero-xoric")["health"] == 3
    assert table.eventlog.records()[-1].kind == "correction"
    assert table.eventlog.records()[-1].by == "referee:anna"


def test_pause_and_resume(table: GameScript) -> None:
    assert table.send("pause", reason="spilled drink")["ok"]
    assert table.state["table"]["paused"] is True
    assert not table.send("pause")["ok"]
    assert table.send("resume")["ok"]
    assert table.state["table"]["paused"] is False


def test_the_referee_can_move_a_character_to_another_disc(table: GameScript) -> None:
    table.send("enter_room")
    orc = next(c for c in table.state["characters"] if c["id"] == "monster-orc-1")
    assert table.send("bind", character="monster-orc-1", piece="dungeon-9")["ok"]
    assert table.character("monster-orc-1")["piece"] == "dungeon-9"
    assert orc["piece"] != "dungeon-9"
    assert not table.send("bind", character="monster-orc-1", piece="no-such-disc")["ok"]


def test_confirming_hits_needs_a_waiting_shot(table: GameScript) -> None:
    into_battle(table)
    assert "no shot is waiting" in table.send("confirm_hits", candidate=0)["error"]


def test_a_manual_shot_resolves_the_expected_shot_when_a_sensor_failed(table: GameScript) -> None:
    into_battle(table)
    table.declare("hero-xoric")
    shot = table.state["expected_shot"]["shot"]
    answer = table.send("manual_shot", direct_hits=["monster-orc-1"])
    assert answer["ok"], answer
    record = table.eventlog.records()[-1]
    assert record.payload["action"] == "resolve_shot" and record.payload["shot"] == shot
    assert record.payload["direct_hits"] == ["monster-orc-1"]


def test_a_restart_replays_the_log_to_the_same_published_state() -> None:
    eventlog = MemoryEventLog()
    first = GameScript(eventlog=eventlog)
    into_battle(first)
    first.declare("hero-xoric")
    first.send("manual_shot", direct_hits=["monster-orc-1"])
    before = first.state
    first.close()
    second = GameScript(eventlog=eventlog)
    assert second.state == before
    assert [r.kind for r in eventlog.records()].count("setup") == 1  # resumed, not restarted
    second.close()


def test_the_log_replays_offline_to_what_was_published(table: GameScript) -> None:
    into_battle(table)
    table.declare("hero-varesh")
    offline = TableSession.replay(table.eventlog.records(), binder=table.daemon.bind_discs).snapshot()
    published = table.state
    for key in ("phase", "round", "turn", "expected_shot", "gold", "pending", "actions", "table"):
        assert offline[key] == published[key], key
    assert offline["characters"] == published["characters"]
    assert next(c for c in offline["characters"] if c["id"] == "hero-varesh")["piece"] == "hero-varesh"


def test_a_correction_may_name_the_disc_instead_of_the_character(table: GameScript) -> None:
    into_battle(table)
    orc_disc = table.character("monster-troll-1")["piece"]
    assert table.send("correct", target=orc_disc, field="health", value=1, reason="flipped by hand")["ok"]
    assert table.character("monster-troll-1")["health"] == 1


def test_undo_several_actions_at_once(table: GameScript) -> None:
    into_battle(table)
    table.declare("hero-elani")
    table.end_turn()
    assert table.send("undo", count=2, reason="wrong hero")["ok"]
    assert table.state["turn"]["character"] is None and table.state["turn"]["acted"] == []
    assert [r.kind for r in table.eventlog.records()][-2:] == ["undo", "undo"]


def test_poison_is_not_set_by_hand(table: GameScript) -> None:
    into_battle(table)
    answer = table.send("correct", target="hero-xoric", field="poison", value=0, reason="x")
    assert not answer["ok"] and "poison is not set by hand" in answer["error"]


def test_the_snapshot_lists_what_may_be_declared_as_the_cards_draw_it(table: GameScript) -> None:
    into_battle(table)
    actions = table.state["actions"]
    assert {a["character"] for a in actions} == {"hero-varesh", "hero-roosan", "hero-elani", "hero-xoric"}
    varesh = next(a for a in actions if a["character"] == "hero-varesh")
    assert [s["shot"] for s in varesh["shots"]] == ["rush", "missile"]
    table.send("declare", character=varesh["character"], alternative=varesh["alternative"])
    assert table.state["actions"] == []  # a turn is under way: nothing else may be declared


def test_the_referee_gives_and_takes_a_card(table: GameScript) -> None:
    into_battle(table)
    given = table.send(
        "correct", target="hero-xoric", field="card", card="healing-salve", change="give", reason="paid"
    )
    assert given["ok"], given
    assert table.character("hero-xoric")["items"] == ["healing-salve"]
    taken = table.send(
        "correct", target="hero-xoric", field="card", card="healing-salve", change="take", reason="no"
    )
    assert taken["ok"] and table.character("hero-xoric")["items"] == []
    refused = table.send(
        "correct", target="hero-xoric", field="card", card="healing-salve", change="take", reason="x"
    )
    assert not refused["ok"] and "holds no" in refused["error"]
    assert [r.kind for r in table.eventlog.records()][-2:] == ["correction", "correction"]
