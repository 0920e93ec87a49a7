"""A small, hand-made card set for tests and the example logs (the gpiozero ``MockFactory`` idea).

Monster, room and lord facts follow the rulebook and ``reference-data``. Where a hero card is not known
(most starting health and base sequences), the values here are fixture values, not card facts: real games
use ``service.content``. A setup names these cards as ``content: sample``; only the tests (tests/conftest.py)
and the example-log scripts register them, so a real table cannot play with them.
"""

from __future__ import annotations

from service.games.catacombs.flow.cards import (
    ActionCard,
    CardIndex,
    HeroCard,
    LordCard,
    MonsterCard,
    QuadrantEntry,
    RoomCard,
)
from service.games.catacombs.flow.shots import Sequence, Shot


def seq(*shots: str, elastic: bool = False) -> Sequence:
    """``seq("melee", "poison melee", "poison*2 melee")`` -> a Then sequence of those shots."""
    parsed = []
    for text in shots:
        words = text.split()
        kind = words[-1]
        modifier, count = None, 1
        if len(words) == 2:
            modifier, _, n = words[0].partition("*")
            count = int(n) if n else 1
        parsed.append(Shot(kind, modifier, count))
    return Sequence(tuple(parsed), elastic)


def shots(*texts: str) -> tuple[Shot, ...]:
    return seq(*texts).shots


HEROES = (
    HeroCard("xoric", "Xoric the Barbarian", 9, (seq("melee", "rush"),)),
    HeroCard(
        "varesh",
        "Varesh the Wizard",
        8,
        (seq("rush", "missile"),),
        spell_caster=True,
        abilities=("fireball",),
        spell_choices=10,
    ),
    HeroCard(
        "roosan",
        "Roosan the Chicken Champion",
        7,
        (seq("rush", "melee", "rush", "rush"),),
        abilities=("feathers-of-fury",),
    ),
    HeroCard("elani", "Elani the Thief", 7, (seq("melee", "rush"),), extra_gold_per_kill=1),
    HeroCard(
        "oleira",
        "Oleira the Elf",
        7,
        (seq("missile"), seq("melee", "rush")),
        abilities=("elven-arrow", "elven-arrow"),
    ),
    HeroCard(
        "marorg",
        "Marorg the Skeleton Explorer",
        8,
        (seq("melee", "rush"),),
        nullifies=shots("poison melee", "poison missile", "poison rush"),
    ),
)

MONSTERS = (
    MonsterCard("orc", "Orc", 1, "dungeon", 1, 1, (seq("melee"), seq("missile"))),
    MonsterCard("centaur", "Centaur", 1, "mythological", 1, 1, (seq("rush", "missile"),)),
    MonsterCard(
        "skeleton-warrior", "Skeleton Warrior", 1, "undead", 1, 1, (seq("melee"),), nullifies=shots("missile")
    ),
    MonsterCard("zombie", "Zombie", 1, "undead", 1, 1, (seq("melee"),)),
    MonsterCard("fire-spirit", "Fire Spirit", 1, "infernal", 1, 1, (seq("melee"), seq("transform melee"))),
    MonsterCard("sewer-rat", "Sewer Rat", 1, "vermin", 1, 1, (seq("poison melee"),), small=True),
    MonsterCard("troll", "Troll", 2, "dungeon", 2, 2, (seq("regeneration melee"),), pieces=2),
    MonsterCard("pit-viper", "Pit Viper", 2, "vermin", 1, 2, (seq("poison melee"),), pieces=1),
    MonsterCard(
        "minotaur", "Minotaur", 2, "mythological", 2, 2, (seq("melee"),), reflects=shots("missile"), pieces=2
    ),
    MonsterCard(
        "crypt-spider",
        "Crypt Spider",
        3,
        "vermin",
        2,
        2,
        (seq("regeneration melee"), seq("rush", "stun missile", "stun missile")),
        pieces=1,
    ),
    MonsterCard("phantom", "Phantom", 3, "undead", None, 2, (seq("melee"),), shadow=True, pieces=2),
    MonsterCard(
        "liquid-antient",
        "Urthoth the Liquid Antient",
        0,
        "antient",
        None,
        0,
        (seq("melee"),),
        antient=True,
        pieces=1,
    ),  # fixture sequence: the Antient's card is not known
    MonsterCard(
        "gelatinous-cube",
        "Gelatinous Cube",
        4,
        "dungeon",
        4,
        4,
        (
            seq("melee", "corrosion melee"),
            seq("melee", "fear melee"),
            seq("melee", "devour"),
            seq("melee", "critical melee"),
        ),
        ordered_by_round=True,
        pieces=1,
    ),
)

ROOMS = (
    RoomCard(
        "the-barracks",
        "The Barracks",
        "battle",
        1,
        (),
        {
            1: (QuadrantEntry("specific", 4, "orc"),),
            2: (QuadrantEntry("specific", 1, "pit-viper"), QuadrantEntry("specific", 1, "troll")),
        },
    ),
    RoomCard(
        "the-mitholaq-hive", "The Mitholaq Hive", "battle", 1, (), {1: (QuadrantEntry("monster_metre", 2),)}
    ),
    RoomCard(
        "zothas-gatehouse",
        "Zotha's Gatehouse",
        "battle",
        0,
        (),
        {
            1: (
                QuadrantEntry("specific", 1, "skeleton-warrior"),
                QuadrantEntry("specific", 2, "zombie"),
                QuadrantEntry("mercenary", 1),
                QuadrantEntry("specific", 1, "fire-spirit"),
            ),
        },
    ),
    RoomCard(
        "oakheart-hall",
        "Oakheart Hall",
        "battle",
        0,
        shots("poison rush", "poison melee", "poison missile"),
        {1: (QuadrantEntry("specific", 2, "sewer-rat"),), 2: (QuadrantEntry("specific", 1, "minotaur"),)},
    ),
    RoomCard(
        "the-lava-pools",
        "The Lava Pools",
        "battle",
        1,
        shots("ice"),
        {1: (QuadrantEntry("specific", 2, "orc"),)},
    ),
    RoomCard(
        "cube-chamber",
        "Cube Chamber",
        "battle",
        2,
        (),
        {4: (QuadrantEntry("specific", 1, "gelatinous-cube"),)},
    ),
    RoomCard(
        "phantom-crypt",
        "Phantom Crypt",
        "battle",
        2,
        (),
        {3: (QuadrantEntry("specific", 1, "phantom"),), 1: (QuadrantEntry("specific", 1, "zombie"),)},
    ),
    RoomCard(
        "spider-den", "Spider Den", "battle", 2, (), {3: (QuadrantEntry("specific", 1, "crypt-spider"),)}
    ),
    RoomCard("rat-nest", "Rat Nest", "battle", 0, (), {1: (QuadrantEntry("specific", 3, "sewer-rat"),)}),
    RoomCard("althea-the-healer", "Althea the Healer", "healer"),
    RoomCard("amaranth-inn", "Amaranth Inn", "inn"),
    RoomCard("izchak-the-merchant", "Izchak the Merchant", "merchant"),
    RoomCard("alewife-tavern", "Alewife Tavern", "tavern"),
    RoomCard("catacomb-lords-lair", "Catacomb Lord's Lair", "lair"),
)

LORDS = (
    LordCard(
        "vasesak-the-sorcerer",
        "Vasesak the Sorcerer",
        6,
        (seq("shield", "stun melee", "melee"),),
        "skeleton-warrior",
        (("zombie", 4),),
    ),
    LordCard(
        "hmotha-the-lich-lord",
        "Hmotha the Lich Lord",
        8,
        (seq("melee"),),
        "zombie",
        (("skeleton-warrior", 4),),
    ),
)

# Card effects marked "fixture" are not known from the rulebook; they exist so tests can play cards.
CARDS = (
    ActionCard(
        "berserker-battle-axe",
        "Berserker Battle Axe",
        "item",
        "once_per_room",
        (seq("chain melee", "chain melee", "chain melee", "chain melee"),),
        weapon=True,
    ),
    ActionCard(
        "throwing-axe", "Throwing Axe", "item", "once_per_room", (seq("missile"),), combo="post", weapon=True
    ),
    ActionCard(
        "raisthrims-potion",
        "Raisthrim's Potion",
        "item",
        "once_per_game",
        (seq("ice"),),
        combo="pre",
        cost=4,  # fixture price
    ),
    ActionCard(
        "healing-salve", "Healing Salve", "item", "once_per_game", heal=2, cost=3, copies=2
    ),  # fixture
    ActionCard(
        "vaiels-urn",
        "Vaiel's Urn",
        "item",
        "once_per_game",
        (Sequence((Shot("summon", summons="liquid-antient"),)),),
        cost=5,
    ),  # fixture price
    ActionCard("cloak-of-invisibility", "Cloak of Invisibility", "item", "once_per_game", cost=4),  # fixture
    ActionCard(
        "raven-familiar",
        "Raven Familiar",
        "item",
        "permanent",
        (seq("missile"),),
        familiar=True,
        magic=True,
        cost=6,
    ),  # fixture price and sequence
    ActionCard(
        "spirit-familiar", "Spirit Familiar", "item", "permanent", (seq("melee"),), familiar=True
    ),  # fixture
    ActionCard("warding-cloak", "Warding Cloak", "item", "permanent", nullifies=shots("missile")),  # fixture
    ActionCard(
        "second-wind", "Second Wind", "ability", "once_per_room", (seq("rush", "refresh_item"),)
    ),  # fixture
    ActionCard(
        "poisoned-knife",
        "Poisoned Knife",
        "item",
        "once_per_room",
        (seq("poison melee"),),
        weapon=True,
        enhanced=(("elani", seq("poison melee", "rush")),),
    ),  # fixture sequences
    ActionCard("mirror-shield", "Mirror Shield", "item", "once_per_room", reflects=shots("melee")),  # fixture
    ActionCard("drain-energy", "Drain Energy", "spell", "once_per_game", (seq("regeneration missile"),)),
    ActionCard("teleport-hero", "Teleport Hero", "spell", "once_per_game", (seq("teleport"),)),
    ActionCard("cure-poison", "Cure Poison", "spell", "once_per_game", cure_poison=1),
    ActionCard("heal", "Heal", "spell", "once_per_game", heal=4),
    ActionCard("heal-all", "Heal All", "spell", "once_per_game", heal_all=1),  # fixture
    ActionCard("fireball", "Fireball", "ability", "once_per_room", (seq("fireball"),)),
    ActionCard(
        "elven-arrow", "Elven Arrow", "ability", "once_per_room", (seq("missile", "missile"),)
    ),  # fixture
    ActionCard(
        "feathers-of-fury", "Feathers of Fury", "ability", "once_per_room", (seq("melee", "melee", "melee"),)
    ),  # fixture
)

# The values of the 15 Poisoned! cards are not known; a fixture deck of 15 doses.
POISON_DECK = (1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3)


LAYOUTS = {"short": ("difficulty_0", "special", "difficulty_1", "lair")}


def sample_content(poison_deck: tuple[int, ...] = POISON_DECK) -> CardIndex:
    return CardIndex(HEROES, MONSTERS, ROOMS, LORDS, poison_deck, CARDS, LAYOUTS)


FIRST_GAME_HEROES = ("xoric", "varesh", "roosan", "elani")
