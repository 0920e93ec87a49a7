"""A light check of ``content/hardware/*.yaml`` (kept by the physics model and the simulated mat).

Their layout belongs to their owners, so only what holds for any of them is checked here: each file is valid
YAML without repeated keys, and every value whose key names a unit (``_mm``, ``_us``, ``_g``, ``_s``,
``_dbm``) is a number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.content.errors import Problem, key_path
from service.content.sources import read_yaml

UNIT_SUFFIXES = ("_mm", "_us", "_g", "_s", "_dbm")


def check_hardware(directory: Path, label_root: str = "content/hardware") -> list[Problem]:
    problems: list[Problem] = []
    if not directory.is_dir():
        return problems
    for path in sorted(directory.glob("*.yaml")):
        label = f"{label_root}/{path.name}"
        document = read_yaml(path, label, problems)
        if document is not None and not isinstance(document, dict):
            problems.append(
                Problem(label, "", f"expected a mapping at the top, found {type(document).__name__}")
            )
            continue
        _check_units(document, [], label, problems)
    return problems


def _check_units(value: Any, path: list[str | int], label: str, problems: list[Problem]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            here = [*path, str(key)]
            if (
                str(key).endswith(UNIT_SUFFIXES)
                and not _is_number(item)
                and not isinstance(item, (dict, list))
            ):
                problems.append(Problem(label, key_path(here), f"{item!r} is not a number"))
            _check_units(item, here, label, problems)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_units(item, [*path, index], label, problems)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
