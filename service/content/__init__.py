"""Game content (cards, playmats, room layouts) as validated, typed data.

``load_content(ruleset, overlay)`` reads ``content/<ruleset>/*.yaml`` shipped with the package, lays an
organiser's overlay directory over it, validates everything against the JSON Schemas in ``schemas/`` and
returns a frozen ``Content``; each game's own content module does the same for its rule sets
(``service.games.castles.content``, ``service.games.catacombs.content``).
Problems raise ``ContentError`` naming the file and key path.
"""

from service.content.errors import ContentError, Problem
from service.content.loader import load_content
from service.content.model import (
    AbilityCard,
    AntientCard,
    CardCount,
    Content,
    HealthBand,
    HeroCard,
    ItemCard,
    LayoutSlot,
    LordCard,
    MonsterCard,
    MonsterCount,
    Playmat,
    PoisonCard,
    PoisonDeck,
    QuadrantEntry,
    Record,
    RoomCard,
    RoomLayout,
    Service,
    ShotAlternatives,
    ShotSequence,
    ShotSpec,
    SpecialRoomCard,
    SpellCard,
    TavernReward,
)

__all__ = [
    "AbilityCard",
    "AntientCard",
    "CardCount",
    "Content",
    "ContentError",
    "HealthBand",
    "HeroCard",
    "ItemCard",
    "LayoutSlot",
    "LordCard",
    "MonsterCard",
    "MonsterCount",
    "Playmat",
    "PoisonCard",
    "PoisonDeck",
    "Problem",
    "QuadrantEntry",
    "Record",
    "RoomCard",
    "RoomLayout",
    "Service",
    "ShotAlternatives",
    "ShotSequence",
    "ShotSpec",
    "SpecialRoomCard",
    "SpellCard",
    "TavernReward",
    "load_content",
]
