"""Each disc's camera marker, recorded in its set file (``smartmat enrol markers``; docs/setup.md).

A disc wears an ArUco marker on its top (docs/camera.md); the referee sticks one on and records its id with
the disc, after its NFC tag: ``--markers hero-1=12,orc-1=13`` (``orc-1=none`` takes a marker off: the camera
then finds that disc by its colour and size). Refused, in words, before anything is written: a disc that is
not in the set, a mat fiducial's id (0-7), an id outside the camera's dictionary, one marker on two discs.
Or the camera reads them: each disc shown to it in turn (:class:`MarkerShowing`, camera_markers.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from service.camera.layout import LAST_MARKER_ID, MAT_MARKER_IDS
from service.table.disc_sets import DiscSet, marker_problems

from .core import ASSIGNED, EnrolmentError, Notice

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


AGREEING_FRAMES = 3  # a new marker counts once this many frames in a row show it alone


class MarkerShowing:
    """Markers enrolled by showing each disc to the camera, one at a time, as its tag is tapped on the mat.

    The markers in view in the first frame are background (discs already lying there), never a disc's. Then
    for each disc asked for in turn, the first new disc marker seen alone in ``AGREEING_FRAMES`` frames in a
    row is its own. A fiducial, a marker another disc of the set wears, two new markers at once: said in words
    (each once), never given."""

    def __init__(self, disc_set: DiscSet, wanted: list[str]) -> None:
        self.set_name = disc_set.name
        self.wanted = list(wanted)
        self.markers = dict(
            disc_set.markers
        )  # a disc shown again keeps its old marker until it has a new one
        self.background: set[int] | None = None
        self._candidate: int | None = None
        self._run = 0
        self._said: set[str] = set()

    def next_piece(self) -> str | None:
        return self.wanted[0] if self.wanted else None

    def frame(self, seen: set[int]) -> list[Notice]:
        """One frame's marker ids: what the referee is told (an ``assigned`` notice when a disc got one)."""
        ids = {m for m in seen if m not in MAT_MARKER_IDS and m <= LAST_MARKER_ID}
        told: list[Notice] = []
        if self.background is None:
            self.background = ids
            for m in sorted(ids):
                text = (
                    f"marker {m} was in view before enrolment began; it is left out: take it away to show it"
                )
                self._tell(told, "already_in_view", text)
            return told
        worn = {m: p for p, m in self.markers.items() if p not in self.wanted}
        for m in sorted((ids - self.background) & set(worn)):
            self._tell(told, "duplicate_marker", f"marker {m} is {worn[m]}'s already")
        new = sorted(ids - self.background - set(worn))
        if len(new) > 1:
            listed = ", ".join(map(str, new))
            self._tell(
                told, "several_markers", f"{len(new)} new markers at once ({listed}): show one at a time"
            )
        candidate = new[0] if len(new) == 1 else None
        self._run = self._run + 1 if candidate is not None and candidate == self._candidate else 1
        self._candidate = candidate
        piece = self.next_piece()
        if candidate is not None and piece is not None and self._run >= AGREEING_FRAMES:
            self.markers = {p: m for p, m in self.markers.items() if m != candidate}  # a disc still to show
            self.markers[piece] = candidate
            self.background.add(candidate)  # the disc may stay where it is
            self.wanted.pop(0)
            self._candidate, self._run = None, 0
            told.append(Notice(ASSIGNED, f"marker {candidate} is now {piece}", piece=piece))
        return told

    def _tell(self, told: list[Notice], kind: str, text: str) -> None:
        """A problem is said once, not at every frame that shows it."""
        if text not in self._said:
            self._said.add(text)
            told.append(Notice(kind, text))
