"""Ground-truth tables the attribution model is not told about: open sides, wall gaps, boxes, odd piezos."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import random
from pathlib import Path

import pytest

from service.mat.geometry import load_mat, load_sensor_config
from service.mat.trace import FixedObstacle, WallSegment, box_corners, read_traces, trace_from_json
from service.simulator import hidden_mats
from service.simulator.hidden_mats import classic_wall_faces, draw_hidden_table, hidden_table
from service.simulator.sensors import PiezoTruth, SensorModel
from service.simulator.shot_lab import ShotLab, tidy_after_shot
from service.simulator.world import Contact

MAT = load_mat()
REFERENCE = load_sensor_config("reference")
FACES = classic_wall_faces(MAT)  # bottom, right, top, left
BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "attribution_hidden.py"


def bottom_wall_with_gap(x_from: float, x_to: float) -> tuple[WallSegment, ...]:
    bottom = FACES[0]
    return (
        WallSegment(bottom.x1_mm, bottom.y1_mm, x_from, bottom.y1_mm),
        WallSegment(x_to, bottom.y1_mm, bottom.x2_mm, bottom.y2_mm),
        *FACES[1:],
    )


def test_a_disc_flicked_at_an_open_side_falls_off_the_table_and_is_not_read_again() -> None:
    lab = ShotLab(seed=3, walls=FACES[1:])  # the bottom side is open
    lab.place("hero-1", "hero", 400.0, 100.0, side="heroes")
    shot = lab.shoot("hero-1", -math.pi / 2, 1500.0)
    assert shot.truth.left_mat["hero-1"] == pytest.approx((400.0, 0.0), abs=1.0)
    assert "hero-1" not in shot.trace.post.by_piece()
    # It stopped where it fell, just past the table's edge, and is out of play until put back.
    x, y = lab.world.position("hero-1")
    assert x == pytest.approx(400.0, abs=1.0) and -60.0 < y < -40.0
    assert lab.world.off_table("hero-1") and "hero-1" not in lab.world.positions()
    tidy_after_shot(lab, shot)
    assert lab.world.on_mat("hero-1") and "hero-1" in lab.world.positions()
    assert lab.shoot("hero-1", math.pi / 2, 800.0).truth.duration_s > 0  # back in play


@pytest.mark.parametrize("engine", ["pymunk", "impulse"])
def test_a_disc_left_in_the_gutter_before_a_wall_is_put_back_on_the_edge(engine: str) -> None:
    # 3E reference: a piece that leaves the playmat goes back on its edge. One resting with its centre past
    # the edge, between mat and wall, has left it too, and the tag grid cannot read it there.
    lab = ShotLab(seed=3, engine=engine)
    lab.place("hero-1", "hero", 400.0, -20.0, side="heroes")
    lab.place("hero-2", "hero", 400.0, 300.0, side="heroes")
    shot = lab.shoot("hero-2", 0.0, 600.0)
    assert "hero-1" not in shot.trace.post.by_piece()  # unreadable in the gutter
    assert not lab.world.off_table("hero-1") and not lab.world.on_mat("hero-1")
    tidy_after_shot(lab, shot)
    assert lab.world.position("hero-1") == pytest.approx((400.0, 19.0), abs=0.5)  # on the edge, radius in
    assert "hero-1" in lab.shoot("hero-2", math.pi, 600.0).trace.pre.by_piece()


def test_the_same_flick_at_a_closed_wall_stays_on_the_table() -> None:
    lab = ShotLab(seed=3)
    lab.place("hero-1", "hero", 400.0, 100.0, side="heroes")
    shot = lab.shoot("hero-1", -math.pi / 2, 1500.0)
    assert [c.kind for c in shot.truth.contacts] == ["wall"]
    assert not lab.world.off_table("hero-1")
    assert lab.world.position("hero-1")[1] > -40.0


def test_a_flick_through_a_wall_gap_passes_and_one_beside_it_bounces() -> None:
    walls = bottom_wall_with_gap(325.0, 475.0)
    through = ShotLab(seed=3, walls=walls)
    through.place("hero-1", "hero", 400.0, 100.0, side="heroes")
    shot = through.shoot("hero-1", -math.pi / 2, 1500.0)
    assert shot.truth.contacts == [] and through.world.off_table("hero-1")
    beside = ShotLab(seed=3, walls=walls)
    beside.place("hero-1", "hero", 200.0, 100.0, side="heroes")
    shot = beside.shoot("hero-1", -math.pi / 2, 1500.0)
    assert [c.kind for c in shot.truth.contacts] == ["wall"] and not beside.world.off_table("hero-1")


def test_a_disc_bounces_off_a_turned_box_and_the_piezos_hear_an_obstacle_contact() -> None:
    box = FixedObstacle("polygon", 430.0, 300.0, 0.0, box_corners(430.0, 300.0, 120.0, 30.0, 60.0))
    lab = ShotLab(seed=3, fixed_obstacles=(box,))
    lab.place("hero-1", "hero", 250.0, 300.0, side="heroes")
    shot = lab.shoot("hero-1", 0.0, 1500.0)
    (contact,) = shot.truth.contacts
    assert contact.kind == "obstacle" and {contact.a, contact.b} == {"hero-1", "fixed-1"}
    assert shot.truth.direct_hits == set()  # an obstacle takes no damage
    x, y = lab.world.position("hero-1")
    assert x < 400.0 and y > 310.0  # thrown back and up along the box's face, never through it
    # Heard at full coupling like a wall: about 1 / 0.3 as loud as the same contact between two discs.
    heard = lab.sensors.impacts([contact], 0, 0.0)
    as_disc = SensorModel(lab.sensor_config, MAT, seed=0).impacts(
        [Contact(contact.t_s, contact.x_mm, contact.y_mm, "a", "b", "disc", contact.impulse, 1.0)], 0, 0.0
    )
    assert len(heard) >= 3
    assert sum(i.amplitude for i in heard) > 2 * sum(i.amplitude for i in as_disc)
    assert len(shot.trace.impacts) >= 3


def test_the_trace_of_a_table_carries_its_walls_and_fixed_obstacles() -> None:
    box = FixedObstacle("polygon", 430.0, 300.0, 0.0, box_corners(430.0, 300.0, 120.0, 30.0, 60.0))
    walls = bottom_wall_with_gap(325.0, 475.0)
    lab = ShotLab(seed=3, walls=walls, fixed_obstacles=(box,))
    assert lab.geometry().walls == walls and lab.geometry().obstacles == (box,)
    assert ShotLab(seed=3).geometry().walls is None  # the classic walls are the format's default


def test_a_sensor_timing_offset_shifts_that_sensors_impacts_only() -> None:
    contact = Contact(0.01, 430.0, 305.0, "hero-1", "wall", "wall", 20000.0, 1500.0)
    plain = SensorModel(REFERENCE, MAT, seed=5).impacts([contact], 1_000_000, 0.0)
    late = SensorModel(REFERENCE, MAT, seed=5, truth=PiezoTruth(timing_offsets_us={3: 500.0})).impacts(
        [contact], 1_000_000, 0.0
    )
    before = {i.sensor_id: i.t_us for i in plain}
    after = {i.sensor_id: i.t_us for i in late}
    assert set(before) == set(after) and 3 in before
    assert after[3] - before[3] == 500
    assert all(after[s] == before[s] for s in before if s != 3)


def test_gains_and_the_flick_click_change_what_the_piezos_report() -> None:
    contact = Contact(0.01, 430.0, 305.0, "hero-1", "wall", "wall", 20000.0, 1500.0)
    plain = SensorModel(REFERENCE, MAT, seed=5).impacts([contact], 0, 0.0)
    loud = SensorModel(REFERENCE, MAT, seed=5, truth=PiezoTruth(gains={0: 2.0})).impacts([contact], 0, 0.0)
    assert [i.amplitude for i in loud if i.sensor_id == 0] == pytest.approx(
        [2 * i.amplitude for i in plain if i.sensor_id == 0], abs=1
    )
    quiet_mat = dataclasses.replace(
        REFERENCE, piezo=dataclasses.replace(REFERENCE.piezo, false_triggers_per_s=0)
    )
    silent = ShotLab(seed=4, sensor_config=quiet_mat)
    clicking = ShotLab(seed=4, sensor_config=quiet_mat, piezo_truth=PiezoTruth(flick_click=0.3))
    for lab in (silent, clicking):
        lab.place("hero-1", "hero", 430.0, 305.0, side="heroes")
    quiet_shot = silent.shoot("hero-1", 0.0, 1000.0)
    click_shot = clicking.shoot("hero-1", 0.0, 1000.0)
    assert quiet_shot.truth.contacts == [] and quiet_shot.trace.impacts == ()
    assert silent.sensors.flick_sounds(quiet_shot.truth) == []
    (click,) = clicking.sensors.flick_sounds(click_shot.truth)
    assert (click.x_mm, click.y_mm) == (430.0, 305.0) and click.kind == "flick"
    assert click.impulse == pytest.approx(0.3 * 7.4 * 1000.0, rel=0.01)
    assert len(click_shot.trace.impacts) >= 3  # heard by the piezos, though nothing touched anything
    assert click_shot.truth.contacts == []  # a sound, not part of the shot's truth


def test_draw_hidden_table_is_deterministic_for_a_seed() -> None:
    a = draw_hidden_table(random.Random(5)).describe()
    b = draw_hidden_table(random.Random(5)).describe()
    c = draw_hidden_table(random.Random(6)).describe()
    assert a == b and a != c
    assert hidden_table(1, 2).describe() == hidden_table(1, 2).describe()


def test_hidden_tables_span_their_ranges() -> None:
    tables = [draw_hidden_table(random.Random(seed), mat=MAT, sensors=REFERENCE) for seed in range(200)]

    def spans(values: list[float], bounds: tuple[float, float], fill: float = 0.8) -> bool:
        low, high = bounds
        inside = all(low <= v <= high for v in values)
        return inside and max(values) - min(values) > fill * (high - low)

    assert spans([t.sensors.piezo.wave_speed_mm_per_us for t in tables], hidden_mats.WAVE_SPEED_RANGE)
    assert spans([t.mat.sliding_friction for t in tables], hidden_mats.SLIDING_FRICTION_RANGE)
    assert spans([t.physics.disc_elasticity for t in tables], hidden_mats.DISC_RESTITUTION_RANGE)
    assert spans([t.mat.wall_restitution for t in tables], hidden_mats.WALL_RESTITUTION_RANGE)
    assert spans(
        [t.physics.restitution_falloff_per_m_s for t in tables], hidden_mats.RESTITUTION_FALLOFF_RANGE
    )
    assert spans([t.sensors.piezo.disc_disc_coupling for t in tables], hidden_mats.DISC_DISC_COUPLING_RANGE)
    assert spans([t.sensors.piezo.timing_jitter_us for t in tables], hidden_mats.TIMING_JITTER_RANGE)
    assert spans([t.piezo_truth.amplitude_scale for t in tables], hidden_mats.AMPLITUDE_SCALE_RANGE, 0.6)
    assert spans([t.mat.friction_variation for t in tables], hidden_mats.FRICTION_VARIATION_RANGE)
    offsets = [v for t in tables for v in t.piezo_truth.timing_offsets_us.values()]
    assert len(offsets) == 200 * 8 and 30.0 < (sum(v * v for v in offsets) / len(offsets)) ** 0.5 < 50.0
    assert all(
        t.sensors.nfc == REFERENCE.nfc and t.sensors.piezo.layout == REFERENCE.piezo.layout for t in tables
    )
    clicking = sum(t.piezo_truth.flick_click > 0 for t in tables)
    classic = sum(t.walls is None for t in tables)
    open_side = sum("open" in t.layout for t in tables)
    assert 70 < clicking < 130 and 70 < classic < 130 and 25 < open_side < 75
    assert {len(t.obstacles) for t in tables} == {0, 1, 2}
    for t in tables:
        for box in t.boxes:
            assert 30.0 <= box["length_mm"] <= 200.0 and 15.0 <= box["width_mm"] <= 40.0
        for obstacle in t.obstacles:  # clear of the edge strips
            for x, y in obstacle.points:
                assert 60.0 <= x <= MAT.width_mm - 60.0 and 60.0 <= y <= MAT.height_mm - 60.0
        for segment in t.walls or ():
            assert math.hypot(segment.x2_mm - segment.x1_mm, segment.y2_mm - segment.y1_mm) >= 1.0


def _load_benchmark():  # noqa: ANN202 - a script, loaded by path
    spec = importlib.util.spec_from_file_location("attribution_hidden", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seed_with_walls_and_boxes() -> tuple[int, int]:
    for seed in range(50):
        table = hidden_table(seed, 0)
        if table.walls is not None and table.obstacles:
            return seed, 0
    raise AssertionError("no table with both walls and boxes in 50 seeds")


def test_a_written_hidden_set_carries_the_real_geometry_and_no_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed, k = _seed_with_walls_and_boxes()
    table = hidden_table(seed, k)
    benchmark = _load_benchmark()
    benchmark.write_hidden_set(tmp_path, tables=1, shots=4, seed=seed, pieces=[10])
    lines = (tmp_path / "table-0.trace.jsonl").read_text().splitlines()
    traces = list(read_traces(tmp_path / "table-0.trace.jsonl"))
    assert len(traces) == 4
    for i, (line, trace) in enumerate(zip(lines, traces, strict=True)):
        assert trace.meta == {"table": 0, "shot": i}  # nothing of the truth in the trace file
        assert trace.mat.walls == table.walls
        assert [o.points for o in trace.mat.obstacles] == [o.points for o in table.obstacles]
        assert trace_from_json(json.loads(line)) == trace
    truths = [json.loads(line) for line in (tmp_path / "table-0.truth.jsonl").read_text().splitlines()]
    assert [t["shot"] for t in truths] == [0, 1, 2, 3]
    assert all(set(t["unregistered"]) <= set(t["direct_hits"]) for t in truths)
    constants = json.loads((tmp_path / "constants.json").read_text())
    assert constants["tables"][0]["walls_layout"] == table.layout
    # Perfect answers score 100 %.
    answers = [
        {"auto_apply": True, "candidates": [{"direct_hits": t["direct_hits"], "probability": 1.0}]}
        for t in truths
    ]
    (tmp_path / "table-0.out.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    assert benchmark.score(tmp_path) == 0
    report = {line.split("  ")[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    assert report["overall"][1:4] == ["4", "100.0%", "100.0%"]
    registered = int(report.get("all registered", ["", "", "0"])[2])
    unregistered = int(report.get("a touch unregistered", ["", "", "", "0"])[3])
    assert registered + unregistered == 4  # every shot is in one of the two groups


def test_table_shots_are_deterministic_and_play_on_one_table() -> None:
    first = list(hidden_mats.table_shots(3, 1, 3, 10))
    again = list(hidden_mats.table_shots(3, 1, 3, 10))
    assert [s.trace for s in first] == [s.trace for s in again]
    assert [s.truth.direct_hits for s in first] == [s.truth.direct_hits for s in again]
    assert len({s.trace.mat for s in first}) == 1
    clocks = [s.trace.pre.t_us for s in first]
    assert clocks == sorted(clocks)  # in play order on the same table


def test_contact_times_count_from_each_flick_not_from_the_first() -> None:
    # The world's clock runs on across shots; a later shot's contacts must still be timed from its own flick,
    # or its impacts would reach the piezos seconds after the discs came to rest.
    from service.simulator.shot_lab import ShotLab

    table = ShotLab(seed=3)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    first = table.shoot("hero-xoric", 0.0, 1500)
    table.world.move("hero-xoric", 150, 300)
    table.world.move("orc-1", 400, 300)
    second = table.shoot("hero-xoric", 0.0, 1500)
    assert second.truth.start_t_s > 0.2  # the world clock ran on through the first shot
    t_first = [c.t_s for c in first.truth.contacts if c.kind == "disc"][0]
    t_second = [c.t_s for c in second.truth.contacts if c.kind == "disc"][0]
    assert t_second == pytest.approx(t_first, abs=0.02)
    assert all(0.0 <= c.t_s <= second.truth.duration_s for c in second.truth.contacts)


def test_varied_laws_change_the_laws_and_leave_the_shared_constants_as_they_were() -> None:
    shared = hidden_table(4, 1).describe()
    varied_tables = [hidden_table(4, k, laws="varied") for k in range(12)]
    varied = varied_tables[1].describe()
    laws = ("falloff_law", "falloff_mm", "rise_time_us", "timing_tail_dof", "rssi_noise_scale")
    laws += ("disc_disc_friction", "mass_spread")
    # The same table: walls, boxes, sound speed and piezo lags are drawn as before; only the laws differ.
    assert {k: v for k, v in shared.items() if k not in laws} == {
        k: v for k, v in varied.items() if k not in laws
    }
    assert shared["falloff_law"] == "hyperbolic" and shared["rise_time_us"] == 0.0
    assert varied["mass_spread"] == hidden_mats.MASS_SPREAD and varied["rise_time_us"] > 0.0
    assert {t.piezo_truth.falloff_law for t in varied_tables} == set(hidden_mats.FALLOFF_LAWS)
    with pytest.raises(ValueError, match="laws must be one of"):
        hidden_table(4, 1, laws="other")


def test_on_a_varied_laws_table_each_piece_has_its_own_mass() -> None:
    lab = hidden_table(4, 1, laws="varied").lab(seed=3)
    for k in range(6):
        lab.place(f"monster-{k}", "monster-medium", 200.0 + 80 * k, 300.0, side="monsters")
    masses = {round(p.body.mass, 3) for p in lab.world.pieces.values()}
    catalogue = lab.world.pieces["monster-0"].nominal.mass_g
    assert len(masses) == 6
    assert all(abs(m / catalogue - 1) <= hidden_mats.MASS_SPREAD for m in masses)
    plain = hidden_table(4, 1).lab(seed=3)
    plain.place("monster-0", "monster-medium", 200.0, 300.0, side="monsters")
    assert plain.world.pieces["monster-0"].body.mass == catalogue


def test_a_camera_films_the_same_shots_without_changing_them() -> None:
    # A sensor study compares like with like: the camera's noise comes from its own stream, so a hidden table
    # with the camera plays the same shots and reads the same piezos and tags as without it.
    plain = list(hidden_mats.table_shots(41, 0, 4, 10, sensors="reference"))
    filmed = list(hidden_mats.table_shots(41, 0, 4, 10, sensors="camera"))
    for a, b in zip(plain, filmed, strict=True):
        assert a.trace.camera is None and b.trace.camera is not None
        assert (a.trace.impacts, a.trace.post) == (b.trace.impacts, b.trace.post)
        assert a.truth.direct_hits == b.truth.direct_hits
        flicked = b.trace.camera.track(b.trace.declaration.flicked)
        assert flicked is not None and flicked.points[0][0] == 0
    drawn = hidden_table(41, 0, "camera").camera
    assert drawn is not None and 0.3 <= drawn.sigma_mm <= 1.5


def test_the_score_names_what_holds_the_shots_back(capsys: pytest.CaptureFixture[str]) -> None:
    # Per reason a held shot gave (service.attribution.reliability.reason_key): how many, their share of the
    # shots scored, how often the first reading was right, and how many were held for that reason alone.
    benchmark = _load_benchmark()
    held = [
        (True, frozenset({"runner-up-fit"})),
        (False, frozenset({"runner-up-fit", "unsure"})),
        (True, frozenset({"unsure", "runner-up-fit"})),
        (True, frozenset({"near-miss"})),
    ]
    benchmark.held_strata(held, 10)
    lines = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()[1:]}
    assert lines["runner-up-fit"] == ["3", "30.0%", "66.7%", "1", "(1", "right)"]
    assert lines["unsure"] == ["2", "20.0%", "50.0%", "0", "(0", "right)"]
    assert lines["near-miss"] == ["1", "10.0%", "100.0%", "1", "(1", "right)"]
