"""Each disc's camera marker, recorded in its set file (``smartmat enrol markers``; docs/setup.md).

A disc wears an ArUco marker on its top (docs/camera.md); the referee sticks one on and records its id with
the disc, after its NFC tag: ``--markers hero-1=12,orc-1=13`` (``orc-1=none`` takes a marker off: the camera
then finds that disc by its colour and size). Refused, in words, before anything is written: a disc that is
not in the set, a mat fiducial's id (0-7), an id outside the camera's dictionary, one marker on two discs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from service.table.disc_sets import DiscSet, marker_problems

from .core import EnrolmentError

_ITEM = re.compile(r"^([a-z0-9][a-z0-9-]*)=(\d{1,3}|none)$")


def parse_markers(text: str) -> dict[str, int | None]:
    """``hero-1=12,orc-1=none`` → {hero-1: 12, orc-1: None}; a malformed or repeated item is refused."""
    given: dict[str, int | None] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        match = _ITEM.match(item)
        if match is None:
            raise EnrolmentError(
                f"--markers: {item!r} is not a disc and its marker, like hero-1=12 (or hero-1=none)"
            )
        piece, value = match.groups()
        if piece in given:
            raise EnrolmentError(f"--markers: {piece} is given twice")
        given[piece] = None if value == "none" else int(value)
    if not given:
        raise EnrolmentError("--markers: no disc given (hero-1=12,orc-1=13)")
    return given


def apply_markers(disc_set: DiscSet, given: Mapping[str, int | None]) -> dict[str, int]:
    """The set's markers once ``given`` is recorded (None takes a disc's marker off); a marker the set could
    not keep is refused naming the disc, the marker and, for one in use, the disc that wears it."""
    pieces = [e.piece for e in disc_set.registry.pieces]
    unknown = [p for p in given if p not in pieces]
    if unknown:
        raise EnrolmentError(
            f"--markers: {', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not in set "
            f"{disc_set.name} ({disc_set.path}): enrol the disc's tag first"
        )
    markers = {p: m for p, m in disc_set.markers.items() if p not in given}  # kept: checked against first
    markers |= {p: m for p, m in given.items() if m is not None}
    problems = marker_problems(markers, pieces)
    if problems:
        piece, why = problems[0]
        marker = markers[piece]
        holder = next((p for p, m in markers.items() if m == marker and p != piece), None)
        hint = f" (give {holder} another marker, or {holder}=none)" if holder else ""
        raise EnrolmentError(f"--markers: {piece}={marker}: marker {why}{hint}")
    return {p: markers[p] for p in pieces if p in markers}


def describe_markers(disc_set: DiscSet, markers: Mapping[str, int]) -> list[str]:
    """Lines for the referee: each disc's marker, and the discs the camera will know by colour only."""
    pieces = [e.piece for e in disc_set.registry.pieces]
    lines = [f"  {p:<24} marker {markers[p]}" for p in pieces if p in markers]
    without = [p for p in pieces if p not in markers]
    lines.append(
        f"set {disc_set.name}: {len(pieces) - len(without)} of {len(pieces)} discs have a marker"
        + (f"; found by colour and size only: {', '.join(without)}" if without else "")
    )
    return lines
