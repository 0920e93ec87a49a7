"""JSON Schemas of the content records, one per kind of card (``common.json`` holds the shared parts)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

PREFIX = "urn:smartmat:content:"
KINDS = (
    "monster",
    "room",
    "special_room",
    "lord",
    "hero",
    "item",
    "spell",
    "ability",
    "poison_card",
    "playmat",
    "layout",
    "piece",
    "antient",
    "castles_shot",
    "castles_hero",
    "castles_mode",
    "castles_boss",
    "castles_warrior",
    "castles_ability",
    "c1e_hero",
    "c1e_monster",
    "c1e_room",
    "c1e_lord",
    "c1e_card",
)


def _read(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _registry() -> Registry[Any]:
    registry: Registry[Any] = Registry()
    for name in ("common", *KINDS):
        registry = registry.with_resource(PREFIX + name, Resource.from_contents(_read(name)))
    return registry


@cache
def validator(kind: str) -> Draft202012Validator:
    """A validator for one record of ``kind`` (e.g. ``"monster"``)."""
    schema = _read(kind)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


@cache
def record_fields(kind: str) -> frozenset[str]:
    """The top-level fields a record of ``kind`` may have (its own and the shared provenance marks)."""
    own: dict[str, Any] = _read(kind).get("properties", {})
    marks: dict[str, Any] = _read("common")["$defs"]["marks"]["properties"]
    return frozenset(own) | frozenset(marks)
