"""What the scans before and after a shot say about which pieces moved (evidence.position_log_likelihood)."""

from __future__ import annotations

from service.attribution.evidence import EvidenceParams, position_log_likelihood
from service.attribution.model import Rollout, RolloutParams
from service.mat.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace

SENSORS = ((0, 0.0, 0.0), (1, 860.0, 0.0), (2, 860.0, 610.0), (3, 0.0, 610.0))


def trace(sigma_mm: float, moved_mm: float) -> ShotTrace:
    """A hero flicked at the top of the mat; a troll by the bottom edge read to ±sigma, moved_mm apart."""
    hero = SeenPiece("hero-1", 400.0, 500.0, 3.0)
    return ShotTrace(
        MatGeometry(860, 610, 60, SENSORS),
        (
            PieceSpec("hero-1", 19.0, 7.4, "hero", "heroes"),
            PieceSpec("troll-1", 25.0, 12.0, "monster", "overseer"),
        ),
        Scan(0, (hero, SeenPiece("troll-1", 300.0, 10.0, sigma_mm))),
        Declaration("hero-1", "melee"),
        (),
        Scan(1_000_000, (hero, SeenPiece("troll-1", 300.0 + moved_mm, 10.0, sigma_mm))),
    )


def stays_put(t: ShotTrace) -> float:
    start = {"hero-1": (400.0, 500.0), "troll-1": (300.0, 10.0)}
    rollout = Rollout(RolloutParams(0.0, 500.0), final=dict(start))
    return position_log_likelihood(rollout, t, start, EvidenceParams())


def test_a_well_read_disc_that_moved_a_centimetre_did_move() -> None:
    assert stays_put(trace(3.0, 10.0)) < stays_put(trace(3.0, 0.0)) - 2.0


def test_an_edge_disc_read_by_one_antenna_that_reads_60_mm_apart_moved() -> None:
    # Read by one antenna at the edge, the troll is placed to ±25 mm; but two reads of a disc that stayed
    # where the same antennas see it are off by much the same amount, so 60 mm apart is a move, and the
    # rollout in which it stayed put is all but ruled out (before, 60 mm was 1.7 of √2 × 25 mm: "noise").
    assert stays_put(trace(25.0, 60.0)) < stays_put(trace(25.0, 0.0)) - 8.0


def test_an_edge_disc_that_reads_a_few_millimetres_apart_may_well_have_stayed() -> None:
    assert stays_put(trace(25.0, 5.0)) > stays_put(trace(25.0, 0.0)) - 0.5


def pushed_to_the_edge(final_y: float) -> tuple[ShotTrace, dict[str, tuple[float, float]], dict[str, float]]:
    """A troll well read at y = 70 before the shot, read pinned to the last antenna row (y = 12.5) after."""
    hero = SeenPiece("hero-1", 400.0, 500.0, 3.0)
    t = ShotTrace(
        MatGeometry(860, 610, 60, SENSORS),
        (
            PieceSpec("hero-1", 19.0, 7.4, "hero", "heroes"),
            PieceSpec("troll-1", 25.0, 12.0, "monster", "overseer"),
        ),
        Scan(0, (hero, SeenPiece("troll-1", 300.0, 70.0, 3.0))),
        Declaration("hero-1", "melee"),
        (),
        Scan(1_000_000, (hero, SeenPiece("troll-1", 300.0, 12.5, 25.0))),
    )
    start = {"hero-1": (400.0, 500.0), "troll-1": (300.0, 70.0)}
    return t, start, {"troll-1": final_y}


def pinned_log_likelihood(final_y: float) -> float:
    t, start, final = pushed_to_the_edge(final_y)
    rollout = Rollout(RolloutParams(0.0, 500.0), final={**start, "troll-1": (300.0, final["troll-1"])})
    return position_log_likelihood(rollout, t, start, EvidenceParams())


def test_a_disc_read_pinned_at_the_edge_lies_at_or_beyond_the_read_not_well_inside_it() -> None:
    # sensing/locate.py pins a disc past the outermost antennas to the last row: after the shot the troll
    # may be anywhere from a little inside that row to beyond the mat's edge, but not back where it stood.
    stayed, at_the_read, beyond = (pinned_log_likelihood(y) for y in (70.0, 12.5, -10.0))
    assert stayed < at_the_read - 6.0  # a troll left 57 mm inward of a pinned read did not stay put
    assert beyond > at_the_read - 0.5  # 22 mm past the read is what pinning looks like
