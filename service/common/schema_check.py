"""Files the product reads, checked against their JSON Schemas (Draft 2020-12), refused in words.

Each package that owns a file kind ships its schemas as package data (``<package>/schemas/*.schema.json``):
the table file and disc sets in ``service.table.schemas``, shot traces in ``service.mat.schemas``, calibration
files in ``service.attribution.schemas``. The first problem found becomes the caller's own error, naming the
file (``where``), the key path (``trackers[0].bar_leds``) and what was expected; checks a schema cannot say
(an id listed twice, a piece the trace does not know) stay in Python after this one.

A validator is built once per schema (:func:`validator` is cached) and :func:`check` asks it ``is_valid``
first, so a good file costs one pass and only a bad one pays for the words.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend
from referencing import Registry, Resource

log = logging.getLogger(__name__)

_TYPES = {
    "integer": "a whole number",
    "string": "text",
    "object": "a mapping",
    "array": "a list",
    "number": "a finite number",
    "boolean": "true or false",
    "null": "nothing",
}


_BOUNDS = {
    "minimum": "at least",
    "exclusiveMinimum": "more than",
    "maximum": "at most",
    "exclusiveMaximum": "less than",
}


def _number(_checker: Any, value: Any) -> bool:
    # JSON from Python may carry NaN and Infinity; no file the product reads means either.
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _integer(_checker: Any, value: Any) -> bool:
    # 3.0 is not a sensor id or a count: the readers before the schemas refused it, so do these.
    return isinstance(value, int) and not isinstance(value, bool)


_Strict: Any = extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many({"number": _number, "integer": _integer}),
)


def _schema(package: str, name: str) -> dict[str, Any]:
    text = resources.files(package).joinpath(f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def validator(
    package: str, name: str, refs: tuple[str, ...] = (), sections: tuple[tuple[str, str, str], ...] = ()
) -> Validator:
    """The validator of ``<package>/<name>.schema.json``; every schema of ``package`` and of the ``refs``
    packages can be ``$ref``-ed by its ``$id``. Each of ``sections``, ``(key, package, name)``, is a top-level
    key whose shape another package owns (a table file's ``game`` is its game's): the file's own schema for
    that key is replaced by ``<package>/<name>.schema.json``."""
    registry: Registry[Any] = Registry()
    for source in (package, *refs):
        for entry in resources.files(source).iterdir():
            if entry.name.endswith(".schema.json"):
                other = _schema(source, entry.name.removesuffix(".schema.json"))
                registry = registry.with_resource(other["$id"], Resource.from_contents(other))
    schema = _schema(package, name)
    for key, section_package, section_name in sections:
        section = _schema(section_package, section_name)
        Draft202012Validator.check_schema(section)
        registry = registry.with_resource(section["$id"], Resource.from_contents(section))
        schema["properties"][key] = {"$ref": section["$id"]}
    Draft202012Validator.check_schema(schema)
    checker: Validator = _Strict(schema, registry=registry)
    return checker


def key_path(root: str, path: Iterable[str | int]) -> str:
    """``root`` and the path below it, as the docs write keys: ``mat.sensors[0].x_mm``."""
    text = root
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _words(error: ValidationError) -> str:
    """What the schema expected where ``error`` happened, in the words of the file's documentation."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    said = schema.get("description")  # a schema that says it better than the generic words
    value = error.instance
    kind = error.validator
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = set(schema.get("properties", {}))
        return f"unknown key(s) {', '.join(sorted(str(k) for k in value if k not in allowed))}"
    if kind in ("enum", "const"):
        choices = " or ".join(map(repr, schema["enum"] if kind == "enum" else [schema["const"]]))
        return f"expected {choices}{f' ({said})' if said else ''}, got {value!r}"
    if kind == "type":
        wanted = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        words = " or ".join(_TYPES.get(str(t), str(t)) for t in wanted)
        return f"expected {said or words}, got {value!r}"
    if said:
        return f"expected {said}, got {value!r}"
    if schema.get("type") == "integer" and "minimum" in schema and "maximum" in schema:
        return f"expected a whole number from {schema['minimum']} to {schema['maximum']}, got {value!r}"
    bounds = [
        f"{words} {schema[key]}"
        for key, words in _BOUNDS.items()
        if key in schema and isinstance(schema[key], int | float)
    ]
    if kind == "exclusiveMinimum" and schema["exclusiveMinimum"] == 0 and len(bounds) == 1:
        return f"must be positive, got {value!r}"
    if kind in _BOUNDS:
        return f"expected a number {' and '.join(bounds)}, got {value!r}"
    if kind == "minLength":
        return f"expected a non-empty string, got {value!r}"
    if kind in ("minItems", "maxItems"):
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        size = f"{low}" if low == high else f"{low} to {high}" if high is not None else f"at least {low}"
        return f"expected a list of {size} entries, got {len(value) if isinstance(value, list) else value!r}"
    if kind == "pattern":
        return f"{value!r} must match {schema['pattern']}"
    return f"not accepted ({kind}: {error.message})"


def _in_key_order(error: ValidationError) -> list[tuple[int, int, str]]:
    """Errors in the order of their key paths, list entries by number (``tags[2]`` before ``tags[10]``)."""
    return [(0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in error.absolute_path]


def _deepest(error: ValidationError) -> ValidationError:
    """Within a ``oneOf``/``anyOf`` that failed, the branch that got furthest says the most."""
    if not error.context:
        return error
    return max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))


def first_problem(
    checker: Validator, data: Any, root: str = "", top: str = "(top)"
) -> tuple[str, str] | None:
    """(key path, what was expected) at the first place, in key order, where ``data`` breaks the schema;
    None when it fits. ``root`` starts every key path; ``top`` names the whole file when the problem is the
    file itself."""
    if checker.is_valid(data):
        return None
    error = _deepest(min(checker.iter_errors(data), key=_in_key_order))
    path: list[str | int] = list(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        required: list[str] = list(error.schema["required"]) if isinstance(error.schema, dict) else []
        missing = [key for key in required if key not in error.instance] or ["?"]
        return key_path(root, [*path, missing[0]]), "missing"
    return key_path(root, path) or top, _words(error)


def problem(checker: Validator, data: Any, root: str = "", top: str = "(top)") -> str | None:
    """``key: what was expected`` for :func:`first_problem`; None when ``data`` fits."""
    found = first_problem(checker, data, root, top)
    return None if found is None else f"{found[0]}: {found[1]}"


def check(
    checker: Validator,
    data: Any,
    where: str,
    error: type[Exception],
    root: str = "",
    top: str = "(top)",
    logged: bool = False,
) -> None:
    """Raise ``error("<where>: <key>: <expected>")`` when ``data`` breaks the schema; ``logged`` also logs it
    (for a program that reads the file while it runs, whose caller may not print the refusal)."""
    found = problem(checker, data, root, top)
    if found is None:
        return
    message = f"{where}: {found}"
    if logged:
        log.warning("%s", message)
    raise error(message)
