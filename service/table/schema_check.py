"""The table file's sections checked against their JSON Schemas (service/table/schemas/*.schema.json).

The first problem becomes a ``TableConfigError`` in the style of the table file's other errors: the file,
the key path (``trackers[0].bar_leds``) and what was expected. Checks a schema cannot say (ids, topics, one
device per topic) stay in Python after this one.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from service.sensing.tags import TableConfigError

log = logging.getLogger(__name__)

_TYPES = {
    "integer": "a whole number",
    "string": "text",
    "object": "a mapping",
    "array": "a list",
    "number": "a number",
    "boolean": "true or false",
    "null": "nothing",
}


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of ``service/table/schemas/<name>.schema.json``."""
    text = resources.files("service.table.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def key_path(root: str, path: list[str | int]) -> str:
    text = root
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _expected(error: ValidationError) -> str:
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(schema.get("properties", {}))
        return f"unknown key(s) {', '.join(sorted(str(k) for k in error.instance if k not in allowed))}"
    if error.validator == "enum":
        return f"expected one of {', '.join(map(str, schema['enum']))}, got {error.instance!r}"
    if schema.get("type") == "integer" and "minimum" in schema and "maximum" in schema:
        low, high = schema["minimum"], schema["maximum"]
        return f"expected a whole number from {low} to {high}, got {error.instance!r}"
    if error.validator == "type":
        wanted = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        return f"expected {' or '.join(_TYPES.get(str(t), str(t)) for t in wanted)}, got {error.instance!r}"
    return f"not accepted ({error.validator})"


def check(name: str, data: Any, where: str, root: str) -> None:
    """Raise ``TableConfigError`` (logged) for the first place where ``data`` breaks schema ``name``."""
    errors = sorted(validator(name).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    if not errors:
        return
    error = errors[0]
    path: list[str | int] = list(error.absolute_path)
    if error.validator == "required":
        path.append(str(error.validator_value[0]) if len(error.validator_value) == 1 else "?")
        missing = [key for key in error.validator_value if key not in error.instance]
        path[-1] = str(missing[0]) if missing else path[-1]
        message = f"{where}: {key_path(root, path)}: missing"
    else:
        message = f"{where}: {key_path(root, path)}: {_expected(error)}"
    log.warning("%s", message)
    raise TableConfigError(message)
