"""Castles heroes, Dark Spells and the Castles playmat in a Catacombs 3E game: the facts the rules read.

catacombs-and-castles-2e-manual.md: Catacombs 3E Integration. A 3E game includes them when its content is an
``IntegratedContent``: the 3E cards (the Compatibility Deck's heroes among them) with ``CastlesFacts`` beside
them, which say who is a Team Catacomb hero, each hero's type, which Spell cards are dark and which playmat
sides are Castles ones. Plain 3E content has no facts and every rule here stays silent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from service.games.catacombs.flow.cards import ActionCard, Content, HeroCard, LordCard, MonsterCard, RoomCard
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.state import Character
from service.rules.events import Event, register_event

MANUAL = "catacombs-and-castles-2e-manual.md"
CATACOMB_HEROES = cite("Catacombs 3E Integration: Team Catacomb Heroes", MANUAL)
DARK_SPELLS = cite("Catacombs 3E Integration: Dark Spell Cards", MANUAL)
PLAYMATS = cite("Catacombs 3E Integration: Catacombs & Castles Playmat(s)", MANUAL)
SHOTS = cite("Catacombs 3E Integration: Catacombs & Castles Shots In Catacombs 3E", MANUAL)
NET_AND_WEB = cite("Ranged Shots: Variant Rules for the Net and Web Shots (Optional)", MANUAL)

CLERIC, FIGHTER, SPELL_CASTER, MONARCH = "cleric", "fighter", "spell_caster", "monarch"

# The Inn's Catacomb ally and the Altar of Soloth's offering for a Catacomb hero (Team Catacomb Heroes).
CATACOMB_ALLY_COST = 15
CATACOMB_ALTAR_COST = 3


@dataclass(frozen=True)
class CastlesFacts:
    """Hero card id -> team ("castle" | "catacomb") and hero type; the dark Spell card ids; Castles playmat
    sides with their Start Zones; card id -> its Hero Attributes (bloodless, toughness, ...)."""

    teams: Mapping[str, str] = field(default_factory=dict)
    hero_types: Mapping[str, str] = field(default_factory=dict)
    dark_spells: frozenset[str] = frozenset()
    playmats: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    attributes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # card id -> Hero Attributes


class IntegratedContent:
    """3E content with the Castles facts: every ``Content`` method answers from ``base``."""

    def __init__(self, base: Content, facts: CastlesFacts) -> None:
        self.base = base
        self.facts = facts

    def hero(self, hero_id: str) -> HeroCard:
        return self.base.hero(hero_id)

    def monster(self, monster_id: str) -> MonsterCard:
        return self.base.monster(monster_id)

    def room(self, room_id: str) -> RoomCard:
        return self.base.room(room_id)

    def lord(self, lord_id: str) -> LordCard:
        return self.base.lord(lord_id)

    def monsters(self) -> Iterable[MonsterCard]:
        return self.base.monsters()

    def poison_deck(self) -> tuple[int, ...]:
        return self.base.poison_deck()

    def heroes(self) -> Iterable[HeroCard]:
        return self.base.heroes()

    def rooms(self) -> Iterable[RoomCard]:
        return self.base.rooms()

    def item_deck(self) -> tuple[str, ...]:
        return self.base.item_deck()

    def cards(self, kind: str) -> Iterable[ActionCard]:
        return self.base.cards(kind)

    def layout(self, layout_id: str) -> tuple[str, ...]:
        return self.base.layout(layout_id)

    def card(self, kind: str, card_id: str) -> ActionCard:
        return self.base.card(kind, card_id)


def facts_of(content: object) -> CastlesFacts | None:
    return content.facts if isinstance(content, IntegratedContent) else None


# == who is what ==================================================================================
def is_catacomb_hero(content: object, c: Character) -> bool:
    """A Team Catacomb hero's piece: as a hero of the party or recruited as an ally."""
    facts = facts_of(content)
    return facts is not None and c.kind in ("hero", "ally") and facts.teams.get(c.card) == "catacomb"


def pays_alone(content: object, characters: Iterable[Character]) -> tuple[str, ...]:
    """The heroes whose gold is never pooled ("Catacomb heroes cannot pool their gold with any other
    heroes"), for ``GameState.pays_alone``."""
    return tuple(c.id for c in characters if c.kind == "hero" and is_catacomb_hero(content, c))


def hero_type(content: object, c: Character) -> str | None:
    """The hero's type (Dark Spell Cards). A 3E hero card that names none: a Spell Caster if it casts spells
    (the Wizard), otherwise unknown (docs/rulings.md, "Hero types of the 3E heroes")."""
    facts = facts_of(content)
    if facts is None:
        return None
    return facts.hero_types.get(c.card) or (SPELL_CASTER if c.spell_caster else None)


def is_dark(content: object, card: ActionCard) -> bool:
    facts = facts_of(content)
    return facts is not None and card.kind == "spell" and card.id in facts.dark_spells


def why_not_cast(content: object, c: Character, card: ActionCard) -> str | None:
    """Dark Spell Cards: Spell Casters cast both kinds; Monarchs only spells (heroes) or only dark spells
    (Catacomb heroes); Clerics and Fighters none (as 3E's non-Spell Casters)."""
    return _why_not(content, c.name, hero_type(content, c), is_catacomb_hero(content, c), card)


def why_not_choose(content: object, hero: HeroCard, card: ActionCard) -> str | None:
    """The Spell cards a hero chooses at the start of the game, by the same rule."""
    facts = facts_of(content)
    if facts is None:
        return None
    kind = facts.hero_types.get(hero.id) or (SPELL_CASTER if hero.spell_caster else None)
    return _why_not(content, hero.name, kind, facts.teams.get(hero.id) == "catacomb", card)


def _why_not(content: object, name: str, kind: str | None, catacomb: bool, card: ActionCard) -> str | None:
    if card.kind != "spell" or facts_of(content) is None:
        return None
    dark = is_dark(content, card)
    if kind == MONARCH:
        if dark and not catacomb:
            return f"{name} is a Monarch of the heroes: spells only, not the dark spell {card.name}"
        if catacomb and not dark:
            return f"{name} is a Catacomb Monarch: dark spells only, not {card.name}"
        return None
    if dark and kind != SPELL_CASTER:
        return f"only Spell Casters and Catacomb Monarchs cast dark spells such as {card.name}"
    return None


def unaffected_by(content: object, modifier: str, c: Character) -> bool:
    """Team Catacomb Heroes: "Catacomb heroes are unaffected by the corrosion shot modifier"; Hero
    Attributes: a construct is "immune to the effects of the corrosion shot modifier", a stun resistant hero
    "does not take a Stunned! card", a toxic character "is immune to the effects of the poison shot
    modifier"."""
    if modifier == "corrosion" and (is_catacomb_hero(content, c) or has(content, c, "construct")):
        return True
    return (modifier == "stun" and has(content, c, "stun_resistant")) or (
        modifier == "poison" and has(content, c, "toxic")
    )


# == Hero Attributes (catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Hero Attributes) =======
HERO_ATTRIBUTES = cite("Catacombs 3E Integration: Hero Attributes", MANUAL)
CHARACTER_SHOTS = frozenset({"rush", "melee", "bite", "roll", "devour", "leech", "target_melee"})


def has(content: object, c: Character, attribute: str) -> bool:
    facts = facts_of(content)
    return facts is not None and attribute in facts.attributes.get(c.card, ())


def attribute_damage(content: object, target: Character, shot_kind: str, modified: bool, damage: int) -> int:
    """Heat Resistant: "An unmodified fireball shot inflicts no damage. The giant fireball shot inflicts one
    point of damage instead of two"; Toughness: "one less damage from any shot (minimum one)"."""
    if has(content, target, "heat_resistant"):
        if shot_kind == "fireball" and not modified:
            return 0
        if shot_kind == "giant_fireball":
            damage = min(damage, 1)
    if has(content, target, "toughness") and damage > 1:
        damage -= 1
    return damage


def fireproof(content: object, c: Character) -> bool:
    """Heat Resistant: "does not suffer damage from fire walls and fire obstacles"."""
    return has(content, c, "heat_resistant")


def bloodless(content: object, c: Character) -> bool:
    """Bloodless: "does not provide any health to the attacker" (leech shot, regeneration modifier)."""
    return has(content, c, "bloodless")


def start_zones(content: object, playmat: str | None) -> tuple[str, ...]:
    facts = facts_of(content)
    if facts is None or playmat is None:
        return ()
    return facts.playmats.get(playmat, ())


# == events =======================================================================================
@register_event
@dataclass(frozen=True, slots=True)
class DarkSpellPaid(Event):
    """The price of a dark spell: one gold to the Treasury, or one health (never below one)."""

    type: ClassVar[str] = "dark_spell_paid"
    character: str
    card: str
    paid: str  # "gold" | "health"


@register_event
@dataclass(frozen=True, slots=True)
class StartZoneChosen(Event):
    """On a Castles playmat the heroic forces choose their Start Zone; the Overseer uses the other one."""

    type: ClassVar[str] = "start_zone_chosen"
    playmat: str
    heroes: str
    overseer: str


@register_event
@dataclass(frozen=True, slots=True)
class PieceMoved(Event):
    """A Castles shot moves a piece the rules name: a grappled enemy brought close, a teammate rescued."""

    type: ClassVar[str] = "piece_moved"
    character: str
    by: str
    how: str
