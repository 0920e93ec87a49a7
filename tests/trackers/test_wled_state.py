"""What a WLED tracker beside a player board shows: the exact JSON its MQTT API topic receives."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.sensing.tags import TableConfigError
from service.table.trackers import TrackerLayout, load_trackers, parse_trackers
from service.trackers.wled import wled_state
from tests.publish.game_snapshots import character

BOARD = TrackerLayout(bar_leds=10, status_leds=2, brightness=96)


def _xoric(health: int = 7, **changes: object) -> dict[str, object]:
    return {**character("hero-xoric", "Xoric the Barbarian", "heroes", "hero", health, 7), **changes}


def test_a_fresh_hero_lights_one_green_led_per_health_point_and_nothing_else() -> None:
    assert wled_state(_xoric(), BOARD) == {
        "on": True,
        "bri": 96,
        "transition": 0,
        "seg": [
            {"id": 0, "start": 0, "stop": 12, "on": True, "fx": 0, "i": [0, 7, "00C800", 7, 12, "000000"]}
        ],
    }


def test_a_wounded_poisoned_and_stunned_hero_shows_lost_health_poison_and_both_states() -> None:
    hero = _xoric(5, poison_total=2, status=["stunned"])
    assert wled_state(hero, BOARD)["seg"][0]["i"] == [
        0, 3, "00C800",  # health the poison will not take
        3, 5, "9600FF",  # the two points the poison will take
        5, 7, "280000",  # health already lost
        7, 10, "000000",  # past Xoric's maximum of 7
        10, 11, "9600FF",  # status: poisoned
        11, 12, "FFC800",  # status: stunned
    ]  # fmt: skip


def test_a_teleported_hero_and_a_dead_one_are_told_apart_by_colour() -> None:
    teleported = wled_state(_xoric(4, status=["teleported"]), BOARD)["seg"][0]["i"]
    assert teleported == [0, 4, "00C800", 4, 7, "280000", 7, 10, "000000", 10, 11, "00A0FF", 11, 12, "000000"]
    dead = _xoric(0, alive=False)
    assert wled_state(dead, BOARD)["seg"][0]["i"] == [0, 10, "780000", 10, 12, "000000"]


def test_a_lord_with_more_health_than_leds_fills_the_bar_in_proportion_and_keeps_its_last_point_lit() -> None:
    lord = character("lord-1", "Vasesak the Sorcerer", "overseer", "lord", 20, 20)
    assert wled_state(lord, BOARD)["seg"][0]["i"][:3] == [0, 10, "00C800"]
    assert wled_state({**lord, "health": 1}, BOARD)["seg"][0]["i"][:6] == [0, 1, "00C800", 1, 10, "280000"]


def test_charges_light_their_own_leds_and_a_character_that_left_turns_the_tracker_off() -> None:
    layout = TrackerLayout(bar_leds=4, status_leds=0, charge_leds=3)
    hero = {**character("hero-a", "A", "heroes", "hero", 4, 4), "charges": 2}
    assert wled_state(hero, layout)["seg"][0]["i"] == [0, 4, "00C800", 4, 6, "FFFFFF", 6, 7, "000000"]
    assert wled_state(None, layout)["seg"][0]["i"] == [0, 7, "000000"]


def test_tracker_configuration_is_checked_and_names_the_file_and_key(tmp_path: Path) -> None:
    trackers = parse_trackers(
        [
            {
                "id": "board-1",
                "kind": "wled",
                "topic": "wled/board-1",
                "character": "hero-xoric",
                "bar_leds": 7,
            }
        ],
        "t.yaml",
    )
    assert trackers[0].api_topic == "wled/board-1/api" and trackers[0].layout.leds == 9
    with pytest.raises(TableConfigError, match=r"t.yaml: trackers\[0\].topic: WLED device topic 'board-1'"):
        parse_trackers([{"id": "board-1", "topic": "board-1"}], "t.yaml")
    with pytest.raises(
        TableConfigError, match=r"trackers\[0\].bar_leds: expected a whole number from 1 to 200"
    ):
        parse_trackers([{"id": "b", "topic": "wled/b", "bar_leds": 0}], "t.yaml")
    with pytest.raises(TableConfigError, match="topic wled/b is used by two trackers"):
        parse_trackers([{"id": "a", "topic": "wled/b"}, {"id": "b", "topic": "wled/b"}], "t.yaml")
    (tmp_path / "t.yaml").write_text("table: t\n")
    assert load_trackers(tmp_path / "t.yaml") == ()


def test_a_castles_hero_shows_its_teams_health_pool_and_the_tokens_charged_on_its_cards() -> None:
    # The shape service/games/castles/core/state.py publishes: health is the side's Health Pool, charges the
    # Health Tokens on the hero's cards.
    hero = {
        "id": "hero-1",
        "kind": "hero",
        "side": "team-1",
        "alive": True,
        "health": 9,
        "max_health": 12,
        "pool": "team-1",
        "charges": 3,
        "status": ["trapped"],
    }
    layout = TrackerLayout(bar_leds=12, status_leds=1, charge_leds=4)
    assert wled_state(hero, layout)["seg"][0]["i"] == [
        0, 9, "00C800",  # the team's pool: 9 of 12
        9, 12, "280000",
        12, 13, "FF0078",  # trapped
        13, 16, "FFFFFF",  # three tokens charged on the hero's cards
        16, 17, "000000",
    ]  # fmt: skip
