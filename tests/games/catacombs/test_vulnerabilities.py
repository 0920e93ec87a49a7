"""catacombs-3e-reference.txt: Monster Vulnerabilities (an optional rule, off by default)."""

from __future__ import annotations

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import HeroCard, MonsterCard
from service.games.catacombs.flow.settings import Settings
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

from .content import room_of, with_cards

ON = Settings(monster_vulnerabilities=True)
GHOUL = MonsterCard("ghoul", "Ghoul", 3, "undead", 2, 2, (seq("melee"),))
DEMON = MonsterCard("fire-demon", "Fire Demon", 3, "infernal", 2, 2, (seq("melee"),))
BAT = MonsterCard("vampire-bat", "Vampire Bat", 3, "vermin", 2, 2, (seq("melee"),), small=True)
SKULL = MonsterCard("blood-skull", "Blood Skull", 3, "vermin", 2, 2, (seq("fear melee"),), small=True)
FROST = HeroCard(
    "varesh", "Varesh the Wizard", 8, (seq("ice"), seq("rush", "missile")), abilities=("fireball",)
)


def room(*monsters: tuple[str, int], settings: Settings = ON) -> RulesScript:
    content = with_cards(
        heroes=[FROST], monsters=[GHOUL, DEMON, BAT, SKULL], rooms=[room_of("den", *monsters)]
    )
    table = catacombs_3e(["den"], content=content, settings=settings)
    table.enter_battle()
    return table


def test_dungeon_monsters_take_a_critical_missile() -> None:
    """Monster Vulnerabilities: dungeon family and unmodified missile shots."""
    for settings, health in ((ON, 0), (Settings(), 1)):
        table = room(("troll", 1), settings=settings)
        table.turn("hero-varesh", ("rush",), ("missile", "monster-troll-1"), alternative=1)
        assert table.health("monster-troll-1") == health


def test_undead_monsters_burn_under_a_fireball() -> None:
    """Monster Vulnerabilities: undead family and unmodified fireball shots."""
    table = room(("ghoul", 1))
    table.do(A.PlayCard("hero-varesh", "fireball"))
    table.shot("hero-varesh", "fireball", "monster-ghoul-1")
    assert not table.state.character("monster-ghoul-1").alive


def test_mythological_monsters_give_back_health_in_melee() -> None:
    """Monster Vulnerabilities: mythological family and unmodified melee (regeneration)."""
    table = room(("minotaur", 1))
    table.edit("hero-xoric", health=5)
    table.turn("hero-xoric", ("melee", "monster-minotaur-1"))
    assert (table.health("hero-xoric"), table.health("monster-minotaur-1")) == (6, 1)


def test_infernal_monsters_lose_a_health_when_frozen() -> None:
    """Monster Vulnerabilities: infernal family and the ice shot."""
    table = room(("fire-demon", 1))
    table.turn("hero-varesh", ("ice", "monster-fire-demon-1"), alternative=0)
    demon = table.state.character("monster-fire-demon-1")
    assert demon.health == 1 and demon.status == ("frozen",)


def test_extra_small_vermin_flee_in_fear_unless_they_use_fear_themselves() -> None:
    """Monster Vulnerabilities: extra small vermin and unmodified melee or missile shots (fear)."""
    table = room(("vampire-bat", 1), ("blood-skull", 1))
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee", "monster-vampire-bat-1")
    shot = table.state.expected_shot()
    assert shot is not None and (shot["piece"], shot["shot"]) == ("monster-vampire-bat-1", "rush")
    table.shot("hero-xoric", "rush")
    table.shot("hero-xoric", "rush")
    table.declare("hero-elani")
    table.shot("hero-elani", "melee", "monster-blood-skull-1")
    shot = table.state.expected_shot()
    assert shot is not None and shot["piece"] == "hero-elani"


def test_modified_shots_are_not_affected() -> None:
    """Monster Vulnerabilities: only unmodified shots from the Heroic Forces."""
    drainer = HeroCard("varesh", "Varesh the Wizard", 8, (seq("regeneration missile"),))
    content = with_cards(heroes=[drainer], rooms=[room_of("den", ("troll", 1))])
    table = catacombs_3e(["den"], content=content, settings=ON)
    table.enter_battle()
    table.turn("hero-varesh", ("missile", "monster-troll-1"))
    assert table.health("monster-troll-1") == 1
