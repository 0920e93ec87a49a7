"""Frozen dataclasses to plain JSON values and back, driven by their type hints.

Tuples become lists, nested dataclasses become objects; decoding rebuilds exactly the same values, so
``decode(T, encode(x)) == x`` for the state, actions and events of the rules core. Decoders are built once
per type (replaying a log decodes thousands of actions).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, Union

T = TypeVar("T")
Decoder = Callable[[Any, str], Any]


class DecodeError(ValueError):
    """A JSON value does not have the shape its type needs."""


# A field's metadata key: left out of the encoding while it holds its default, so a field one rule set adds
# leaves the canonical form of the others' states as it was (decoding gives the default back).
OMIT_WHEN_DEFAULT = "omit_when_default"
_KEEP = object()


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        encoded = {}
        for name, default in _fields(type(value)):
            field_value = getattr(value, name)
            if default is _KEEP or field_value != default:
                encoded[name] = encode(field_value)
        return encoded
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    return value


@cache
def _fields(cls: Any) -> tuple[tuple[str, Any], ...]:
    """(name, the default it is omitted at, or _KEEP) of each field."""
    return tuple(
        (f.name, f.default if f.metadata.get(OMIT_WHEN_DEFAULT) else _KEEP)
        for f in dataclasses.fields(cls)
        if f.init
    )


def decode(tp: Any, raw: Any, where: str = "$") -> Any:
    return _decoder(tp)(raw, where)


def decode_dataclass(cls: type[T], raw: Any, where: str = "$") -> T:
    spec: Any = cls  # typed loosely: the cache keys on the class object
    result: T = _decoder(spec)(raw, where)
    return result


def _scalar(kind: type, label: str) -> Decoder:
    def decode_scalar(raw: Any, where: str) -> Any:
        if type(raw) is not kind:  # bool is not an int here
            raise DecodeError(f"{where}: expected {label}, got {raw!r}")
        return raw

    return decode_scalar


@cache
def _decoder(tp: Any) -> Decoder:
    origin = typing.get_origin(tp)
    if tp is Any:
        return lambda raw, where: raw
    if tp is bool:
        return _scalar(bool, "true/false")
    if tp is int:
        return _scalar(int, "an integer")
    if tp is str:
        return _scalar(str, "a string")
    if tp is type(None):
        return _scalar(type(None), "null")
    if origin in (Union, types.UnionType):
        return _union_decoder(tuple(typing.get_args(tp)))
    if origin is tuple:
        return _tuple_decoder(tuple(typing.get_args(tp)))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    raise TypeError(f"cannot decode type {tp!r}")


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    optional = type(None) in args
    options = [_decoder(a) for a in args if a is not type(None)]

    def decode_union(raw: Any, where: str) -> Any:
        if raw is None and optional:
            return None
        errors = []
        for option in options:
            try:
                return option(raw, where)
            except DecodeError as exc:
                errors.append(str(exc))
        raise DecodeError("; ".join(errors))

    return decode_union


def _tuple_decoder(args: tuple[Any, ...]) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def decode_items(raw: Any, where: str) -> Any:
            if not isinstance(raw, list):
                raise DecodeError(f"{where}: expected a list, got {type(raw).__name__}")
            return tuple(item(v, f"{where}[{i}]") for i, v in enumerate(raw))

        return decode_items
    items = [_decoder(a) for a in args]

    def decode_fixed(raw: Any, where: str) -> Any:
        if not isinstance(raw, list) or len(raw) != len(items):
            raise DecodeError(f"{where}: expected a list of {len(items)} items, got {raw!r}")
        return tuple(d(v, f"{where}[{i}]") for i, (d, v) in enumerate(zip(items, raw, strict=True)))

    return decode_fixed


def _dataclass_decoder(cls: Any) -> Decoder:
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    known = {f.name for f in fields} | {"type", "text"}
    required = {
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    decoders = {f.name: _decoder(hints[f.name]) for f in fields}

    def decode_record(raw: Any, where: str) -> Any:
        if not isinstance(raw, dict):
            raise DecodeError(f"{where}: expected an object for {cls.__name__}, got {type(raw).__name__}")
        unknown = raw.keys() - known
        if unknown:
            raise DecodeError(f"{where}: unknown field(s) {sorted(unknown)} for {cls.__name__}")
        missing = required - raw.keys()
        if missing:
            raise DecodeError(f"{where}: missing field {sorted(missing)[0]!r} for {cls.__name__}")
        kwargs = {
            name: decoders[name](value, f"{where}.{name}") for name, value in raw.items() if name in decoders
        }
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise DecodeError(f"{where}: {exc}") from exc

    return decode_record
