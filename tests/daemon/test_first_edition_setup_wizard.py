"""The set-up wizard at First Edition tables: each edition's own choice, checked by its rules before anything
is logged (docs/setup.md, "The set-up wizard")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.table.config import load_table
from tests.helpers.game_script import GameScript

HEROES_1E = ["barbaro", "elfo", "ladra", "mago"]


def first_edition_table(name: str) -> Iterator[GameScript]:
    running = GameScript(table=load_table(Path(f"content/tables/{name}.yaml")))
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def catacombs() -> Iterator[GameScript]:
    yield from first_edition_table("catacombs-1e-demo")


@pytest.fixture
def castles() -> Iterator[GameScript]:
    yield from first_edition_table("castles-1e-demo")


def test_the_keeper_s_lord_is_the_wizard_s_choice(catacombs: GameScript) -> None:
    """catacombs-1e-rules-italian.txt: Scegliere un Signore della Catacomba — the Keeper chooses the Lord."""
    answer = catacombs.send("setup_game", heroes=HEROES_1E, lord="lich")
    assert answer["ok"], answer
    setup = catacombs.eventlog.records()[-1]
    assert (setup.kind, setup.payload["lord"], setup.payload["heroes"]) == ("setup", "lich", HEROES_1E)
    assert [c["id"] for c in catacombs.state["characters"] if c["kind"] == "lord"] == ["lord-lich"]


def test_a_first_edition_game_is_played_with_all_four_heroes(catacombs: GameScript) -> None:
    """catacombs-1e-rules-italian.txt: Preparazione del gioco — the players share out the four heroes."""
    before = catacombs.eventlog.last_seq()
    refused = catacombs.send("setup_game", heroes=["barbaro", "elfo", "ladra"], lord="lich")
    assert "the game is played with the four heroes" in refused["error"]
    assert catacombs.eventlog.last_seq() == before


def test_the_first_edition_takes_no_expansion(catacombs: GameScript) -> None:
    refused = catacombs.send("setup_game", heroes=HEROES_1E, lord="lich", expansions=["castles"])
    assert refused["error"] == (
        "a Catacombs 1E game does not take 'expansions' (it takes heroes, lord, rooms)"
    )


def test_the_team_opposite_the_board_s_side_goes_first(castles: GameScript) -> None:
    """catacombs-and-castles-1e-manual.txt: Placing The Heroes — "The opposite team to the side of the board
    being played goes first"; Armour Tokens — the wizard may leave them out."""
    sides = [
        {"team": "castle", "heroes": ["larra", "kethyst"]},
        {"team": "catacomb", "heroes": ["hakoru", "formilus"]},
    ]
    answer = castles.send("setup_game", mode="team", sides=sides, board_side="catacomb", armour_tokens=False)
    assert answer["ok"], answer
    setup = castles.eventlog.records()[-1].payload
    assert (setup["board_side"], setup["armour_tokens"]) == ("catacomb", False)
    assert "first" not in setup  # the rules, not the wizard, say who starts
    state = castles.state
    assert {a["character"] for a in state["actions"]} == {"hero-larra", "hero-kethyst"}
    assert all(c["armour"] == [] for c in state["characters"])


def test_who_goes_first_is_not_a_first_edition_choice(castles: GameScript) -> None:
    sides = [{"team": "castle", "heroes": ["larra"]}, {"team": "catacomb", "heroes": ["hakoru"]}]
    before = castles.eventlog.last_seq()
    refused = castles.send("setup_game", mode="team", sides=sides, first="castle")
    assert refused["error"] == (
        "a Catacombs & Castles 1E game does not take 'first' "
        "(it takes armour_tokens, board_side, mode, sides)"
    )
    assert castles.eventlog.last_seq() == before
