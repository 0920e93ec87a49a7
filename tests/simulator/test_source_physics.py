"""The physics-backed sensor source streams what the emulated firmware would send, in device time."""

from __future__ import annotations

from firmware_bridge.emulator.source import SensorSource
from firmware_bridge.messages import Impact, ScanDone, TagSeen
from service.mat.geometry import load_mat, load_piece_classes, load_sensor_config
from service.simulator.sensors import SensorModel, tag_uid
from service.simulator.source_physics import PhysicsSensorSource
from service.simulator.world import World

MAT = load_mat()
PIECES = load_piece_classes()


def _table(seed: int = 1) -> PhysicsSensorSource:
    world = World(MAT, seed=seed)
    world.place("hero-xoric", PIECES["hero"], 150.0, 300.0, side="heroes")
    world.place("orc-1", PIECES["monster-medium"], 400.0, 300.0, side="overseer")
    return PhysicsSensorSource(world, SensorModel(load_sensor_config("reference"), MAT, seed=seed))


def test_it_is_a_sensor_source_describing_the_reference_mat() -> None:
    source = _table()
    assert isinstance(source, SensorSource)
    caps = source.capabilities()
    assert (caps.grid.cols, caps.grid.rows, caps.grid.pitch_mm) == (34, 24, 25.0)
    assert len(caps.sensors) == 8
    assert (caps.mat_width_mm, caps.mat_height_mm) == (MAT.width_mm, MAT.height_mm)


def test_a_requested_scan_reports_every_tag_when_the_scan_completes() -> None:
    source = _table()
    source.request_scan()
    assert source.poll(0) == []  # the scan has only started
    messages = source.poll(1_000_000)
    done = [m for m in messages if isinstance(m, ScanDone)]
    assert len(done) == 1 and done[0].t_us == source.sensors.scan_duration_us
    seen = {m.uid for m in messages if isinstance(m, TagSeen)}
    assert seen == {tag_uid("hero-xoric"), tag_uid("orc-1")}
    for message in messages:
        message.encode_body()  # every value fits its wire field


def test_a_flick_is_heard_after_it_happens_and_not_before() -> None:
    source = _table()
    source.poll(2_000_000)
    shot = source.flick("hero-xoric", 0.0, 1500.0)
    assert shot.direct_hits == {"orc-1"}
    hit_at_us = 2_000_000 + round(shot.contacts[0].t_s * 1e6)
    early = [m for m in source.poll(hit_at_us - 1000) if isinstance(m, Impact)]
    later = [m for m in source.poll(source.rest_at_us + 1_000_000) if isinstance(m, Impact)]
    assert len(early) <= 2  # at most a false trigger or two before the contact
    assert [m.t_us for m in later] == sorted(m.t_us for m in later)
    heard = {m.sensor_id for m in later if hit_at_us - 100 <= m.t_us <= hit_at_us + 2000}
    assert len(heard) >= 3, "the hit must be heard by several piezos within the sound's travel time"
    for message in later:
        message.encode_body()


def test_a_scan_after_the_shot_sees_the_pieces_where_they_stopped() -> None:
    source = _table()
    source.flick("hero-xoric", 0.0, 1500.0)
    source.poll(source.rest_at_us)
    source.request_scan()
    source.poll(source.rest_at_us + 1)
    messages = source.poll(source.rest_at_us + 2_000_000)
    orc_cells = [m for m in messages if isinstance(m, TagSeen) and m.uid == tag_uid("orc-1")]
    x, _ = source.world.position("orc-1")
    pitch, origin = source.sensors.config.nfc.pitch_mm, source.sensors.origin[0]
    assert x > 420.0
    assert any(abs(origin + m.col * pitch - x) <= pitch for m in orc_cells)
