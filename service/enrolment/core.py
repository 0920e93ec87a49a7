"""What a scan of the reader grid means while a set of discs is being enrolled. Pure: no I/O, no clock.

Two ways to enrol, as an organiser does it at the table:

- **tap**: the discs are put on the mat one at a time, in the order the set lists them. A tag never seen
  before in this enrolment is the disc being tapped and is given to the next piece still without a tag.
- **layout**: a group of discs is laid out on a printed sheet of numbered slots; one scan locates every tag
  and gives each slot's piece the tag lying on it.

Every problem is a :class:`Notice` that names the tag UID: an unknown tag (``check``), a tag already enrolled
for another piece, one UID read in two places (two discs carrying the same tag), a slot with no disc.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from firmware_bridge.messages import ReaderGrid, TagSeen
from service.sensing.locate import NfcCalibration, locate
from service.sensing.tags import RegisteredPiece, TagRegistry
from service.table.wording import piece_in_words

# A disc's tag is heard by the antennas within reach of it (32 mm on the reference grid, so reads of one disc
# lie at most 64 mm apart). Reads of one UID further apart than this cannot come from one disc.
SAME_DISC_SPREAD_MM = 90.0


class EnrolmentError(ValueError):
    """A request the enrolment cannot carry out (an unknown piece, a slot sheet that does not fit the mat)."""


@dataclass(frozen=True)
class SetPiece:
    """A piece of the set to enrol: its id and the class and family its disc is."""

    piece: str
    piece_class: str
    family: str | None = None


@dataclass(frozen=True)
class Notice:
    """One thing the organiser is told. ``kind`` is one of the constants below."""

    kind: str
    text: str
    uid: str | None = None  # the tag's UID in hex, whenever a tag is concerned
    piece: str | None = None

    def to_json(self) -> dict[str, str]:
        out = {"kind": self.kind, "text": self.text}
        if self.uid is not None:
            out["uid"] = self.uid
        if self.piece is not None:
            out["piece"] = self.piece
        return out


ASSIGNED = "assigned"
ALREADY_ON_MAT = "already_on_mat"  # a tag lying on the mat when tap enrolment began
DUPLICATE_TAG = "duplicate_tag"  # a UID enrolled for another piece, or read in two places at once
SEVERAL_TAGS = "several_tags"  # two or more new tags in one scan while tapping
SET_COMPLETE = "set_complete"
UNKNOWN_TAG = "unknown_tag"  # not in the set (checking), or off every slot (layout)
MISSING_DISC = "missing_disc"
KNOWN = "known"  # checking: a tag of the set, where it should be


def group_reads(reads: Iterable[TagSeen]) -> dict[bytes, list[TagSeen]]:
    """A scan's reads, by tag UID (one disc is read by every antenna within reach)."""
    by_uid: dict[bytes, list[TagSeen]] = {}
    for read in reads:
        by_uid.setdefault(read.uid, []).append(read)
    return by_uid


def read_in_two_places(reads: Sequence[TagSeen], grid: ReaderGrid) -> bool:
    """Whether the antennas that read one UID lie too far apart to be around a single disc."""
    limit = max(SAME_DISC_SPREAD_MM, 3 * grid.pitch_mm)
    cells = [grid.cell_centre_mm(r.col, r.row) for r in reads]
    return any(math.dist(a, b) > limit for i, a in enumerate(cells) for b in cells[i + 1 :])


def cells_text(reads: Sequence[TagSeen]) -> str:
    return ", ".join(f"({r.col},{r.row})" for r in sorted(reads, key=lambda r: (r.row, r.col)))


def locate_uids(
    reads: Iterable[TagSeen], grid: ReaderGrid, calibration: NfcCalibration | None = None
) -> dict[bytes, tuple[float, float]]:
    """Where each tag of a scan lies, whether or not it is enrolled (the same estimate as during play)."""
    by_uid = group_reads(reads)
    registry = TagRegistry([RegisteredPiece(uid.hex(), uid, "unknown") for uid in by_uid])
    seen = locate([r for rs in by_uid.values() for r in rs], grid, registry, calibration or NfcCalibration())
    return {bytes.fromhex(piece): (p.x_mm, p.y_mm) for piece, p in seen.items()}


@dataclass
class Enrolment:
    """The enrolment of one set: the pieces it needs and the tags given to them so far."""

    set_name: str
    pieces: Sequence[SetPiece]
    assigned: dict[str, bytes] = field(default_factory=dict)  # piece -> uid
    seen: set[bytes] = field(default_factory=set)  # every UID seen while tapping (the mat's background)
    started: bool = False
    markers: dict[str, int] = field(default_factory=dict)  # the discs' markers, kept when the tags are saved

    def __post_init__(self) -> None:
        ids = [p.piece for p in self.pieces]
        if len(set(ids)) != len(ids):
            raise EnrolmentError(f"set {self.set_name}: a piece is listed twice")
        self._by_id = {p.piece: p for p in self.pieces}

    # -- views ------------------------------------------------------------------------------------------
    def piece_of(self, uid: bytes) -> str | None:
        return next((piece for piece, u in self.assigned.items() if u == uid), None)

    def next_piece(self) -> SetPiece | None:
        """The next piece to tap: the first the set lists that has no tag yet."""
        return next((p for p in self.pieces if p.piece not in self.assigned), None)

    def missing(self) -> list[SetPiece]:
        return [p for p in self.pieces if p.piece not in self.assigned]

    def entries(self) -> list[RegisteredPiece]:
        """The enrolled tags, in the set's order (what the set file stores)."""
        return [
            RegisteredPiece(p.piece, self.assigned[p.piece], p.piece_class, p.family)
            for p in self.pieces
            if p.piece in self.assigned
        ]

    def forget(self, piece: str) -> None:
        """Take a piece's tag back (a wrong disc was tapped); its tag may then be tapped again."""
        uid = self.assigned.pop(self._piece(piece).piece, None)
        if uid is not None:
            self.seen.discard(uid)

    def _piece(self, piece: str) -> SetPiece:
        try:
            return self._by_id[piece]
        except KeyError:
            raise EnrolmentError(f"piece {piece!r} is not in set {self.set_name}") from None

    # -- tap ----------------------------------------------------------------------------------------------
    def tap(self, reads: Sequence[TagSeen], grid: ReaderGrid) -> list[Notice]:
        """One scan while discs are being tapped on, one at a time."""
        by_uid = group_reads(reads)
        if not self.started:
            # What lies on the mat before the first tap is background, never a tap.
            self.started = True
            self.seen.update(by_uid)
            return [
                Notice(
                    ALREADY_ON_MAT,
                    f"tag {uid.hex()} was on the mat before enrolment began"
                    + (f" (enrolled as {self.piece_of(uid)})" if self.piece_of(uid) else "")
                    + "; it is left out: take it off to tap it",
                    uid.hex(),
                    self.piece_of(uid),
                )
                for uid in sorted(by_uid)
            ]
        new = sorted(uid for uid in by_uid if uid not in self.seen)
        self.seen.update(new)
        notices = [
            Notice(
                DUPLICATE_TAG,
                f"tag {uid.hex()} is read in two places at once ({cells_text(by_uid[uid])}): two discs carry "
                "the same tag; neither is enrolled",
                uid.hex(),
            )
            for uid in new
            if read_in_two_places(by_uid[uid], grid)
        ]
        new = [uid for uid in new if not read_in_two_places(by_uid[uid], grid)]
        already = [uid for uid in new if self.piece_of(uid) is not None]
        for uid in already:
            piece = self.piece_of(uid)
            notices.append(
                Notice(DUPLICATE_TAG, f"tag {uid.hex()} is already enrolled as {piece}", uid.hex(), piece)
            )
        new = [uid for uid in new if uid not in already]
        if len(new) > 1:
            names = ", ".join(uid.hex() for uid in new)
            notices.append(
                Notice(
                    SEVERAL_TAGS,
                    f"{len(new)} new tags at once ({names}): none is enrolled; take them off and tap one "
                    "disc at a time",
                    names,
                )
            )
            self.seen.difference_update(new)  # once taken off and tapped again, each counts as new
            return notices
        if len(new) == 1:
            notices.extend(self._give(new[0]))
        return notices

    def _give(self, uid: bytes) -> list[Notice]:
        piece = self.next_piece()
        if piece is None:
            return [Notice(UNKNOWN_TAG, f"tag {uid.hex()} is one more than the set has pieces", uid.hex())]
        self.assigned[piece.piece] = uid
        said = f"tag {uid.hex()} is now {piece_in_words(piece.piece)}"
        notices = [Notice(ASSIGNED, said, uid.hex(), piece.piece)]
        if self.next_piece() is None:
            notices.append(Notice(SET_COMPLETE, f"set {self.set_name}: every piece has its tag"))
        return notices

    # -- layout -------------------------------------------------------------------------------------------
    def lay_out(
        self,
        reads: Sequence[TagSeen],
        grid: ReaderGrid,
        sheet: SlotSheet,
        calibration: NfcCalibration | None = None,
    ) -> list[Notice]:
        """One scan of a group laid out on ``sheet``: each slot's piece gets the tag lying on its slot."""
        for slot in sheet.slots:
            self._piece(slot.piece)
        notices: list[Notice] = []
        on_slot = _tags_on_slots(reads, grid, sheet, calibration, notices)
        for slot in sheet.slots:
            notices.append(self._enrol_slot(slot, on_slot.get(slot.piece, [])))
        if self.pieces and self.next_piece() is None:
            notices.append(Notice(SET_COMPLETE, f"set {self.set_name}: every piece has its tag"))
        return notices

    def _enrol_slot(self, slot: Slot, uids: list[bytes]) -> Notice:
        """The piece of ``slot`` gets its one tag, unless the slot holds none, several, or another's."""
        if not uids:
            return Notice(
                MISSING_DISC,
                f"no disc on slot {slot.number} ({slot.piece}): no tag was read there",
                None,
                slot.piece,
            )
        if len(uids) > 1:
            names = ", ".join(u.hex() for u in uids)
            return Notice(
                SEVERAL_TAGS,
                f"slot {slot.number} ({slot.piece}) has {len(uids)} tags ({names}): not enrolled",
                names,
                slot.piece,
            )
        uid = uids[0]
        owner = self.piece_of(uid)
        if owner is not None and owner != slot.piece:
            return Notice(
                DUPLICATE_TAG,
                f"tag {uid.hex()} on slot {slot.number} is already enrolled as {owner}; "
                f"{slot.piece} is not enrolled",
                uid.hex(),
                slot.piece,
            )
        self.assigned[slot.piece] = uid
        return Notice(
            ASSIGNED,
            f"tag {uid.hex()} is now {piece_in_words(slot.piece)} (slot {slot.number})",
            uid.hex(),
            slot.piece,
        )


def check_set(
    reads: Sequence[TagSeen], grid: ReaderGrid, registry: TagRegistry, expected: Iterable[str] | None = None
) -> list[Notice]:
    """A scan of an enrolled set laid out on the mat: every tag known, none doubled, every disc there.

    ``expected``: the pieces that should be on the mat (default: every piece of the set)."""
    by_uid = group_reads(reads)
    notices: list[Notice] = []
    present: set[str] = set()
    for uid in sorted(by_uid):
        entry = registry.find(uid)
        if read_in_two_places(by_uid[uid], grid):
            name = f" ({entry.piece})" if entry else ""
            notices.append(
                Notice(
                    DUPLICATE_TAG,
                    f"tag {uid.hex()}{name} is read in two places at once ({cells_text(by_uid[uid])}): two "
                    "discs carry the same tag",
                    uid.hex(),
                    entry.piece if entry else None,
                )
            )
        if entry is None:
            notices.append(Notice(UNKNOWN_TAG, f"tag {uid.hex()} is not enrolled in this set", uid.hex()))
            continue
        present.add(entry.piece)
        notices.append(Notice(KNOWN, f"tag {uid.hex()} is {entry.piece}", uid.hex(), entry.piece))
    wanted = list(expected) if expected is not None else [e.piece for e in registry.pieces]
    for piece in wanted:
        if piece not in present:
            tag = registry.entry(piece).uid.hex()
            notices.append(Notice(MISSING_DISC, f"disc {piece} (tag {tag}) is not on the mat", tag, piece))
    return notices


# -- the slot sheet ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Slot:
    number: int  # printed on the sheet, from 1
    piece: str
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class SlotSheet:
    """Numbered places on the mat, one per piece of a group, ``spacing_mm`` apart in rows."""

    slots: tuple[Slot, ...]
    spacing_mm: float

    def slot_at(self, x_mm: float, y_mm: float) -> Slot | None:
        """The slot a tag located at (x, y) lies on: within half the spacing of its centre."""
        best = min(self.slots, key=lambda s: math.hypot(s.x_mm - x_mm, s.y_mm - y_mm), default=None)
        if best is None or math.hypot(best.x_mm - x_mm, best.y_mm - y_mm) > self.spacing_mm / 2:
            return None
        return best

    def to_json(self) -> list[dict[str, object]]:
        return [{"slot": s.number, "piece": s.piece, "x_mm": s.x_mm, "y_mm": s.y_mm} for s in self.slots]


def slot_sheet(
    pieces: Sequence[str], width_mm: float, height_mm: float, spacing_mm: float = 100.0
) -> SlotSheet:
    """Slots for ``pieces`` in rows across a mat, ``spacing_mm`` apart, half a spacing from the edges."""
    cols = int(width_mm // spacing_mm)
    rows = int(height_mm // spacing_mm)
    if cols < 1 or rows < 1 or len(pieces) > cols * rows:
        raise EnrolmentError(
            f"{len(pieces)} slots {spacing_mm:.0f} mm apart do not fit a "
            f"{width_mm:.0f} x {height_mm:.0f} mm mat "
            f"(at most {max(cols, 0) * max(rows, 0)}): lay the set out in smaller groups"
        )
    slots = tuple(
        Slot(i + 1, piece, spacing_mm * (i % cols + 0.5), spacing_mm * (i // cols + 0.5))
        for i, piece in enumerate(pieces)
    )
    return SlotSheet(slots, spacing_mm)


def set_pieces(entries: Iterable[RegisteredPiece]) -> list[SetPiece]:
    """The pieces a registry (a table file or an enrolled set) lists, to enrol again with new tags."""
    return [SetPiece(e.piece, e.piece_class, e.family) for e in entries]


def enrolment_from(
    set_name: str, pieces: Sequence[SetPiece], known: Mapping[str, bytes] | None = None
) -> Enrolment:
    """An enrolment that carries on from tags already enrolled (a set enrolled group by group)."""
    enrolment = Enrolment(set_name, pieces)
    for piece, uid in (known or {}).items():
        enrolment._piece(piece)
        enrolment.assigned[piece] = uid
    return enrolment


def _tags_on_slots(
    reads: Sequence[TagSeen],
    grid: ReaderGrid,
    sheet: SlotSheet,
    calibration: NfcCalibration | None,
    notices: list[Notice],
) -> dict[str, list[bytes]]:
    """Each slot's piece and the tags lying on its slot; a tag read in two places, or lying on no slot, is
    said in ``notices`` and on none."""
    by_uid = group_reads(reads)
    doubled = {uid for uid, rs in by_uid.items() if read_in_two_places(rs, grid)}
    for uid in sorted(doubled):
        notices.append(
            Notice(
                DUPLICATE_TAG,
                f"tag {uid.hex()} is read in two places at once ({cells_text(by_uid[uid])}): two discs "
                "carry the same tag; neither is enrolled",
                uid.hex(),
            )
        )
    where = {
        uid: xy
        for uid, xy in locate_uids([r for r in reads if r.uid not in doubled], grid, calibration).items()
    }
    on_slot: dict[str, list[bytes]] = {}
    for uid, (x, y) in sorted(where.items()):
        found = sheet.slot_at(x, y)
        if found is None:
            notices.append(
                Notice(
                    UNKNOWN_TAG,
                    f"tag {uid.hex()} lies at ({x:.0f}, {y:.0f}) mm, on no slot of the sheet: not enrolled",
                    uid.hex(),
                )
            )
        else:
            on_slot.setdefault(found.piece, []).append(uid)
    return on_slot
