"""JSON Schemas of the content records: ``common.json`` holds the parts every game's records share (the
provenance marks, shot icons); each game's package holds one schema per kind of card in a package of its own
(``service/games/<game>/schemas/content/``), which its ``FileKind``s name."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

PREFIX = "urn:smartmat:content:"
COMMON = "common"


def _read(package: str, name: str) -> dict[str, Any]:
    text = resources.files(package).joinpath(f"{name}.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _registry(package: str) -> Registry[Any]:
    """The shared schema and every schema of ``package``, each under its ``urn:smartmat:content:`` name."""
    registry: Registry[Any] = Registry().with_resource(
        PREFIX + COMMON, Resource.from_contents(_read(__package__ or __name__, COMMON))
    )
    for entry in resources.files(package).iterdir():
        if entry.name.endswith(".json"):
            name = entry.name.removesuffix(".json")
            registry = registry.with_resource(PREFIX + name, Resource.from_contents(_read(package, name)))
    return registry


@cache
def validator(package: str, kind: str) -> Draft202012Validator:
    """A validator for one record of ``kind`` (e.g. ``"monster"``), whose schema ``package`` holds."""
    schema = _read(package, kind)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry(package))


@cache
def record_fields(package: str, kind: str) -> frozenset[str]:
    """The top-level fields a record of ``kind`` may have (its own and the shared provenance marks)."""
    own: dict[str, Any] = _read(package, kind).get("properties", {})
    marks: dict[str, Any] = _read(__package__ or __name__, COMMON)["$defs"]["marks"]["properties"]
    return frozenset(own) | frozenset(marks)
