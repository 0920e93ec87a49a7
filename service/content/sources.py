"""Reading content YAML files and laying an overlay directory over the shipped ones.

A content file holds one top-level key whose value maps record ids to records. A layer (an expansion's
directory, then an organiser's overlay) holds files of the same names; each replaces, key by key, the fields
of records it names and adds records with new ids; ``replace: true``
in an overlay record drops the shipped record's other fields. Each field remembers the file that gave it, so
an error names the file the bad value came from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from service.content.errors import Problem, key_path

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class FileKind:
    """One content file of a rule set: its name, its top-level key and the schema of its records (``schema``,
    a ``<schema>.json`` of the package ``schemas``, its game's)."""

    filename: str
    key: str
    schema: str
    schemas: str
    required: bool = True


@dataclass
class RecordSource:
    data: dict[str, Any]
    origin: str  # the file that introduced the record
    field_files: dict[Any, str] = field(default_factory=dict)

    def file_of(self, field_name: Any) -> str:
        """The file that gave this field of the record (YAML allows keys of any type)."""
        return self.field_files.get(field_name, self.origin) if field_name is not None else self.origin


# libyaml's parser when PyYAML was built with it: reading the shipped content is then several times faster.
_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeLoader):  # type: ignore[misc]
    """Safe YAML that refuses a key given twice in one mapping (PyYAML would keep the last silently)."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping",
                node.start_mark,
                f"key {key!r} appears twice (first on line {seen[key] + 1})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    mapping: dict[Any, Any] = loader.construct_mapping(node, deep=deep)
    return mapping


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path, label: str, problems: list[Problem]) -> Any:
    """The parsed document, or None after recording why it could not be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(label, "", f"cannot read the file: {exc}"))
        return None
    try:
        document = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except (yaml.YAMLError, RecursionError) as exc:
        # A parser may give up on deep nesting by itself (libyaml has a limit of its own, the pure-Python
        # composer recurses): whatever it says, a document nested past MAX_DEPTH is refused in our words.
        deep = _nested_too_deep(text)
        if deep is not None:
            problems.append(Problem(label, key_path(deep[1:]), f"invalid YAML: {_TOO_DEEP}"))
        elif isinstance(exc, RecursionError):
            problems.append(Problem(label, "", "invalid YAML: nested too deeply to be read"))
        else:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
            reason = getattr(exc, "problem", None) or str(exc)
            problems.append(Problem(label, "", f"invalid YAML: {where}{reason}"))
        return None
    unusable = _unusable_shape(document)
    if unusable is not None:
        where_in, why = unusable
        # Named like the records' own problems: the key path under the file's top-level key.
        problems.append(Problem(label, key_path(where_in[1:]), f"invalid YAML: {why}"))
        return None
    return document


# No content record nests anywhere near this deep or this large; a document that does is a mistake or an
# alias bomb, and walking it (to validate, to cache, to report) would exhaust the stack or the memory.
MAX_DEPTH = 32
MAX_VALUES = 250_000
_TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"

Unusable = tuple[list[str | int], str]


def _unusable_shape(document: Any) -> Unusable | None:
    """Where and why a parsed document cannot be content, or None: an alias that contains itself, nesting
    past MAX_DEPTH, or more than MAX_VALUES values once aliases are expanded (walks at most that many)."""
    count = 0
    on_path: set[int] = set()

    def walk(value: Any, path: list[str | int]) -> Unusable | None:
        nonlocal count
        count += 1
        if count > MAX_VALUES:
            return path[:3], f"more than {MAX_VALUES} values once its aliases are expanded"
        if not isinstance(value, dict | list):
            return None
        if id(value) in on_path:
            return path, "an alias that contains itself"
        if len(path) >= MAX_DEPTH:
            return path[:3], _TOO_DEEP
        on_path.add(id(value))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            found = walk(key, path) if isinstance(value, dict) else None
            found = found or walk(child, [*path, key if isinstance(key, int | str) else str(key)])
            if found is not None:
                return found
        on_path.discard(id(value))
        return None

    return walk(document, [])


def _nested_too_deep(text: str) -> list[str | int] | None:
    """Where (the first three keys, as `_unusable_shape` names it) the document opens a collection
    MAX_DEPTH collections deep, or None. It reads the pure-Python parser's events (libyaml's scanner may
    refuse deep nesting before it yields any), so it stops there and needs no limit of the parser's."""
    # One entry per open collection: [is a mapping, current key or index, the next node is a key].
    frames: list[list[Any]] = []

    def place() -> None:
        """Account for one node (scalar, alias or collection) in the innermost open collection."""
        if not frames:
            return
        frame = frames[-1]
        if not frame[0]:
            frame[1] += 1
        elif frame[2]:
            frame[2] = False
        else:
            frame[2] = True

    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):
                if frames and frames[-1][0] and frames[-1][2]:
                    frames[-1][1] = event.value if isinstance(event, yaml.ScalarEvent) else "*"
                place()
            elif isinstance(event, yaml.CollectionStartEvent):
                if frames and frames[-1][0] and frames[-1][2]:
                    frames[-1][1] = "?"  # a collection used as a key
                place()
                if len(frames) >= MAX_DEPTH:
                    return [frame[1] for frame in frames][:3]
                frames.append([isinstance(event, yaml.MappingStartEvent), -1, True])
            elif isinstance(event, yaml.CollectionEndEvent):
                frames.pop()
    except yaml.YAMLError:
        return None
    return None


def records_of(
    document: Any, kind: FileKind, label: str, problems: list[Problem]
) -> dict[str, dict[str, Any]]:
    """The records of one parsed file, checking its outer shape (top-level key, id spelling)."""
    if document is None:
        return {}
    if not isinstance(document, Mapping) or set(document) != {kind.key}:
        found = sorted(map(str, document)) if isinstance(document, Mapping) else type(document).__name__
        problems.append(
            Problem(label, "", f"expected a mapping with the single key {kind.key!r}, found {found}")
        )
        return {}
    body = document[kind.key]
    if not isinstance(body, Mapping):
        problems.append(
            Problem(label, kind.key, f"expected a mapping of id -> record, found {type(body).__name__}")
        )
        return {}
    records: dict[str, dict[str, Any]] = {}
    for record_id, record in body.items():
        if not isinstance(record_id, str) or not ID_PATTERN.match(record_id):
            problems.append(
                Problem(
                    label,
                    str(record_id),
                    "ids are lower-case letters, digits and '-', starting with a letter or digit",
                )
            )
            continue
        if not isinstance(record, Mapping):
            problems.append(
                Problem(label, record_id, f"expected a mapping of fields, found {type(record).__name__}")
            )
            continue
        records[record_id] = dict(record)
    return records


def shipped_records(records: dict[str, dict[str, Any]], label: str) -> dict[str, RecordSource]:
    return {record_id: RecordSource(dict(data), label) for record_id, data in records.items()}


def lay_over(merged: dict[str, RecordSource], layer: dict[str, dict[str, Any]], label: str) -> None:
    """Lay one file's records over ``merged``: fields replace fields, new ids add records."""
    for record_id, data in layer.items():
        data = dict(data)
        # Only a boolean is taken as the instruction; anything else stays and is reported as a bad field.
        replace = data.pop("replace") if isinstance(data.get("replace"), bool) else False
        current = merged.get(record_id)
        if current is None or replace:
            merged[record_id] = RecordSource(data, label)
            continue
        current.data.update(data)
        current.field_files.update({field_name: label for field_name in data})
