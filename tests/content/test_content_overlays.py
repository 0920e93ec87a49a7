"""An organiser's overlay directory corrects or adds cards; broken overlay files are refused with the file
and key path named, and nothing of the shipped content is lost."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from service.content import ContentError
from service.games.catacombs.content import load_content


def overlay(tmp_path: Path, **files: str) -> Path:
    directory = tmp_path / "organiser"
    directory.mkdir()
    for key, text in files.items():  # monsters_yaml -> monsters.yaml, poison_deck_yaml -> poison-deck.yaml
        stem, extension = key.rsplit("_", 1)
        (directory / f"{stem.replace('_', '-')}.{extension}").write_text(
            textwrap.dedent(text), encoding="utf-8"
        )
    return directory


def problems_of(directory: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_content("catacombs-3e", overlay=directory)
    return [str(problem) for problem in caught.value.problems]


def test_correcting_one_monsters_health_takes_effect_and_keeps_the_rest(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="""
            monsters:
              pit-viper:
                health: 2
                source: "read from the card at the Spring Open, 2027"
                unverified_fields: {}
        """,
    )
    shipped = load_content("catacombs-3e")
    corrected = load_content("catacombs-3e", overlay=directory)
    viper = corrected.monsters["pit-viper"]
    assert shipped.monsters["pit-viper"].health == 1
    assert viper.health == 2
    assert viper.verified and viper.source == "read from the card at the Spring Open, 2027"
    assert viper.shot_sequences == shipped.monsters["pit-viper"].shot_sequences
    assert corrected.monsters["troll"] == shipped.monsters["troll"]
    assert corrected.files[-1].endswith("organiser/monsters.yaml")


def test_an_overlay_can_add_a_room_with_a_new_monster(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="""
            monsters:
              cave-bear:
                name: Cave Bear
                family: mythological
                level: 3
                health: 2
                reward_gold: 3
                shot_sequences:
                - [{shot: rush}, {shot: melee, modifier: critical}]
        """,
        rooms_yaml="""
            rooms:
              bear-den:
                name: Bear Den
                difficulty: 1
                quadrants:
                  level_1: [{kind: mercenary, count: 2}]
                  level_3: [{kind: specific, monster: cave-bear, count: 1}]
        """,
    )
    content = load_content("catacombs-3e", overlay=directory)
    assert len(content.monsters) == 27 and len(content.rooms) == 29
    den = content.rooms["bear-den"]
    assert [(e.kind, e.level, e.monster) for e in den.entries] == [
        ("mercenary", 1, None),
        ("specific", 3, "cave-bear"),
    ]


def test_the_real_poison_deck_replaces_the_placeholder(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        poison_deck_yaml="""
            poison_deck:
              dose-1: {copies: 5, unverified: false, source: card count}
              dose-2: {copies: 5, unverified: false, source: card count}
              dose-3: {copies: 5, unverified: false, source: card count}
        """,
    )
    deck = load_content("catacombs-3e", overlay=directory).poison_deck
    assert deck.cards == (1,) * 5 + (2,) * 5 + (3,) * 5
    assert deck.verified


def test_a_typo_in_a_shot_name_names_file_and_key(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="""
            monsters:
              troll:
                shot_sequences:
                - [{shot: rush}, {shot: mele, modifier: regeneration}]
        """,
    )
    [problem] = problems_of(directory)
    assert problem.startswith(
        f"{directory / 'monsters.yaml'}: troll.shot_sequences[0][1].shot: expected one of 'melee', 'rush', "
    )
    assert problem.endswith(", found 'mele'")


def test_a_new_monster_missing_a_required_key(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="""
            monsters:
              cave-bear:
                name: Cave Bear
                family: mythological
                health: 2
                reward_gold: 3
                shot_sequences: [[{shot: melee}]]
        """,
    )
    assert problems_of(directory) == [
        f"{directory / 'monsters.yaml'}: cave-bear: missing the required field 'level'"
    ]


def test_a_room_naming_an_unknown_monster(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        rooms_yaml="""
            rooms:
              the-barracks:
                quadrants:
                  level_1: [{kind: specific, monster: orcc, count: 4}]
        """,
    )
    assert problems_of(directory) == [
        f"{directory / 'rooms.yaml'}: the-barracks.quadrants.level_1[0].monster: unknown monster 'orcc'"
    ]


def test_bad_yaml_syntax_names_file_and_line(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        heroes_yaml="""
            heroes:
              xoric:
                starting_health: [9
                name: Xoric the Barbarian
        """,
    )
    [problem] = problems_of(directory)
    assert problem.startswith(f"{directory / 'heroes.yaml'}: invalid YAML: line ")


def test_a_wrong_type(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        lords_yaml="""
            lords:
              phoshar-the-dragon:
                starting_health: ten
        """,
    )
    assert problems_of(directory) == [
        f"{directory / 'lords.yaml'}: phoshar-the-dragon.starting_health: "
        "expected a whole number, found 'ten'"
    ]


def test_a_misspelt_field_is_not_silently_ignored(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters:\n  troll:\n    helth: 3\n")
    [problem] = problems_of(directory)
    assert problem.startswith(f"{directory / 'monsters.yaml'}: troll.helth: unknown field; a monster has ")
    assert "health" in problem


def test_a_key_given_twice(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters:\n  troll:\n    health: 3\n    health: 4\n")
    [problem] = problems_of(directory)
    assert "key 'health' appears twice" in problem and "monsters.yaml" in problem


def test_a_file_this_rule_set_does_not_have(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monster_yaml="monsters: {}\n")
    [problem] = problems_of(directory)
    assert problem.startswith(f"{directory / 'monster.yaml'}: not a content file of this rule set")


def test_an_id_that_cannot_go_into_an_mqtt_topic(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="""
            monsters:
              Cave/Bear: {name: Cave Bear, family: vermin, level: 1, health: 1, reward_gold: 1,
                          shot_sequences: [[{shot: melee}]]}
        """,
    )
    [problem] = problems_of(directory)
    assert problem.startswith(f"{directory / 'monsters.yaml'}: Cave/Bear: ids are lower-case")


def test_a_poison_deck_that_does_not_add_up_to_fifteen(tmp_path: Path) -> None:
    directory = overlay(tmp_path, poison_deck_yaml="poison_deck:\n  dose-1: {copies: 9}\n")
    [problem] = problems_of(directory)
    assert problem == (
        f"{directory / 'poison-deck.yaml'}: dose-1.copies: the Poison deck holds 18 cards; "
        "the 3E component list has 15"
    )


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="monsters:\n  troll: {level: 7}\n  orc: {family: goblin}\n",
        lords_yaml="lords:\n  vasesak-the-sorcerer: {mercenary_monster: skeleton-warior}\n",
    )
    with pytest.raises(ContentError) as caught:
        load_content("catacombs-3e", overlay=directory)
    keys = [problem.key_path for problem in caught.value.problems]
    assert keys == ["orc.family", "troll.level"]  # cross-references are checked once the files are valid


def test_shipped_content_is_untouched_by_a_refused_overlay(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters:\n  troll: {health: lots}\n")
    problems_of(directory)
    assert load_content("catacombs-3e").monsters["troll"].health == 2


def test_a_missing_overlay_directory(tmp_path: Path) -> None:
    assert problems_of(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: overlay directory does not exist"]


def test_an_unknown_rule_set() -> None:
    with pytest.raises(ContentError, match="content/catacombs-9e: no such rule set content"):
        load_content("catacombs-9e")


def test_the_overlay_may_be_named_by_a_string_as_in_a_game_setup(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters:\n  troll: {health: 3}\n")
    assert load_content("catacombs-3e", overlay=str(directory)).monsters["troll"].health == 3


def test_values_yaml_reads_as_dates_or_numbered_keys_are_refused_plainly(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters:\n  troll: {health: 2026-11-22, 7: seven}\n")
    problems = problems_of(directory)
    assert (
        f"{directory / 'monsters.yaml'}: troll.health: expected a whole number, found the date 2026-11-22"
        in problems
    )
    assert any(
        problem.startswith(f"{directory / 'monsters.yaml'}: troll[7]: unknown field") for problem in problems
    )


def test_replace_drops_every_shipped_field_of_a_record(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        monsters_yaml="""
            monsters:
              troll:
                replace: true
                name: Troll
                family: dungeon
                level: 2
                health: 3
                reward_gold: 2
                shot_sequences: [[{shot: melee}, {shot: melee, modifier: regeneration}]]
        """,
    )
    troll = load_content("catacombs-3e", overlay=directory).monsters["troll"]
    assert (troll.health, troll.disc_size, troll.source) == (3, None, None)
    assert [s.modifier for s in troll.shot_sequences[0]] == [None, "regeneration"]


def test_replace_without_the_required_fields_is_refused(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters:\n  troll: {replace: true, health: 3}\n")
    problems = problems_of(directory)
    assert (
        f"{directory / 'monsters.yaml'}: troll: "
        "missing the required fields 'name', 'family', 'level', 'reward_gold', 'shot_sequences'"
    ) in problems


def test_a_layout_asking_for_more_rooms_than_the_decks_hold(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        layouts_yaml="""
            layouts:
              marathon:
                name: Marathon
                kind: random
                slots: [{battle: 0}, {battle: 0}, {battle: 0}, {battle: 0}, {battle: 0}, {battle: 0},
                        {special: any}, {special: any}, {special: any}, {special: any}, {special: any},
                        {lair: true}]
        """,
    )
    assert problems_of(directory) == [
        f"{directory / 'layouts.yaml'}: marathon.slots: 6 difficulty-0 slots but 5 such rooms",
        f"{directory / 'layouts.yaml'}: marathon.slots: 5 special slots but only 4 special rooms",
    ]


def test_a_layout_with_the_lair_in_the_middle(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path, layouts_yaml="layouts:\n  tutorial:\n    slots: [{lair: true}, {room: the-barracks}]\n"
    )
    lair_rule = "the Catacomb Lord's Lair must be the last card, and only there"
    assert problems_of(directory) == [f"{directory / 'layouts.yaml'}: tutorial.slots: {lair_rule}"]


def test_a_summon_of_something_that_does_not_exist(tmp_path: Path) -> None:
    directory = overlay(
        tmp_path,
        items_yaml="items:\n  vaiels-urn:\n    shot_sequences: [[{shot: summon, summons: stone-antient}]]\n",
    )
    where = f"{directory / 'items.yaml'}: vaiels-urn.shot_sequences[0][0].summons"
    assert problems_of(directory) == [f"{where}: unknown monster or Antient 'stone-antient'"]


def test_an_overlay_named_by_a_file_instead_of_its_directory(tmp_path: Path) -> None:
    directory = overlay(tmp_path, monsters_yaml="monsters: {}\n")
    assert problems_of(directory / "monsters.yaml") == [
        f"{directory / 'monsters.yaml'}: overlay directory is a file, not a directory"
    ]
