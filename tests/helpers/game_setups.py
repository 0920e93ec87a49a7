"""The games the tests start from, each a ``RulesScript`` (tests/helpers/rules_script.py): the sample 3E
party in the rooms a test names, the Catacombs & Castles tutorial teams and Boss Mode, the Catacombs 1E
heroes. Only the setup records differ; the script is the same for every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from service.gamelog.replay import load_content
from service.games.catacombs.content.first_edition import load_catacombs1e_content
from service.games.catacombs.flow.cards import Content
from service.games.catacombs.flow.settings import Settings
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import FIRST_GAME_HEROES, sample_content

# -- Catacombs 3E, with the sample cards (tests/helpers/sample_content.py) ----------------------------------


def catacombs_3e(
    rooms: Sequence[str],
    heroes: Sequence[str] = FIRST_GAME_HEROES,
    lord: str = "hmotha-the-lich-lord",
    seed: int = 7,
    settings: Settings | None = None,
    poison_deck: tuple[int, ...] | None = None,
    items: dict[str, Sequence[str]] | None = None,
    content: Content | None = None,
    spells: dict[str, Sequence[str]] | None = None,
) -> RulesScript:
    """The sample party against a Lord in these rooms (the sample cards, or ``content``)."""
    if content is None:
        content = sample_content(poison_deck) if poison_deck is not None else sample_content()
    setup = {
        "ruleset": "catacombs-3e",
        "heroes": heroes,
        "lord": lord,
        "rooms": rooms,
        "seed": seed,
        "items": items,
        "spells": spells,
    }
    return RulesScript(setup, content, settings)


def in_the_barracks() -> RulesScript:
    """The sample party in the battle of the Barracks."""
    script = catacombs_3e(["the-barracks"])
    script.enter_battle()
    return script


# -- Catacombs & Castles: both editions play the shipped cards ----------------------------------------------

CASTLES_2E = "catacombs-and-castles-2e"
CASTLES_1E = "catacombs-and-castles-1e"
MANUAL_2E = "catacombs-and-castles-2e-manual.md"
MANUAL_1E = "catacombs-and-castles-1e-manual.txt"
TUTORIAL_TEAMS = [
    {"team": "castle", "heroes": ["larra", "kethyst", "delilah"]},
    {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"]},
]
SAM = TUTORIAL_TEAMS[0]  # the 1E tutorial's Team Castle
JEN = TUTORIAL_TEAMS[1]  # and Team Catacomb


@cache
def shipped_cards(ruleset: str) -> Any:
    """A game's shipped cards, loaded once (as a setup naming no ``content`` loads them)."""
    return load_content({"ruleset": ruleset})


def with_attributes(cards: Any, hero: str, *attributes: str) -> Any:
    """Castles cards where ``hero``'s card prints these attributes."""
    heroes = dict(cards.heroes)
    heroes[hero] = replace(heroes[hero], attributes=attributes)
    return replace(cards, heroes=heroes)


def castles(ruleset: str, setup: dict[str, Any], cards: Any = None) -> RulesScript:
    """A Castles game of either edition; a declare names the first alternative unless told."""
    return RulesScript({"ruleset": ruleset, **setup}, cards or shipped_cards(ruleset), alternative=0)


def castles_2e(setup: dict[str, Any], cards: Any = None) -> RulesScript:
    return castles(CASTLES_2E, setup, cards)


def castles_1e(setup: dict[str, Any], cards: Any = None) -> RulesScript:
    return castles(CASTLES_1E, setup, cards)


def team_game(first: str = "catacomb", **extra: Any) -> RulesScript:
    """2E Team Mode with the tutorial's teams."""
    return castles_2e({"mode": "team", "first": first, "sides": TUTORIAL_TEAMS, **extra})


def tutorial(**extra: Any) -> RulesScript:
    """1E Team Mode Tutorial Setup: Sam's Team Castle against Jen's Team Catacomb, on the Castle side."""
    return castles_1e({"mode": "team", "board_side": "castle", "sides": [SAM, JEN], **extra})


def boss_game(**extra: Any) -> RulesScript:
    """1E Boss Mode: three Catacomb heroes against Sothemir the Castle Lord."""
    lord = {"team": "castle", "boss": "sothemir", "warriors": ["royal-archer", "watch-guard", "querling"]}
    return castles_1e(
        {"mode": "boss", "sides": [{"team": "catacomb", "heroes": JEN["heroes"]}, lord], **extra}
    )


# -- Catacombs 1E: the shipped (Italian) cards --------------------------------------------------------------

CATACOMBS_1E = "catacombs-1e"
MANUAL_CATACOMBS_1E = "catacombs-1e-rules-italian.txt"
HEROES_1E = ["barbaro", "elfo", "ladra", "mago"]


def catacombs_1e(
    rooms: list[str] | None = None, lord: str = "dragone", overlay: Path | None = None, **extra: Any
) -> RulesScript:
    """The four heroes against a Lord (the rooms dealt from the seed unless named); ``overlay``: the shipped
    cards with an organiser's overlay."""
    cards = load_catacombs1e_content(overlay) if overlay else shipped_cards(CATACOMBS_1E)
    setup: dict[str, Any] = {"ruleset": CATACOMBS_1E, "heroes": HEROES_1E, "lord": lord, "seed": 1, **extra}
    if rooms:
        setup["rooms"] = rooms
    return RulesScript(setup, cards)
