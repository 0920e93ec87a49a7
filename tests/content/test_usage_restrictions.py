"""Item cards' starting-health usage restriction and shared monster pieces in the content files
(catacombs-3e-reference.txt: Item Cards: Usage Restrictions; Room Cards: Monster Metre Icons)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from service.content import ContentError
from service.games.catacombs.adapter import rules_content
from service.games.catacombs.content import load_content
from service.games.catacombs.content.model import StartingHealthRestriction
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.rules.errors import CardNotPlayableError


def overlay(tmp_path: Path, name: str, text: str) -> Path:
    directory = tmp_path / "organiser"
    directory.mkdir()
    (directory / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return directory


def problems_of(directory: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_content("catacombs-3e", overlay=directory)
    return [str(problem) for problem in caught.value.problems]


def test_shipped_items_carry_no_starting_health_restriction_yet() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions (the card values are not known)."""
    content = load_content("catacombs-3e")
    assert all(item.starting_health_restriction is None for item in content.items.values())


def test_an_overlay_restriction_reaches_the_rules_and_is_enforced(tmp_path: Path) -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions ("only be used by heroes with a certain
    amount of health at the start of the game")."""
    directory = overlay(
        tmp_path,
        "items.yaml",
        """
        items:
          helm-of-rage:
            starting_health_restriction: {min: 8}
        """,
    )
    content = load_content("catacombs-3e", overlay=directory)
    assert content.items["helm-of-rage"].starting_health_restriction == StartingHealthRestriction(8, None)
    cards = rules_content(content)
    helm = cards.card("item", "helm-of-rage")
    assert (helm.starting_health_min, helm.starting_health_max) == (8, None)
    rules = Catacombs3E(cards)
    heroes = ["xoric", "varesh", "roosan", "elani"]
    # Varesh starts with 8 health: he may start with the helm. Elani starts with 7: she may not.
    rules.new_game(heroes, "hmotha-the-lich-lord", [], 1, items={"varesh": ["helm-of-rage"]})
    with pytest.raises(CardNotPlayableError, match="starting health of 8 or more"):
        rules.new_game(heroes, "hmotha-the-lich-lord", [], 1, items={"elani": ["helm-of-rage"]})


def test_bounds_that_no_hero_could_meet_name_the_file_and_key(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        "items.yaml",
        """
        items:
          helm-of-rage:
            starting_health_restriction: {min: 9, max: 7}
        """,
    )
    [problem] = problems_of(directory)
    assert problem == (
        f"{directory / 'items.yaml'}: helm-of-rage.starting_health_restriction.max: "
        "max 7 is below min 9: no hero could use the item"
    )


@pytest.mark.parametrize(
    ("restriction", "complaint"),
    [
        ("{minimum: 8}", "starting_health_restriction: unknown field 'minimum'; allowed: max, min"),
        ("{}", "starting_health_restriction: expected at least 1 field, found 0"),
        ("{min: 0}", "starting_health_restriction.min: expected at least 1, found 0"),
    ],
)
def test_a_malformed_restriction_names_the_file_and_key(
    tmp_path: Path, restriction: str, complaint: str
) -> None:
    directory = overlay(
        tmp_path,
        "items.yaml",
        f"""
        items:
          helm-of-rage:
            starting_health_restriction: {restriction}
        """,
    )
    [problem] = problems_of(directory)
    assert problem == f"{directory / 'items.yaml'}: helm-of-rage.{complaint}"


def test_the_ghoul_and_the_spider_share_their_piece_in_the_shipped_content() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons ("they both share the same piece")."""
    content = load_content("catacombs-3e")
    assert content.monsters["swordmaster-ghoul"].shares_pieces_with == ("crypt-spider",)
    assert content.monsters["crypt-spider"].shares_pieces_with == ("swordmaster-ghoul",)
    cards = rules_content(content)
    assert cards.monster("crypt-spider").shares_pieces_with == ("swordmaster-ghoul",)


def test_sharing_a_piece_with_an_unknown_monster_names_the_file_and_key(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        "monsters.yaml",
        """
        monsters:
          troll:
            shares_pieces_with: [trol]
        """,
    )
    [problem] = problems_of(directory)
    assert problem == f"{directory / 'monsters.yaml'}: troll.shares_pieces_with[0]: unknown monster 'trol'"
