"""Enrolling a box of discs: what each scan of the reader grid means, told in messages that name the tag."""

from __future__ import annotations

import pytest

from firmware_bridge.messages import ReaderGrid, TagSeen
from service.enrolment.core import (
    ASSIGNED,
    DUPLICATE_TAG,
    MISSING_DISC,
    SET_COMPLETE,
    SEVERAL_TAGS,
    UNKNOWN_TAG,
    Enrolment,
    EnrolmentError,
    SetPiece,
    check_set,
    slot_sheet,
)
from service.mat.geometry import load_mat, load_sensor_config
from service.sensing.tags import RegisteredPiece, TagRegistry
from service.simulator.sensors import SensorModel, tag_uid

MAT = load_mat()
REFERENCE = load_sensor_config("reference")
HEROES = [SetPiece("hero-xoric", "hero"), SetPiece("hero-elani", "hero"), SetPiece("hero-roosan", "hero")]


class Mat:
    """The reference mat's readers seeing discs (by their physical labels) at given places."""

    def __init__(self, seed: int = 3) -> None:
        self.sensors = SensorModel(REFERENCE, MAT, seed=seed)
        self.grid = ReaderGrid(
            self.sensors.cols, self.sensors.rows, REFERENCE.nfc.pitch_mm, self.sensors.origin
        )
        self.discs: dict[str, tuple[float, float]] = {}

    def scan(self) -> list[TagSeen]:
        while True:  # a whole-scan miss (2 %) would only slow the test; real scans simply come again
            reads = self.sensors.scan(self.discs)
            if {r.uid for r in reads} == {tag_uid(d) for d in self.discs}:
                return [TagSeen(1, r.col, r.row, r.uid, r.rssi) for r in reads]


def test_tapping_discs_one_at_a_time_gives_each_the_next_piece_of_the_set() -> None:
    mat, enrolment = Mat(), Enrolment("box-1", HEROES)
    assert enrolment.tap(mat.scan(), mat.grid) == []  # an empty mat: nothing to say
    mat.discs["disc-a"] = (200.0, 300.0)
    (notice,) = enrolment.tap(mat.scan(), mat.grid)
    assert (notice.kind, notice.piece, notice.uid) == (ASSIGNED, "hero-xoric", tag_uid("disc-a").hex())
    assert notice.text == f"tag {tag_uid('disc-a').hex()} is now Xoric"
    assert enrolment.tap(mat.scan(), mat.grid) == []  # the same disc still lying there is no new tap
    mat.discs["disc-b"] = (400.0, 300.0)
    assert [n.piece for n in enrolment.tap(mat.scan(), mat.grid)] == ["hero-elani"]
    mat.discs["disc-c"] = (600.0, 300.0)
    kinds = [n.kind for n in enrolment.tap(mat.scan(), mat.grid)]
    assert kinds == [ASSIGNED, SET_COMPLETE]
    assert [(e.piece, e.uid) for e in enrolment.entries()] == [
        ("hero-xoric", tag_uid("disc-a")),
        ("hero-elani", tag_uid("disc-b")),
        ("hero-roosan", tag_uid("disc-c")),
    ]


def test_two_discs_put_down_together_are_refused_by_uid_and_count_again_when_tapped_singly() -> None:
    mat, enrolment = Mat(), Enrolment("box-1", HEROES)
    enrolment.tap(mat.scan(), mat.grid)
    mat.discs.update({"disc-a": (200.0, 300.0), "disc-b": (500.0, 300.0)})
    (notice,) = enrolment.tap(mat.scan(), mat.grid)
    assert notice.kind == SEVERAL_TAGS
    assert tag_uid("disc-a").hex() in notice.text and tag_uid("disc-b").hex() in notice.text
    assert enrolment.entries() == []
    mat.discs = {}
    enrolment.tap(mat.scan(), mat.grid)
    mat.discs["disc-b"] = (500.0, 300.0)
    assert [n.piece for n in enrolment.tap(mat.scan(), mat.grid)] == ["hero-xoric"]


def test_a_disc_tapped_twice_is_named_as_already_enrolled_and_takes_no_second_piece() -> None:
    mat, enrolment = Mat(), Enrolment("box-1", HEROES)
    enrolment.tap(mat.scan(), mat.grid)
    mat.discs["disc-a"] = (200.0, 300.0)
    enrolment.tap(mat.scan(), mat.grid)
    mat.discs = {}
    enrolment.tap(mat.scan(), mat.grid)
    enrolment.seen.clear()  # as if picked up and tapped again after the mat forgot it
    enrolment.started = True
    mat.discs["disc-a"] = (300.0, 200.0)
    (notice,) = enrolment.tap(mat.scan(), mat.grid)
    assert notice.kind == DUPLICATE_TAG and notice.piece == "hero-xoric"
    assert notice.text == f"tag {tag_uid('disc-a').hex()} is already enrolled as hero-xoric"
    assert enrolment.next_piece() == HEROES[1]


def test_two_discs_carrying_one_uid_are_seen_as_one_tag_read_in_two_places() -> None:
    mat, enrolment = Mat(), Enrolment("box-1", HEROES)
    enrolment.tap(mat.scan(), mat.grid)
    uid = tag_uid("disc-a")
    reads = [TagSeen(2, r.col, r.row, uid, r.rssi) for r in mat.sensors.scan({"x": (200.0, 300.0)})]
    reads += [TagSeen(2, r.col, r.row, uid, r.rssi) for r in mat.sensors.scan({"y": (600.0, 300.0)})]
    (notice,) = enrolment.tap(reads, mat.grid)
    assert notice.kind == DUPLICATE_TAG and notice.uid == uid.hex() and "two places" in notice.text
    assert enrolment.entries() == []


def test_a_group_laid_out_on_its_slots_is_enrolled_in_one_scan_with_the_empty_slot_named() -> None:
    mat = Mat()
    pieces = [SetPiece(f"dungeon-{i}", "monster-medium", "dungeon") for i in range(1, 6)]
    enrolment = Enrolment("box-1", pieces)
    sheet = slot_sheet([p.piece for p in pieces], MAT.width_mm, MAT.height_mm)
    for slot in sheet.slots[:4]:  # the fifth disc is still in the box
        mat.discs[f"disc-{slot.number}"] = (slot.x_mm + 6.0, slot.y_mm - 5.0)  # laid roughly on the slot
    mat.discs["stray"] = (820.0, 560.0)  # a disc of another set, on no slot
    notices = enrolment.lay_out(mat.scan(), mat.grid, sheet)
    assigned = {n.piece: n.uid for n in notices if n.kind == ASSIGNED}
    assert assigned == {f"dungeon-{i}": tag_uid(f"disc-{i}").hex() for i in range(1, 5)}
    (missing,) = [n for n in notices if n.kind == MISSING_DISC]
    assert missing.piece == "dungeon-5" and "slot 5" in missing.text
    (stray,) = [n for n in notices if n.kind == UNKNOWN_TAG]
    assert stray.uid == tag_uid("stray").hex()


def test_a_tag_enrolled_for_one_piece_laid_on_another_pieces_slot_is_a_duplicate() -> None:
    mat = Mat()
    pieces = [SetPiece("hero-xoric", "hero"), SetPiece("hero-elani", "hero")]
    enrolment = Enrolment("box-1", pieces, assigned={"hero-xoric": tag_uid("disc-a")})
    sheet = slot_sheet(["hero-elani"], MAT.width_mm, MAT.height_mm)
    mat.discs["disc-a"] = (sheet.slots[0].x_mm, sheet.slots[0].y_mm)
    (notice, *_) = enrolment.lay_out(mat.scan(), mat.grid, sheet)
    assert notice.kind == DUPLICATE_TAG
    assert notice.text == f"tag {tag_uid('disc-a').hex()} on slot 1 is already enrolled as hero-xoric; " + (
        "hero-elani is not enrolled"
    )


def test_checking_a_set_names_the_unknown_tag_and_the_missing_disc_by_uid() -> None:
    mat = Mat()
    registry = TagRegistry(
        [
            RegisteredPiece("hero-xoric", tag_uid("disc-a"), "hero"),
            RegisteredPiece("hero-elani", tag_uid("disc-b"), "hero"),
        ]
    )
    mat.discs = {"disc-a": (200.0, 300.0), "disc-z": (500.0, 300.0)}
    notices = check_set(mat.scan(), mat.grid, registry)
    texts = {n.kind: n.text for n in notices if n.kind in (UNKNOWN_TAG, MISSING_DISC)}
    assert texts == {
        UNKNOWN_TAG: f"tag {tag_uid('disc-z').hex()} is not enrolled in this set",
        MISSING_DISC: f"disc hero-elani (tag {tag_uid('disc-b').hex()}) is not on the mat",
    }


def test_a_sheet_that_cannot_fit_the_mat_says_so_and_enrolment_refuses_unknown_pieces() -> None:
    with pytest.raises(EnrolmentError, match="do not fit"):
        slot_sheet([f"p{i}" for i in range(60)], MAT.width_mm, MAT.height_mm)
    with pytest.raises(EnrolmentError, match="hero-nobody"):
        Enrolment("box-1", HEROES).forget("hero-nobody")
