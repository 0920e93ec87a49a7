"""Which direct touches the sensors registered: the benchmark's split of what no reader could be sure of."""

from __future__ import annotations

import pytest

from service.mat.geometry import load_mat, load_sensor_config
from service.mat.trace import Scan, SeenPiece
from service.simulator.registered import heard, seen_moving, unregistered_touches
from service.simulator.sensors import PiezoTruth, SensorModel
from service.simulator.shot_lab import ShotLab
from service.simulator.table_edges import Contact, ShotRecord

MAT = load_mat()
REFERENCE = load_sensor_config("reference")


def hearing(truth: PiezoTruth | None = None) -> SensorModel:
    return SensorModel(REFERENCE, MAT, truth=truth)


def kiss_at_a_piezo(impulse: float, sensors: SensorModel) -> Contact:
    _, x, y = sensors.piezos[0]
    return Contact(0.1, x, y, "hero-1", "monster-1", "disc", impulse, 200.0)


def scan(**pieces: tuple[float, float]) -> Scan:
    return Scan(0, tuple(SeenPiece(p, x, y, 3.0) for p, (x, y) in pieces.items()))


def record(*contacts: Contact) -> ShotRecord:
    return ShotRecord("hero-1", 0.0, 800.0, 0.0, direct_hits={"monster-1"}, contacts=list(contacts))


def test_a_disc_touch_is_heard_only_above_the_threshold_after_the_mats_coupling() -> None:
    sensors = hearing()
    pz = REFERENCE.piezo
    just_heard = pz.detection_threshold / (pz.impulse_scale * pz.disc_disc_coupling)  # right over a piezo
    assert heard([kiss_at_a_piezo(just_heard * 1.05, sensors)], sensors)
    assert not heard([kiss_at_a_piezo(just_heard * 0.95, sensors)], sensors)
    # A wall hit is not damped by the disc-to-mat coupling.
    wall = Contact(0.1, *sensors.piezos[0][1:], "hero-1", "wall", "wall", just_heard * 0.95, 200.0)
    assert heard([wall], sensors)


def test_the_tables_hidden_piezo_gains_decide_what_was_heard() -> None:
    sensors = hearing()
    pz = REFERENCE.piezo
    soft = kiss_at_a_piezo(0.8 * pz.detection_threshold / (pz.impulse_scale * pz.disc_disc_coupling), sensors)
    assert not heard([soft], sensors)
    loud_channel = hearing(PiezoTruth(gains={sensors.piezos[0][0]: 1.5}))
    assert heard([soft], loud_channel)


def test_a_struck_piece_is_seen_moving_only_beyond_the_scans_own_noise() -> None:
    before = scan(**{"monster-1": (300.0, 300.0)})
    # Two 3 mm readings: 3 sigmas of their difference is about 12.7 mm.
    assert not seen_moving("monster-1", before, scan(**{"monster-1": (310.0, 300.0)}))
    assert seen_moving("monster-1", before, scan(**{"monster-1": (315.0, 300.0)}))
    assert seen_moving("monster-1", before, scan())  # it left the mat


def test_a_silent_kiss_that_barely_moved_the_piece_is_unregistered_and_a_loud_one_is_not() -> None:
    sensors = hearing()
    before = scan(**{"monster-1": (300.0, 300.0)})
    barely = scan(**{"monster-1": (303.0, 301.0)})
    assert unregistered_touches(record(kiss_at_a_piezo(100.0, sensors)), before, barely, sensors) == [
        "monster-1"
    ]
    assert unregistered_touches(record(kiss_at_a_piezo(20_000.0, sensors)), before, barely, sensors) == []
    far = scan(**{"monster-1": (340.0, 300.0)})
    assert unregistered_touches(record(kiss_at_a_piezo(100.0, sensors)), before, far, sensors) == []


@pytest.mark.parametrize("engine", ["pymunk", "impulse"])
def test_a_firm_hit_on_a_real_shot_is_registered_and_the_piezos_did_report_it(engine: str) -> None:
    lab = ShotLab(seed=4, engine=engine)
    lab.place("hero-1", "hero", 300.0, 300.0, side="heroes")
    lab.place("monster-1", "monster-medium", 300.0, 420.0, side="overseer", kind="monster")
    shot = lab.shoot("hero-1", 1.5708, 1500.0)
    assert shot.truth.direct_hits == {"monster-1"}
    noise_free = SensorModel(lab.sensor_config, lab.mat, truth=lab.sensors.truth)
    assert unregistered_touches(shot.truth, shot.trace.pre, shot.trace.post, noise_free) == []
    assert shot.trace.impacts, "the piezos the report calls hearing did report the shot"
