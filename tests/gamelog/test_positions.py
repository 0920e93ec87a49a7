"""Positions (docs/positions.md): export at any record, start a log from one, and refuse what cannot occur."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.gamelog.positions import position_setup
from service.gamelog.records import Record, read_log
from service.gamelog.replay import SetupError, replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted(  # the Catacombs 3E example logs (positions are a 3E format)
    p
    for p in (ROOT / "examples" / "logs").glob("*.jsonl")
    if read_log(p)[0].payload.get("ruleset", "catacombs-3e") == "catacombs-3e"
)


def restarted(setup: dict[str, Any], actions: list[dict[str, Any]] = ()) -> list[Record]:  # type: ignore[assignment]
    log = LogWriter()
    log.setup(setup)
    for payload in actions:
        seq = len(log.records) + 1
        log.records.append(Record(seq=seq, at=log.at, by="referee", kind="action", payload=payload))
    return log.records


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_record_of_an_example_log_exports_a_position_that_loads_back_as_it_was(path: Path) -> None:
    """docs/positions.md: "Loading an exported position gives back the very same state"."""
    records = read_log(path)
    for k in range(1, len(records) + 1):
        original = replay(records[:k]).state
        setup = json.loads(json.dumps(position_setup(records[:k])))  # through its JSON text
        assert replay(restarted(setup)).state.to_json() == original.to_json(), f"{path.name} at seq {k}"


def test_a_game_resumed_from_a_mid_game_position_ends_as_the_original_log() -> None:
    """docs/positions.md: a dispute or a hand-set table starts a log from a position and plays on."""
    records = read_log(ROOT / "examples" / "logs" / "whole-game.jsonl")
    final = replay(records).state
    for k in (2, len(records) // 3, len(records) // 2, len(records) - 3):
        later = [r.payload for r in records if r.seq > k and r.kind == "action"]
        resumed = replay(restarted(position_setup(records, at=k), later))
        assert resumed.rejected == []
        assert resumed.state.to_json() == final.to_json(), f"resumed at seq {k}"


def rulebook_poison_example() -> dict[str, Any]:
    """catacombs-3e-reference.txt: Advanced Concepts: Poison Cards, the example: the Sewer Rat hits Varesh
    (8 starting health) with its poison melee; he already holds three Poison cards totalling five."""
    heroes = [
        {"id": "hero-xoric", "card": "xoric", "kind": "hero"},
        {"id": "hero-varesh", "card": "varesh", "kind": "hero", "poison": [1, 1, 3]},
        {"id": "hero-roosan", "card": "roosan", "kind": "hero"},
        {"id": "hero-elani", "card": "elani", "kind": "hero"},
    ]
    return {
        "ruleset": "catacombs-3e",
        "content": "sample",
        "settings": {"physical_decks": True},
        "position": {
            "lord": "hmotha-the-lich-lord",
            "room_deck": ["rat-nest", "the-barracks"],
            "room_index": 0,
            "phase": "battle",
            "round": 1,
            "side": "overseer",
            "treasury": 92,
            "poison_deck": [1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3],
            "characters": [*heroes, {"id": "monster-sewer-rat-1", "card": "sewer-rat", "kind": "monster"}],
        },
    }


def test_the_rulebooks_poison_example_played_from_a_hand_written_position() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Poison Cards ("The Wizard loses one point of health ...
    draws one Poison card. The Poison card has a value of "3" ... the total amount of poison equals his total
    starting health of eight. The Wizard dies and the Poison cards are ... shuffled back")."""
    actions = [
        A.action_to_json(a)
        for a in (
            A.DeclareAction("monster-sewer-rat-1"),
            A.DrawCards("poison", ("3",)),
            A.ResolveShot("monster-sewer-rat-1", "melee", direct_hits=("hero-varesh",)),
        )
    ]
    result = replay(restarted(rulebook_poison_example(), actions))
    assert result.rejected == []
    varesh = result.state.character("hero-varesh")
    assert (varesh.alive, varesh.poison) == (False, ())
    assert sorted(result.state.poison_deck) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    texts = [e.text for _, e in result.events]
    assert "The table draws 3 from the poison deck" in texts


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda p: p.update(colour="red"), "position: unknown key(s) ['colour']"),
        (lambda p: p.pop("lord"), "position.lord is missing"),
        (lambda p: p["characters"][1].update(health=0), "characters[1].health: hero-varesh is alive with no"),
        (
            lambda p: p["characters"][1].update(poison=[3, 3, 3, 3, 3, 3]),
            "position.poison_deck: Poison cards",
        ),
        (lambda p: p["characters"].pop(0), "a game has four different heroes"),
        (lambda p: p["characters"][4].update(card="dragon"), "characters[4].card: there is no monster card"),
        (lambda p: p["characters"][4].update(health="two"), "characters[4].health: expected an integer"),
        (lambda p: p.update(room_index=5), "position.room_index: 5 is not a card"),
        (lambda p: p.update(treasury=200), "position.treasury"),
        (lambda p: p.update(acted=["hero-nobody"]), "position.acted: no character 'hero-nobody'"),
        (lambda p: p["characters"][4].update(status=["sleepy"]), "unknown status 'sleepy'"),
    ],
)
def test_a_position_that_cannot_occur_is_refused_naming_the_key(change: Any, named: str) -> None:
    """docs/positions.md ("A position that cannot occur is refused ... naming the key that is wrong")."""
    setup = rulebook_poison_example()
    change(setup["position"])
    with pytest.raises(SetupError) as refused:
        replay(restarted(setup))
    assert named in str(refused.value)


def test_smartmat_replay_prints_the_position_at_a_record(tmp_path: Path) -> None:
    """docs/positions.md: ``smartmat replay LOG --position --at SEQ``."""
    # A log of the shipped cards: outside the tests, the CLI knows no others.
    log = ROOT / "examples" / "logs" / "shipped-cards-first-room.jsonl"
    out = subprocess.run(
        [sys.executable, "-m", "service.cli", "replay", str(log), "--position", "--at", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    setup = json.loads(out.stdout)
    assert replay(restarted(setup)).state.to_json() == replay(read_log(log)[:3]).state.to_json()


def test_replay_json_shows_the_discs_the_pool_the_poison_values_and_the_decks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """catacombs-3e-reference.txt: The Resolution Phase (discs held until then); Advanced Concepts: Poison
    Cards; docs/state.md and docs/positions.md (what replay --json shows)."""
    actions = [
        A.action_to_json(a)
        for a in (
            A.DeclareAction("monster-sewer-rat-1"),
            A.DrawCards("poison", ("2",)),
            A.ResolveShot("monster-sewer-rat-1", "melee", direct_hits=("hero-xoric",)),
        )
    ]
    records = restarted(rulebook_poison_example(), actions)
    log = tmp_path / "poison.jsonl"
    log.write_text("".join(r.to_line() + "\n" for r in records))
    # In this process: the position plays with the tests' hand-made cards, which only the tests register.
    assert main(["replay", str(log), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    xoric = next(c for c in view["characters"] if c["id"] == "hero-xoric")
    assert xoric["poison"] == [2] and xoric["health"] == 8
    assert view["monster_pool"]["sewer-rat"] == 3
    assert view["referee"]["decks"] == "physical"
    assert sorted(view["referee"]["poison_deck"]) == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    assert view["referee"]["rooms_ahead"] == ["the-barracks"]


def test_a_physical_tables_position_lists_what_is_left_in_its_decks_in_no_order() -> None:
    """docs/positions.md ("deck order, or unknown when the decks are physical"); catacombs-3e-reference.txt:
    Advanced Concepts: Poison Cards (the table's own deck)."""
    actions = [
        A.action_to_json(a)
        for a in (
            A.DeclareAction("monster-sewer-rat-1"),
            A.DrawCards("poison", ("2",)),
            A.ResolveShot("monster-sewer-rat-1", "melee", direct_hits=("hero-xoric",)),
        )
    ]
    records = restarted(rulebook_poison_example(), actions)
    setup = position_setup(records)
    assert setup["position"]["deck_order"] == "unknown"
    assert setup["position"]["poison_deck"] == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    resumed = replay(restarted(setup)).state
    assert resumed.public_view() == replay(records).state.public_view()


def test_a_hand_written_position_leaves_the_supply_to_the_box() -> None:
    """docs/positions.md (what a hand-written position may leave out); catacombs-3e-reference.txt: Game
    Phases: The Setup Phase ("The supply of pieces and cards represent hard limits")."""
    setup = rulebook_poison_example()
    for key in ("treasury", "poison_deck"):
        del setup["position"][key]
    setup["position"]["characters"][0]["gold"] = 5
    setup["position"]["characters"][0]["items"] = ["healing-salve"]
    state = replay(restarted(setup)).state
    assert state.treasury == 92 - 5
    assert sorted(state.poison_deck) == [1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3]  # less Varesh's 1, 1 and 3
    assert state.item_deck.count("healing-salve") == 1  # one of the two copies is in Xoric's hands
    setup["position"]["room_index"] = -1
    with pytest.raises(SetupError, match="position.room_index: the battle phase is played in a room"):
        replay(restarted(setup))


def test_every_exported_position_and_the_hand_written_ones_meet_the_schema() -> None:
    """docs/positions.md ("one self-contained, validated JSON document ... with a schema")."""
    from jsonschema import Draft202012Validator

    schema = Draft202012Validator(json.loads((ROOT / "docs" / "position.schema.json").read_text()))
    documents = [position_setup(read_log(path))["position"] for path in LOGS]
    documents.append(rulebook_poison_example()["position"])
    documents += [
        json.loads(p.read_text())["setup"]["position"]
        for p in sorted((ROOT / "tests" / "data" / "positions").glob("*.json"))
    ]
    for document in documents:
        assert [e.message for e in schema.iter_errors(document)] == []
    wrong = {**rulebook_poison_example()["position"], "phase": "lunch"}
    assert any("lunch" in e.message for e in schema.iter_errors(wrong))
