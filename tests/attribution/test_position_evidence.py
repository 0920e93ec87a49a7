"""What the scans before and after a shot say about which pieces moved (evidence.position_log_likelihood)."""

from __future__ import annotations

from service.attribution.evidence import EvidenceParams, position_log_likelihood
from service.attribution.model import Rollout, RolloutParams
from service.attribution.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace

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
