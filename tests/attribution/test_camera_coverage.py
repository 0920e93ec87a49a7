"""Shots a camera settles on its own (docs/attribution.md, "What the camera settles after a table's first
shots"): a bounce under a hand that the frames date and place, a swap of names that could only have happened
after the touches that count, a known camera's leaning readings, and the referee's answers teaching how far
those may be trusted."""

from __future__ import annotations

import math

from service.attribution.camera import HIDDEN_PATH_TOUCH, SURE_NO, SURE_YES, TouchReading, camera_touches
from service.attribution.camera_fusion import fuse_camera, swap_doubts
from service.attribution.camera_quality import (
    KNOWN_AFTER_SHOTS,
    LEAN_TRUST_ANSWERS,
    CameraQuality,
    ScanCheck,
    learn_from_referee,
)
from service.attribution.reading import Candidate
from service.mat.camera_trace import CameraRecord, CameraTrack
from service.mat.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace

HERO = PieceSpec("hero", 19.0, 7.4, "hero", "heroes")
ORC = PieceSpec("orc", 16.0, 5.2, "monster", "overseer")
TROLL = PieceSpec("troll", 16.0, 9.0, "monster", "overseer")
REACH = HERO.radius_mm + ORC.radius_mm  # 35 mm
ORC_HOME = (300.0, 320.0)
# The hero slides along y = 300 at 10 mm a frame and meets the orc off-centre: its centre then stands at
# the spot, and the orc sets off along their line of centres.
SPOT_X = ORC_HOME[0] - math.sqrt(REACH**2 - (ORC_HOME[1] - 300.0) ** 2)
T_STRIKE = (SPOT_X - 100.0) / 10.0
U = ((ORC_HOME[0] - SPOT_X) / REACH, (ORC_HOME[1] - 300.0) / REACH)
AWAY = (U[1], -U[0])  # the hero's way on after the touch, across the line of centres


def _trace(
    pieces: tuple[PieceSpec, ...],
    tracks: tuple[CameraTrack, ...],
    still: tuple[tuple[str, float, float], ...],
) -> ShotTrace:
    frames = 1 + max(k for t in tracks for k, _, _ in t.points)
    camera = CameraRecord(90.0, 0.5, 0, frames, tracks, still)
    starts = {t.piece: t.points[0][1:] for t in tracks} | {p: (x, y) for p, x, y in still}
    ends = {t.piece: t.points[-1][1:] for t in tracks} | {p: (x, y) for p, x, y in still}
    return ShotTrace(
        MatGeometry(900.0, 600.0, 30.0, ()),
        pieces,
        Scan(0, tuple(SeenPiece(p, x, y, 3.0) for p, (x, y) in starts.items())),
        Declaration("hero", "melee"),
        (),
        Scan(1, tuple(SeenPiece(p, x, y, 3.0) for p, (x, y) in ends.items())),
        camera=camera,
    )


def bounce_under_a_hand(troll_at: tuple[float, float], *, seen_again_off_mm: float = 0.0) -> ShotTrace:
    """The hero strikes the orc while a hand hides it (frames 12-24 lost), and goes on across the line of
    centres; ``seen_again_off_mm`` moves where it is seen again sideways, as if it had bounced elsewhere."""
    hero = [(k, 100.0 + 10.0 * k, 300.0) for k in range(12)]
    for k in range(25, 40):
        d = 6.0 * (k - T_STRIKE)
        hero.append((k, SPOT_X + AWAY[0] * d + seen_again_off_mm, 300.0 + AWAY[1] * d))
    orc = [(k, *ORC_HOME) for k in range(18)]
    orc += [
        (k, ORC_HOME[0] + U[0] * 6.0 * (k - T_STRIKE), ORC_HOME[1] + U[1] * 6.0 * (k - T_STRIKE))
        for k in range(18, 40)
    ]
    tracks = (CameraTrack("hero", tuple(hero)), CameraTrack("orc", tuple(orc)))
    return _trace((HERO, ORC, TROLL), tracks, (("troll", *troll_at),))


def test_a_bounce_under_a_hand_that_the_frames_date_and_place_leaves_no_doubt_away_from_its_path() -> None:
    # The troll stands 10 mm off the hero's way in, beside the straight line from where the hand hid the
    # hero to where it was seen again: an unseen bounce could have met it, the strike on the orc could not.
    trace = bounce_under_a_hand((240.0, 255.0))
    readings = camera_touches(trace)
    assert readings["orc"].probability >= SURE_YES
    assert readings["troll"].probability <= SURE_NO
    assert "came to 10" in readings["troll"].evidence


def test_a_bounce_the_struck_piece_does_not_explain_keeps_the_pieces_near_it_in_doubt() -> None:
    # Seen again 30 mm aside of where a turn at the strike's spot would put it: it bounced off something
    # else as well, unseen, and the troll by the way between is in real doubt, as before.
    readings = camera_touches(bounce_under_a_hand((240.0, 255.0), seen_again_off_mm=30.0))
    assert readings["troll"].probability == HIDDEN_PATH_TOUCH


def test_a_piece_by_the_strikes_spot_stays_in_doubt_though_the_bounce_is_explained() -> None:
    # The troll's edge 1 mm from where the hero's centre stood as it struck the orc.
    below = (SPOT_X - 20.0, 300.0 - math.sqrt((REACH + 1.0) ** 2 - 20.0**2))
    readings = camera_touches(bounce_under_a_hand(below))
    assert SURE_NO < readings["troll"].probability < SURE_YES


# ---- a swap of names nobody could see ----
ORC2 = PieceSpec("orc-2", 16.0, 5.2, "monster", "overseer")


def after_the_strike(hero_ends_at: tuple[float, float]) -> ShotTrace:
    """The hero strikes the orc head on at frame 10 and runs on, more slowly, to ``hero_ends_at``; the orc
    runs on along y = 300 and passes orc-2 (a look-alike) from frame 49."""
    hero = [(k, 100.0 + 10.0 * k, 300.0) for k in range(10)]
    step = ((hero_ends_at[0] - 190.0) / 49.0, (hero_ends_at[1] - 300.0) / 49.0)
    hero += [(k, 190.0 + step[0] * (k - 10), 300.0 + step[1] * (k - 10)) for k in range(10, 60)]
    orc = [(k, 225.0, 300.0) for k in range(11)] + [(k, 225.0 + 8.0 * (k - 10), 300.0) for k in range(11, 60)]
    tracks = (CameraTrack("hero", tuple(hero)), CameraTrack("orc", tuple(orc)))
    return _trace((HERO, ORC, ORC2), tracks, (("orc-2", *ORC2_AT),))


ORC2_AT = (560.0, 345.0)
PASS_FRAME = 49


def readings_of(orc_until: float) -> dict[str, TouchReading]:
    return {
        "orc": TouchReading("orc", 0.9999, "set off as hero reached it", 10.0, "hero", orc_until),
        "orc-2": TouchReading("orc-2", 0.0001, "stayed put; the flicked disc came to 40 mm of it"),
    }


def swap_check(pass_frame: int) -> ScanCheck:
    return ScanCheck({}, 3, (("orc", "orc-2"),), (("orc", "orc-2"),), (), {("orc", "orc-2"): pass_frame})


def test_a_swap_after_the_flicked_disc_struck_and_left_does_not_doubt_what_it_struck() -> None:
    trace = after_the_strike((200.0, 300.0))
    # The orc reaches orc-2 at frame 49, long after the hero struck it and stopped 300 mm away.
    doubts = swap_doubts(trace, swap_check(PASS_FRAME), CameraQuality(), readings_of(orc_until=20.0))
    assert doubts == {}
    # A pass that began before the frames that say who struck the orc: its name there may be orc-2's.
    early = swap_doubts(trace, swap_check(15), CameraQuality(), readings_of(orc_until=20.0))
    assert "orc" in early and early["orc"][0] == CameraQuality().swap_rate


def test_a_swap_doubts_a_piece_of_the_pair_the_flicked_disc_came_near_after_the_pass() -> None:
    # The hero runs on behind the orc and ends by orc-2: after the pass, which of the two it came near
    # depends on their names.
    trace = after_the_strike((530.0, 390.0))
    doubts = swap_doubts(trace, swap_check(PASS_FRAME), CameraQuality(), readings_of(orc_until=20.0))
    assert set(doubts) == {"orc-2"}


# ---- a known camera's leaning readings ----
def lean_shot() -> ShotTrace:
    """The hero slides along y = 300 and stops with its edge 4 mm short of the orc (a lean: no touch)."""
    stop = 300.0 - REACH - 4.0
    points, x, speed, k = [], 100.0, 12.0, 0
    while x < stop:
        points.append((k, x, 300.0))
        k, speed = k + 1, max(speed * 0.93, 0.4)
        x = min(x + speed, stop)
    points += [(k + j, stop, 300.0) for j in range(6)]
    return _trace((HERO, ORC), (CameraTrack("hero", tuple(points)),), (("orc", 300.0, 300.0),))


def known(readings_answered: int = 0, readings_contradicted: int = 0) -> CameraQuality:
    return CameraQuality(
        shots=KNOWN_AFTER_SHOTS,
        noise_sum_mm=0.3 * KNOWN_AFTER_SHOTS,
        readings_answered=readings_answered,
        readings_contradicted=readings_contradicted,
    )


PHYSICS = [
    Candidate(frozenset(), frozenset(), frozenset(), 0.97, ()),
    Candidate(frozenset({"orc"}), frozenset(), frozenset(), 0.03, ()),
]
NEAR_MISS = (
    "the flicked disc passed within a few millimetres of orc: a touch too soft to hear cannot be ruled out",
)


def test_a_known_camera_whose_leanings_the_referee_has_not_contradicted_settles_a_near_miss() -> None:
    trace = lean_shot()
    lean = known().readings(trace)["orc"].probability
    assert SURE_NO < lean < 0.05  # leaning, not sure
    fused, auto, reasons = fuse_camera(trace, PHYSICS, NEAR_MISS, quality=known())
    assert auto and reasons == () and fused[0].direct_hits == frozenset()
    # A camera the table does not know yet: the physics' doubt stands.
    _, auto, reasons = fuse_camera(trace, PHYSICS, NEAR_MISS, quality=CameraQuality(shots=3))
    assert not auto and NEAR_MISS[0] in reasons


def test_the_referees_answers_teach_how_far_the_cameras_leanings_are_trusted() -> None:
    trace = lean_shot()
    # The referee says the hero did touch the orc: the camera's leaning "no" was wrong.
    taught = learn_from_referee(known(), trace, frozenset({"orc"}))
    assert (taught.readings_answered, taught.readings_contradicted) == (1, 1)
    assert not taught.leans_trusted
    _, auto, reasons = fuse_camera(trace, PHYSICS, NEAR_MISS, quality=taught)
    assert not auto and NEAR_MISS[0] in reasons
    # Agreeing answers restore it only once a contradiction is one in LEAN_TRUST_ANSWERS of them.
    agreed = learn_from_referee(known(), trace, frozenset())
    assert (agreed.readings_answered, agreed.readings_contradicted) == (1, 0)
    assert known(readings_answered=LEAN_TRUST_ANSWERS - 1, readings_contradicted=1).leans_trusted is False
    assert known(readings_answered=LEAN_TRUST_ANSWERS, readings_contradicted=1).leans_trusted
