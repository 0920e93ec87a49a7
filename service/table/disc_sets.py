"""Enrolled disc sets on disk: one YAML file per set, written atomically.

A set file lists the same entries as a table file's ``tags`` (``{piece, uid, class, family?}``), so a table
file can name it (``tag_set: sets/box-1.yaml``) instead of listing the tags itself; see docs/setup.md.
Both the table file (``service.table.config``) and enrolment (``service.enrolment``) read it, so it sits
below both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TextIO

import yaml
from jsonschema.protocols import Validator

from service.common import schema_check
from service.common.atomic_file import write_atomically
from service.sensing.tags import (
    RegisteredPiece,
    TableConfigError,
    TagRegistry,
    parse_registry,
    read_table_yaml,
)

FORMAT = "smartmat-disc-set"


@dataclass(frozen=True)
class DiscSet:
    name: str
    registry: TagRegistry
    path: Path | None = None


def set_to_json(name: str, entries: Iterable[RegisteredPiece]) -> dict[str, Any]:
    tags = []
    for entry in entries:
        item: dict[str, Any] = {"piece": entry.piece, "uid": entry.uid.hex(), "class": entry.piece_class}
        if entry.family:
            item["family"] = entry.family
        tags.append(item)
    return {"format": FORMAT, "v": 1, "set": name, "tags": tags}


def save_set(path: Path | str, name: str, entries: Iterable[RegisteredPiece]) -> Path:
    """Write the set (a power cut leaves the old file or the new one, never half of one)."""
    path = Path(path)
    entries = list(entries)
    TagRegistry(entries)  # refuses a tag or a piece listed twice, naming it
    data = set_to_json(name, entries)

    def write(out: TextIO) -> None:
        out.write(f"# Disc set {name}: each disc's NFC tag (written by smartmat enrol; docs/setup.md)\n")
        yaml.safe_dump(data, out, sort_keys=False, default_flow_style=None, width=120)

    write_atomically(path, write)
    return path


@cache
def _disc_set_schema() -> Validator:
    return schema_check.validator("service.table.schemas", "disc_set", refs=("service.sensing.schemas",))


def load_set(path: Path | str) -> DiscSet:
    """A disc set file (service/table/schemas/disc_set.schema.json); a tag or piece listed twice is refused
    after the schema, naming it."""
    path = Path(path)
    data = read_table_yaml(path)
    schema_check.check(_disc_set_schema(), data, str(path), TableConfigError)
    return DiscSet(data["set"], parse_registry(data["tags"], str(path)), path)
