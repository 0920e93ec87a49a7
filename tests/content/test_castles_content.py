"""Catacombs & Castles content: what the two manuals state, checked the same way as Catacombs 3E."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.content import ContentError
from service.games.castles.content import load_castles_content
from service.games.catacombs.content import load_content


def test_second_edition_teams_have_six_heroes_and_one_of_each_role_but_defender() -> None:
    content = load_castles_content("catacombs-and-castles-2e")
    for team in ("castle", "catacomb"):
        heroes = [hero for hero in content.heroes.values() if hero.team == team]
        assert len(heroes) == 6
        roles = sorted(hero.role or "" for hero in heroes)
        # C&C 2E manual: Heroes - each team has two Defenders and one of every other role.
        assert roles == ["defender", "defender", "healer", "infiltrator", "spellcaster", "striker"]


def test_second_edition_tutorial_sequences_and_shot_damage() -> None:
    content = load_castles_content("catacombs-and-castles-2e")
    delilah = content.heroes["delilah"]
    assert [[s.shot for s in alt] for alt in delilah.shot_sequences] == [["rush", "missile"]]
    assert delilah.ability == "Under the Ice"
    assert content.shots["giant-fireball"].damage == 2
    assert content.shots["critical-melee"].transfers == ("power", "void")
    assert [h.id for h in content.heroes.values() if h.quick_start] == [
        "angelique",
        "hakoru",
        "larra",
        "randsarr",
        "sothemir",
        "xaugorth",
    ]


def test_second_edition_boss_versus_boss_lengths() -> None:
    mode = load_castles_content("catacombs-and-castles-2e").modes["boss-versus-boss"]
    assert [(g.id, g.health_tokens, g.reinforcement_tokens) for g in mode.game_lengths] == [
        ("short", 8, 2),
        ("average", 16, 3),
        ("long", 24, 4),
    ]


def test_first_edition_team_mode_and_the_assassins_or_sequence() -> None:
    content = load_castles_content("catacombs-and-castles-1e")
    team = content.modes["team"]
    assert (team.health_tokens, team.armour_tokens_per_hero) == (8, 1)
    assert len(content.heroes) == 8
    hakoru = content.heroes["hakoru"]
    assert [[s.shot for s in alt] for alt in hakoru.shot_sequences] == [["rush", "shuriken"], ["melee"]]
    assert not content.shots["critical-missile"].verified


def test_a_hero_using_a_shot_the_edition_does_not_have(tmp_path: Path) -> None:
    (tmp_path / "heroes.yaml").write_text(
        "heroes:\n  randsarr:\n    shot_sequences: [[{shot: rush}, {shot: claw}]]\n"
    )
    with pytest.raises(ContentError) as caught:
        load_castles_content("catacombs-and-castles-2e", overlay=tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'heroes.yaml'}: randsarr.shot_sequences[0][1].shot: unknown shot 'claw'"
    ]


def test_the_rule_set_loaders_are_not_interchangeable() -> None:
    with pytest.raises(ContentError, match=r"content/catacombs-and-castles-2e: not a Catacombs card set"):
        load_content("catacombs-and-castles-2e")
    with pytest.raises(ContentError, match="not a Catacombs & Castles rule set"):
        load_castles_content("catacombs-3e")


def test_an_overlay_gives_the_printed_cards_for_the_2e_stand_ins(tmp_path: Path) -> None:
    (tmp_path / "heroes.yaml").write_text(
        "heroes:\n  larra:\n    ability_charge: 2\n    ability_sequences: [[{shot: longbow}, {shot: rush}]]\n"
    )
    (tmp_path / "warriors.yaml").write_text(
        "warriors:\n  castle-warrior-a:\n    shot_sequences: [[{shot: missile}]]\n    pieces: 3\n"
    )
    content = load_castles_content("catacombs-and-castles-2e", overlay=tmp_path)
    assert content.heroes["larra"].ability_charge == 2
    assert [s.shot for s in content.heroes["larra"].ability_sequences[0]] == ["longbow", "rush"]
    assert content.warriors["castle-warrior-a"].pieces == 3
    assert content.heroes["larra"].name == "Larra the Huntress"  # the rest of the record stays


def test_a_warrior_of_no_team_is_refused_naming_file_and_key(tmp_path: Path) -> None:
    (tmp_path / "warriors.yaml").write_text("warriors:\n  castle-warrior-a:\n    team: dragons\n")
    with pytest.raises(ContentError) as refused:
        load_castles_content("catacombs-and-castles-2e", overlay=tmp_path)
    assert "castle-warrior-a.team" in str(refused.value)
    assert "warriors.yaml" in str(refused.value)


def test_an_unknown_shot_on_a_warrior_or_a_boss_form_is_refused(tmp_path: Path) -> None:
    (tmp_path / "warriors.yaml").write_text(
        "warriors:\n  castle-warrior-b:\n    shot_sequences: [[{shot: claw}]]\n"
    )
    (tmp_path / "bosses.yaml").write_text(
        "bosses:\n  xaugorth:\n    form_sequences:\n      winged: [[{shot: rush}]]\n"
    )
    with pytest.raises(ContentError) as caught:
        load_castles_content("catacombs-and-castles-2e", overlay=tmp_path)
    problems = [str(p) for p in caught.value.problems]
    assert (
        f"{tmp_path / 'warriors.yaml'}: castle-warrior-b.shot_sequences[0][0].shot: unknown shot 'claw'"
        in problems
    )
    assert any("xaugorth.form_sequences.winged" in p and "not one of its forms" in p for p in problems)
