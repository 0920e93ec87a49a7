"""Enrolled disc sets on disk: one YAML file per set, written atomically.

A set file lists the same entries as a table file's ``tags`` (``{piece, uid, class, family?}``), so a table
file can name it (``tag_set: sets/box-1.yaml``) instead of listing the tags itself; see docs/setup.md.
Its ``markers`` (``{hero-1: 12, …}``, ``smartmat enrol markers``) say which ArUco marker each disc wears on
its top, for an overhead camera (docs/camera.md): never a mat fiducial's id (0-7), never one marker on two
discs, only discs of the set. Both the table file (``service.table.config``) and enrolment
(``service.enrolment``) read it, so it sits below both.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TextIO

import yaml
from jsonschema.protocols import Validator

from service.camera.layout import disc_marker_problem
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

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiscSet:
    name: str
    registry: TagRegistry
    path: Path | None = None
    markers: Mapping[str, int] = field(default_factory=dict)  # disc id → the ArUco marker on its top


def marker_problems(markers: Mapping[str, int], pieces: Iterable[str]) -> list[tuple[str, str]]:
    """(disc id, why in words) for each marker a set cannot keep: a disc not in the set, a fiducial's id, a
    marker another disc wears already (named after the disc listed first)."""
    known = set(pieces)
    taken: dict[int, str] = {}
    problems = []
    for piece, marker in markers.items():
        refused = "not a disc of this set" if piece not in known else disc_marker_problem(marker, taken)
        if refused is not None:
            problems.append((piece, refused))
        else:
            taken[marker] = piece
    return problems


def set_to_json(
    name: str, entries: Iterable[RegisteredPiece], markers: Mapping[str, int] | None = None
) -> dict[str, Any]:
    tags = []
    for entry in entries:
        item: dict[str, Any] = {"piece": entry.piece, "uid": entry.uid.hex(), "class": entry.piece_class}
        if entry.family:
            item["family"] = entry.family
        tags.append(item)
    data: dict[str, Any] = {"format": FORMAT, "v": 1, "set": name, "tags": tags}
    order = [t["piece"] for t in tags]
    if markers:
        data["markers"] = {p: markers[p] for p in order if p in markers}
    return data


def save_set(
    path: Path | str,
    name: str,
    entries: Iterable[RegisteredPiece],
    markers: Mapping[str, int] | None = None,
) -> Path:
    """Write the set (a power cut leaves the old file or the new one, never half of one). Without
    ``markers``, the discs keep the markers the file at ``path`` gives them (enrolling the tags again does not
    forget them); a marker the set cannot keep is refused, naming it."""
    path = Path(path)
    entries = list(entries)
    TagRegistry(entries)  # refuses a tag or a piece listed twice, naming it
    pieces = [e.piece for e in entries]
    if markers is None:
        markers = markers_of(markers_in_file(path), entries)
    problems = marker_problems(markers, pieces)
    if problems:
        piece, why = problems[0]
        raise TableConfigError(f"{path}: markers.{piece}: {why}")
    data = set_to_json(name, entries, markers)

    def write(out: TextIO) -> None:
        what = "NFC tag and marker" if markers else "NFC tag"
        out.write(f"# Disc set {name}: each disc's {what} (written by smartmat enrol; docs/setup.md)\n")
        yaml.safe_dump(data, out, sort_keys=False, default_flow_style=None, width=120)

    write_atomically(path, write)
    return path


def markers_of(markers: Mapping[str, int], entries: Iterable[RegisteredPiece]) -> dict[str, int]:
    """The markers of the discs among ``entries`` (an enrolment saved half-way keeps the others in memory)."""
    pieces = {e.piece for e in entries}
    return {p: m for p, m in markers.items() if p in pieces}


def markers_in_file(path: Path) -> dict[str, int]:
    """The markers the set file at ``path`` gives as it stands (none when there is no file or it is
    unreadable: enrolling the tags again must not stop on it)."""
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        log.warning("%s: cannot read its markers to keep them: %s", path, exc)
        return {}
    found = data.get("markers") if isinstance(data, dict) else None
    if not isinstance(found, dict):
        return {}
    return {str(p): m for p, m in found.items() if isinstance(m, int) and not isinstance(m, bool)}


@cache
def _disc_set_schema() -> Validator:
    return schema_check.validator("service.table.schemas", "disc_set", refs=("service.sensing.schemas",))


def load_set(path: Path | str) -> DiscSet:
    """A disc set file (service/table/schemas/disc_set.schema.json); a tag or piece listed twice, or a marker
    the set cannot keep, is refused after the schema, naming it."""
    path = Path(path)
    data = read_table_yaml(path)
    schema_check.check(_disc_set_schema(), data, str(path), TableConfigError)
    registry = parse_registry(data["tags"], str(path))
    markers = {str(p): int(m) for p, m in data.get("markers", {}).items()}
    problems = marker_problems(markers, (e.piece for e in registry.pieces))
    if problems:
        piece, why = problems[0]
        raise TableConfigError(f"{path}: markers.{piece}: {why}")
    return DiscSet(data["set"], registry, path, markers)
