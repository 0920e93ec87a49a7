"""What every game's content records share: the provenance marks of a record and the shot icons printed on a
card, with ``marks`` to read the marks of a validated record.

Every record carries its provenance marks: ``verified`` is false when the record as a whole, or any of its
fields (``unverified_fields``), comes from a stand-in or an inference rather than a printed card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

EMPTY: Mapping[str, str] = MappingProxyType({})

Connector = Literal["then", "elastic"]


@dataclass(frozen=True, kw_only=True)
class Record:
    """Fields every content record shares: its id, printed name and how sure we are of it."""

    id: str
    name: str
    set: str = "base"
    verified: bool = True
    source: str | None = None
    note: str | None = None
    # field name -> where the stand-in value came from
    unverified_fields: Mapping[str, str] = field(default_factory=lambda: EMPTY, hash=False, compare=False)


@dataclass(frozen=True)
class ShotSpec:
    """One shot icon of a shot sequence.

    ``count`` is the strength printed beside the icon (the number of Poison cards a poison shot draws);
    repeated shots are separate ShotSpecs. ``connector`` joins this shot to the one before it
    (``None`` for the first shot of a sequence).
    """

    shot: str
    modifier: str | None = None
    count: int = 1
    connector: Connector | None = None
    optional: bool = False
    summons: str | None = None  # monster id (or "liquid-antient") for summon shots
    transfers: tuple[str, ...] | None = None  # Catacombs & Castles: the transfer icons printed beside it
    transforms_into: str | None = None


# A sequence is an ordered tuple of shots; a card's alternatives (its "Or") are a tuple of sequences.
ShotSequence = tuple[ShotSpec, ...]
ShotAlternatives = tuple[ShotSequence, ...]


def marks(record_id: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """A validated record's id, printed name and provenance marks, as ``Record``'s fields."""
    unverified_fields = dict(raw.get("unverified_fields", {}))
    return {
        "id": record_id,
        "name": raw["name"],
        "set": raw.get("set", "base"),
        "verified": not raw.get("unverified", False) and not unverified_fields,
        "source": raw.get("source"),
        "note": raw.get("note"),
        "unverified_fields": MappingProxyType(unverified_fields) if unverified_fields else EMPTY,
    }
