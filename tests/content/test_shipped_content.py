"""The shipped Catacombs 3E content loads and agrees with the rulebook's component list and examples."""

from __future__ import annotations

import re

import pytest

from service.content import ShotSpec
from service.games.catacombs.content import Content, load_content

ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content("catacombs-3e")


def test_counts_match_the_rulebook_component_list(content: Content) -> None:
    # 3E reference: Components - 26 Monster cards, 33 Room cards (28 battle + 5 special), 12 Lord cards
    # (4 lords x 3), 12 Hero cards (6 heroes x 2), 15 Poisoned! cards, three double-sided playmats.
    assert len(content.monsters) == 26
    assert len(content.rooms) == 28
    assert len(content.special_rooms) == 5
    assert len(content.lords) == 4
    assert len(content.heroes) == 6
    assert len(content.poison_deck) == 15
    assert len(content.playmats) == 6
    assert {mat.mat for mat in content.playmats.values()} == {
        "mausoleum-throne-room",
        "lava-tube-root-cellar",
        "campfire-altar",
    }
    assert sum(ability.copies for ability in content.abilities.values()) == 4


def test_every_id_can_be_used_in_an_mqtt_topic(content: Content) -> None:
    for record in content.all_records():
        assert ID.match(record.id), record.id


def test_the_barracks_holds_four_orcs_a_troll_and_a_pit_viper(content: Content) -> None:
    # 3E reference: Room Cards ("the Overseer takes 4 Orcs (level 1), 1 Troll (level 2) and 1 Pit Viper").
    barracks = content.rooms["the-barracks"]
    placed = {(entry.monster, entry.level): entry.count for entry in barracks.entries}
    assert placed == {("orc", 1): 4, ("troll", 2): 1, ("pit-viper", 2): 1}


def test_the_mitholaq_hive_has_two_level_one_monster_metre_icons(content: Content) -> None:
    hive = content.rooms["the-mitholaq-hive"]
    assert [(e.kind, e.level, e.count) for e in hive.entries] == [("monster_metre", 1, 2)]


def test_monster_cards_match_the_rulebook_examples(content: Content) -> None:
    monsters = content.monsters
    assert monsters["troll"].shot_sequences == ((ShotSpec("melee", "regeneration"),),)
    assert monsters["skeleton-warrior"].nullifies == (ShotSpec("missile"),)
    assert monsters["minotaur"].reflects == (ShotSpec("missile"),)
    assert monsters["sewer-rat"].shot_sequences == ((ShotSpec("melee", "poison"),),)
    # The Orc's card reads "melee Or missile": two alternatives of one shot each.
    assert [[s.shot for s in alt] for alt in monsters["orc"].shot_sequences] == [["melee"], ["missile"]]
    cube = monsters["gelatinous-cube"]
    assert cube.sequence_selection == "ordered_by_round"
    assert [alt[1].modifier or alt[1].shot for alt in cube.shot_sequences] == [
        "corrosion",
        "fear",
        "devour",
        "critical",
    ]


def test_later_shots_are_joined_by_then_and_the_first_has_no_connector(content: Content) -> None:
    cerberus = content.monsters["cerberus"].shot_sequences[0]
    assert [s.connector for s in cerberus] == [None, "then", "then", "then"]


def test_shadow_monsters_have_no_health_and_others_do(content: Content) -> None:
    shadows = {mid for mid, m in content.monsters.items() if m.shadow}
    assert shadows == {"phantom", "blood-skull"}
    assert all(content.monsters[mid].health is None for mid in shadows)
    assert all(m.health for mid, m in content.monsters.items() if mid not in shadows)


def test_catacomb_lords_from_weakest_to_strongest(content: Content) -> None:
    ranked = sorted(content.lords.values(), key=lambda lord: lord.strength_rank or 0)
    assert [lord.id for lord in ranked] == [
        "vasesak-the-sorcerer",
        "shargila-the-gorgon",
        "hmotha-the-lich-lord",
        "phoshar-the-dragon",
    ]
    assert content.lords["hmotha-the-lich-lord"].mercenary_monster == "zombie"
    for lord in ranked:
        assert all(minion.monster in content.monsters for minion in lord.minions)


def test_hero_stand_ins_are_marked_unverified_with_a_source(content: Content) -> None:
    varesh = content.heroes["varesh"]
    assert varesh.starting_health == 8  # 3E reference: Poison Cards example
    assert "starting_health" not in varesh.unverified_fields
    xoric = content.heroes["xoric"]
    assert not xoric.verified
    assert "starting_health" in xoric.unverified_fields
    assert max(h.starting_health for h in content.heroes.values()) == xoric.starting_health
    roosan = content.heroes["roosan"]
    assert [s.shot for s in roosan.shot_sequences[0]] == ["rush", "melee", "rush", "rush"]
    for hero in content.heroes.values():
        assert hero.source, hero.id
        assert hero.shot_sequences, hero.id


def test_the_placeholder_poison_deck_is_marked_unverified(content: Content) -> None:
    deck = content.poison_deck
    assert not deck.verified
    assert len(deck.cards) == 15
    assert 3 in deck.cards


def test_the_lair_closes_every_layout(content: Content) -> None:
    for layout in content.layouts.values():
        assert layout.slots[-1].kind == "lair"
    tutorial = content.layouts["tutorial"]
    assert not tutorial.verified
    assert all(
        slot.room in content.rooms or slot.room in content.special_rooms for slot in tutorial.slots[:-1]
    )


def test_content_records_are_immutable(content: Content) -> None:
    with pytest.raises(AttributeError):
        content.monsters["troll"].health = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        content.monsters["ogre"] = content.monsters["troll"]  # type: ignore[index]


def test_vaiels_urn_summons_the_invulnerable_liquid_antient(content: Content) -> None:
    urn = content.items["vaiels-urn"]
    antient = content.antients[urn.shot_sequences[0][0].summons or ""]
    assert antient.name == "Urthoth the Liquid Antient"
    assert antient.invulnerable and antient.control == "alternates"
    assert antient.shot_sequences == ()  # not in any source: to be added from the card
