"""A faster ``dataclasses.replace`` for the core's frozen records (replay speed depends on it).

The state records are frozen dataclasses *with* an instance ``__dict__`` (no ``__slots__``), so a copy is
one C-level dict copy instead of a call of ``__init__`` per change. Records with ``__slots__`` fall back
to ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    fields = getattr(obj, "__dict__", None)
    if fields is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    unknown = changes.keys() - fields.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    new = object.__new__(type(obj))
    new.__dict__.update(fields)
    new.__dict__.update(changes)
    return new
