"""Reading one rule set's content files, laying an overlay over them and validating every record.

Each game's content module (in its package under ``service/games/``) names its files and the schemas of their
records, turns the validated records into its dataclasses and cross-checks ids with ``Checker``.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import content as content_package
from service.content.errors import ContentError, Problem, key_path
from service.content.schemas import record_fields, validator
from service.content.sources import (
    ID_PATTERN,
    FileKind,
    RecordSource,
    lay_over,
    read_yaml,
    records_of,
    shipped_records,
)

log = logging.getLogger("service.content")

CONTENT_ROOT = Path(content_package.__file__).parent
NOT_RULESETS = frozenset({"hardware", "tables", "__pycache__"})


@dataclass(frozen=True)
class RulesetRecords:
    """Every record of a rule set after the overlay, by top-level key then id, and the files read."""

    ruleset: str
    records: Mapping[str, Mapping[str, RecordSource]]
    files: tuple[str, ...]

    def data(self, key: str) -> list[tuple[str, dict[str, Any]]]:
        return [(record_id, source.data) for record_id, source in sorted(self.records[key].items())]


def shipped_label(ruleset: str, filename: str) -> str:
    return f"content/{ruleset}/{filename}"


def known_rulesets() -> list[str]:
    return sorted(p.name for p in CONTENT_ROOT.iterdir() if p.is_dir() and p.name not in NOT_RULESETS)


def read_ruleset(
    ruleset: str,
    kinds: Iterable[FileKind],
    overlay: Path | str | None,
    expansions: Sequence[str] = (),
) -> RulesetRecords:
    """Read each file of ``kinds``, lay the expansions' files and then the overlay's over it, and validate
    every record; raise ContentError naming every problem."""
    problems: list[Problem] = []
    ruleset_dir = CONTENT_ROOT / ruleset
    if ruleset in NOT_RULESETS or not ruleset_dir.is_dir():
        raise ContentError(
            [Problem(f"content/{ruleset}", "", f"no such rule set content; known: {known_rulesets()}")]
        )
    kinds = tuple(kinds)
    layers = [_expansion_layer(ruleset_dir, expansion, kinds, problems) for expansion in expansions]
    if overlay is not None:
        found = _layer_files(Path(overlay), kinds, problems)
        layers.append({name: (path, str(path)) for name, path in found.items()})
    merged: dict[str, dict[str, RecordSource]] = {}
    files: list[str] = []
    layer_labels: list[list[str]] = [[] for _ in layers]
    for kind in kinds:
        label = shipped_label(ruleset, kind.filename)
        path = ruleset_dir / kind.filename
        shipped: dict[str, dict[str, Any]] = {}
        if path.is_file():
            shipped = records_of(read_yaml(path, label, problems), kind, label, problems)
            files.append(label)
        elif kind.required:
            problems.append(Problem(label, "", "missing: every rule set ships this file"))
        merged[kind.key] = shipped_records(shipped, label)
        for layer, labels in zip(layers, layer_labels, strict=True):
            if kind.filename in layer:
                layer_path, layer_label = layer[kind.filename]
                extra = records_of(read_yaml(layer_path, layer_label, problems), kind, layer_label, problems)
                lay_over(merged[kind.key], extra, layer_label)
                labels.append(layer_label)
        _validate(kind, merged[kind.key], problems)
    if problems:
        fail(problems)
    return RulesetRecords(ruleset, merged, (*files, *(label for labels in layer_labels for label in labels)))


# A layer: content file name -> (its path, the label errors show)
Layer = dict[str, tuple[Path, str]]


def _expansion_layer(
    ruleset_dir: Path, expansion: str, kinds: Iterable[FileKind], problems: list[Problem]
) -> Layer:
    where = f"content/{ruleset_dir.name}/{expansion}"
    expansion_dir = ruleset_dir / expansion
    if not ID_PATTERN.match(expansion) or not (expansion_dir / "expansion.yaml").is_file():
        known = sorted(p.parent.name for p in ruleset_dir.glob("*/expansion.yaml"))
        problems.append(Problem(where, "", f"no such expansion; known: {known}"))
        return {}
    description = read_yaml(expansion_dir / "expansion.yaml", f"{where}/expansion.yaml", problems)
    if not isinstance(description, dict) or not isinstance(description.get("name"), str):
        problems.append(Problem(f"{where}/expansion.yaml", "", "expected a mapping with a 'name'"))
    found = _layer_files(expansion_dir, kinds, problems)
    return {name: (path, f"{where}/{name}") for name, path in found.items()}


def fail(problems: list[Problem]) -> None:
    error = ContentError(problems)
    log.error("content rejected (%d problem(s)):\n%s", len(problems), error)
    raise error


def _layer_files(directory: Path, kinds: Iterable[FileKind], problems: list[Problem]) -> dict[str, Path]:
    if not directory.is_dir():
        why = "is a file, not a directory" if directory.exists() else "does not exist"
        problems.append(Problem(str(directory), "", f"overlay directory {why}"))
        return {}
    known = {kind.filename for kind in kinds}
    found: dict[str, Path] = {}
    for path in sorted(directory.iterdir()):
        if path.suffix not in (".yaml", ".yml") or path.name == "expansion.yaml":
            continue
        if path.name not in known:
            problems.append(
                Problem(
                    str(path), "", f"not a content file of this rule set; expected one of {sorted(known)}"
                )
            )
            continue
        found[path.name] = path
    return found


# (path inside the record, failing keyword, message) of one schema violation
SchemaError = tuple[tuple[str | int, ...], str, str]


def _validate(kind: FileKind, records: Mapping[str, RecordSource], problems: list[Problem]) -> None:
    for record_id, source in records.items():
        for path, keyword, message in _errors_of(kind.schemas, kind.schema, source.data):
            if not path and keyword == "unevaluatedProperties":
                _unknown_fields(kind, record_id, source, problems)
                continue
            field_name = path[0] if path else None
            problems.append(Problem(source.file_of(field_name), key_path([record_id, *path]), message))


def _errors_of(package: str, schema: str, data: Any) -> tuple[SchemaError, ...]:
    try:
        # A record's canonical text is the cache key: the shipped records are the same at every load.
        frozen = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):  # keys of mixed types, values JSON cannot hold: validate uncached
        return _schema_errors(package, schema, data)
    return _cached_schema_errors(package, schema, frozen)


@lru_cache(maxsize=4096)
def _cached_schema_errors(package: str, schema: str, frozen: str) -> tuple[SchemaError, ...]:
    return _schema_errors(package, schema, json.loads(frozen))


def _schema_errors(package: str, schema: str, data: Any) -> tuple[SchemaError, ...]:
    errors = validator(package, schema).iter_errors(data)
    found = [(tuple(error.absolute_path), str(error.validator), _message(error)) for error in errors]
    # Several missing required fields are one error each in the library, one message here: keep it once.
    return tuple(sorted(dict.fromkeys(found), key=lambda item: [str(part) for part in item[0]]))


def _unknown_fields(kind: FileKind, record_id: str, source: RecordSource, problems: list[Problem]) -> None:
    allowed = record_fields(kind.schemas, kind.schema)
    for name in source.data:
        if name not in allowed:
            problems.append(
                Problem(
                    source.file_of(name),
                    key_path([record_id, name]),
                    f"unknown field; a {kind.schema.replace('_', ' ')} has {', '.join(sorted(allowed))}",
                )
            )


_KINDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def _shown(value: Any) -> str:
    """A value as a problem message shows it: scalars as written, collections by kind only."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, datetime.date):  # YAML reads 2026-11-22 as a date
        return f"the date {value.isoformat()}"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return repr(value)


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _message(error: Any) -> str:
    """The problem in our words for the schema keywords the content schemas use (a schema library's own
    wording is its to change); any other keyword keeps the library's message."""
    keyword, expected, value = str(error.validator), error.validator_value, error.instance
    found = _shown(value)
    if keyword == "type":
        kinds = [expected] if isinstance(expected, str) else list(expected)
        message = f"expected {' or '.join(_KINDS.get(kind, kind) for kind in kinds)}, found {found}"
    elif keyword == "enum":
        # Every allowed value, which is what a typo needs.
        message = f"expected one of {', '.join(map(repr, expected))}, found {found}"
    elif keyword == "const":
        message = f"expected {expected!r}, found {found}"
    elif keyword == "required":
        missing = [name for name in expected if isinstance(value, Mapping) and name not in value]
        noun = "field" if len(missing) == 1 else "fields"
        message = f"missing the required {noun} {', '.join(map(repr, missing))}"
    elif keyword == "additionalProperties" and isinstance(value, Mapping):
        allowed = sorted(error.schema.get("properties", {}))
        patterns = [re.compile(pattern) for pattern in error.schema.get("patternProperties", {})]
        extra = [
            repr(name)
            for name in value
            if name not in allowed and not any(p.search(str(name)) for p in patterns)
        ]
        message = f"unknown field {', '.join(extra)}; allowed: {', '.join(allowed) or 'none'}"
    elif keyword in _BOUNDS:
        message = f"expected {_BOUNDS[keyword]} {expected}, found {found}"
    elif keyword in _SIZES:
        bound, noun = _SIZES[keyword]
        size = len(value) if isinstance(value, Sized) else 0
        message = f"expected {bound} {_counted(expected, noun)}, found {size}"
    elif keyword == "pattern":
        message = f"expected text of the form {expected!r}, found {found}"
    elif keyword == "uniqueItems":
        message = "expected no item to appear twice"
    else:
        message = str(error.message)
    return message if len(message) <= 400 else message[:397] + "..."


_BOUNDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "more than",
    "exclusiveMaximum": "less than",
}
_SIZES = {
    "minItems": ("at least", "item"),
    "maxItems": ("at most", "item"),
    "minLength": ("at least", "character"),
    "maxLength": ("at most", "character"),
    "minProperties": ("at least", "field"),
    "maxProperties": ("at most", "field"),
}


class Checker:
    """Collects cross-reference problems, naming the file that gave the offending field."""

    def __init__(self, merged: Mapping[str, Mapping[str, RecordSource]], problems: list[Problem]) -> None:
        self.merged = merged
        self.problems = problems

    def fail(self, key: str, record_id: str, path: list[str | int], message: str) -> None:
        source = self.merged[key][record_id]
        self.problems.append(
            Problem(source.file_of(path[0] if path else None), key_path([record_id, *path]), message)
        )

    def ref(
        self,
        key: str,
        record_id: str,
        path: list[str | int],
        value: str | None,
        known: Mapping[str, Any],
        what: str,
    ) -> None:
        if value is not None and value not in known:
            self.fail(key, record_id, path, f"unknown {what} {value!r}")
