"""A table teaches attribution its own mat: sound speed, piezo timing, loudness — from play, never from truth.

The scenes run on ground-truth mats whose constants differ from the model's; the learner is handed only what
``attribute`` returned for each shot (its signature takes no ground truth).
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path

import pytest

from service.attribution import AttributionConfig, attribute
from service.attribution.acoustics import read_impacts
from service.attribution.calibration import (
    CalibrationFileError,
    load_calibration,
    save_calibration,
    wide_priors,
)
from service.attribution.learning import learn_from_shot
from service.cli import main
from service.mat.geometry import load_sensor_config
from service.mat.trace import (
    Declaration,
    ImpactRecord,
    MatGeometry,
    PieceSpec,
    Scan,
    SeenPiece,
    ShotTrace,
    trace_from_json,
    trace_to_json,
    write_traces,
)
from service.simulator.shot_lab import ShotLab

QUICK = dict(workers=1, broad_rollouts=64, refine_rounds=2, refine_rollouts=32, seed=1)
SENSORS = tuple(
    (i, x, y)
    for i, (x, y) in enumerate(
        [(0, 0), (860, 0), (860, 610), (0, 610), (430, 0), (860, 305), (430, 610), (0, 305)]
    )
)


def heard_trace(
    contacts: list[tuple[float, float, float]], speed: float, offsets: dict[int, float], rng: random.Random
) -> ShotTrace:
    """A trace whose only content is what the piezos heard of contacts at (t_us, x, y)."""
    impacts = []
    for t, x, y in contacts:
        for sid, sx, sy in SENSORS:
            arrival = t + math.hypot(x - sx, y - sy) / speed + offsets.get(sid, 0.0) + rng.gauss(0, 25)
            impacts.append(ImpactRecord(sid, round(arrival), 400.0))
    hero = SeenPiece("hero-1", 100.0, 100.0, 3.0)
    return ShotTrace(
        MatGeometry(860, 610, 60, SENSORS),
        (PieceSpec("hero-1", 19.0, 7.4, "hero", "heroes"),),
        Scan(0, (hero,)),
        Declaration("hero-1", "melee"),
        tuple(sorted(impacts, key=lambda i: i.t_us)),
        Scan(10_000_000, (hero,)),
    )


def test_a_shot_places_its_contacts_on_a_mat_of_unknown_sound_speed() -> None:
    # docs/attribution.md, "Self-calibration": sound speed is read from the shot itself, not a constant.
    rng = random.Random(3)
    trace = heard_trace([(1_000_000, 250, 400), (1_090_000, 700, -45)], 0.42, {}, rng)
    cal = wide_priors()
    picture = read_impacts(
        trace, prior_loglik=cal.speed_loglik, offsets_us=cal.sensor_offsets_us(), jitter_us=cal.jitter_us
    )
    assert picture.speed_mm_per_us == pytest.approx(0.42, rel=0.06)
    placed = [(e.x_mm, e.y_mm) for e in picture.events]
    assert math.hypot(placed[0][0] - 250, placed[0][1] - 400) < 25
    assert math.hypot(placed[1][0] - 700, placed[1][1] + 45) < 25
    assert all(5 < e.sigma_mm < 60 for e in picture.events)


def test_a_piezo_that_reports_late_is_learnt_and_corrected(tmp_path: Path) -> None:
    rng = random.Random(5)
    cal = wide_priors("t1")
    for _ in range(25):
        contacts = [(1_000_000, rng.uniform(50, 810), rng.uniform(50, 560)) for _ in range(2)]
        contacts[1] = (1_080_000, *contacts[1][1:])
        trace = heard_trace(contacts, 0.6, {3: 90.0}, rng)
        cal = learn_from_shot(cal, trace, attribute(trace, AttributionConfig(table=cal, **QUICK)))
    offsets = cal.sensor_offsets_us()
    mean_other = sum(v for k, v in offsets.items() if k != 3) / 7
    # Lags and sound speed are refitted together from every kept event (acoustics_joint.solve_joint):
    # fitting the speed event by event with the lags ignored would bias it low.
    assert offsets[3] - mean_other == pytest.approx(90.0, abs=20.0)
    assert all(abs(v - mean_other) < 20.0 for k, v in offsets.items() if k != 3)
    assert cal.speed_mm_per_us == pytest.approx(0.6, rel=0.03)
    assert cal.speed_log_sd < 0.03
    assert cal.jitter_us == pytest.approx(25.0, abs=8.0)


def slow_mat_lab(seed: int) -> ShotLab:
    reference = load_sensor_config("reference")
    piezo = dataclasses.replace(reference.piezo, wave_speed_mm_per_us=0.4)
    slow = dataclasses.replace(reference, piezo=piezo)
    return ShotLab(seed=seed, sensor_config=slow)


def test_play_on_a_slow_mat_teaches_its_sound_speed_and_settles_the_calibration() -> None:
    # The simulated mat's neoprene carries sound at half the model's built-in speed.
    cal = wide_priors("slow")
    results = []
    for i in range(8):
        table = slow_mat_lab(100 + i)
        table.place("hero-xoric", "hero", 150, 300, side="heroes")
        table.place("orc-1", "monster-medium", 420, 300 + 10 * i, side="overseer", kind="monster")
        shot = table.shoot("hero-xoric", math.atan2(10 * i, 270), 1800)
        result = attribute(shot.trace, AttributionConfig(table=cal, **QUICK))
        results.append(result)
        cal = learn_from_shot(cal, shot.trace, result)
    # With wide priors the first shot waits for the referee, and says why.
    assert not results[0].auto_apply
    assert any("calibration not settled" in why for why in results[0].reasons)
    assert cal.speed_mm_per_us == pytest.approx(0.4, rel=0.05)
    assert cal.shots == 8
    assert all(r.top.direct_hits == {"orc-1"} for r in results)


def test_the_calibration_file_round_trips_and_names_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "CAL.json"
    assert load_calibration(path).source == "wide priors"  # a new table
    cal = dataclasses.replace(wide_priors("t9"), shots=3)
    save_calibration(cal, path)
    again = load_calibration(path)
    assert again.shots == 3 and again.table == "t9" and again.digest == cal.digest
    data = json.loads(path.read_text())
    data["friction"]["sd"] = -1
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError, match=r"CAL\.json: friction\.sd: must be positive"):
        load_calibration(path)
    path.write_text("{not json")
    with pytest.raises(CalibrationFileError, match="not a calibration file"):
        load_calibration(path)


def test_attribute_learns_a_table_in_play_order_and_saves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    traces = []
    for i in range(3):
        table = slow_mat_lab(200 + i)
        table.place("hero-xoric", "hero", 150, 300, side="heroes")
        table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
        traces.append(table.shoot("hero-xoric", 0.0, 1500).trace)
    shots, cal = tmp_path / "shots.jsonl", tmp_path / "CAL.json"
    with shots.open("w") as out:
        write_traces(traces, out)
    args = ["attribute", str(shots), "--json", "--workers", "1", "--table", str(cal), "--learn"]
    assert main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    assert lines[0]["calibration"] == "wide-priors"
    assert lines[1]["calibration"] != lines[0]["calibration"]  # each names the calibration it was read with
    saved = json.loads(cal.read_text())
    assert saved["shots"] == 3
    assert 300 <= saved["summary"]["sound_speed_m_per_s"] <= 500


def test_learn_needs_a_table_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shots = tmp_path / "shots.jsonl"
    shots.write_text("")
    assert main(["attribute", str(shots), "--learn"]) == 2
    assert "--learn needs --table" in capsys.readouterr().err


def test_a_shot_whose_flicked_disc_the_pre_scan_missed_goes_to_the_referee_with_that_reason() -> None:
    table = ShotLab(seed=41)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    shot = table.shoot("hero-xoric", 0.0, 1400)
    data = trace_to_json(shot.trace)
    seen_before = next(p for p in data["pre"]["pieces"] if p["piece"] == "hero-xoric")
    data["pre"]["pieces"] = [p for p in data["pre"]["pieces"] if p["piece"] != "hero-xoric"]
    missed = trace_from_json(data)  # not a format error
    blind = attribute(missed, AttributionConfig(**QUICK))
    assert not blind.auto_apply
    assert "the flicked disc was not seen before the shot" in blind.reasons
    last = SeenPiece("hero-xoric", seen_before["x_mm"], seen_before["y_mm"], 3.0)
    helped = attribute(missed, AttributionConfig(**QUICK), last_seen=last)
    assert not helped.auto_apply
    assert helped.top.direct_hits == {"orc-1"}  # the referee is offered the right reading first


def test_a_live_table_keeps_learning_and_a_full_disk_does_not_stop_the_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from service.attribution.learning import CalibrationKeeper

    path = tmp_path / "t1.calibration.json"
    keeper = CalibrationKeeper(path, "t1")
    assert keeper.calibration.table == "t1" and keeper.calibration.shots == 0
    table = slow_mat_lab(300)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    shot = table.shoot("hero-xoric", 0.0, 1500)
    config = keeper.config(AttributionConfig(**QUICK))
    keeper.learn(shot.trace, attribute(shot.trace, config), config)
    assert json.loads(path.read_text())["shots"] == 1
    assert CalibrationKeeper(path, "t1").calibration.shots == 1  # a restart resumes it
    path.unlink()
    path.mkdir()  # the file cannot be written any more
    keeper.learn(shot.trace, attribute(shot.trace, config), config)
    assert keeper.calibration.shots == 2  # still learning in memory
    assert "could not update the table calibration" in caplog.text


def test_a_fast_mat_with_lagging_piezos_is_untangled_by_fitting_everything_together() -> None:
    # On a fast mat the arrival spread is small against the piezos' lags: a slower speed plus other lags
    # explains the same arrivals almost as well. Solved together (acoustics_joint.solve_joint) the speed comes
    # out within its stated uncertainty; events placed by a sure reading (anchors) pin it down.
    from service.attribution.acoustics import KeptEvent
    from service.attribution.acoustics_joint import solve_joint

    rng = random.Random(2)
    lags = {s: rng.gauss(0, 40) for s in range(8)}
    mean = sum(lags.values()) / 8
    lags = {s: lag - mean for s, lag in lags.items()}
    places = [(rng.uniform(0, 860), rng.uniform(0, 610)) for _ in range(27)]

    def events(anchored: bool) -> list[KeptEvent]:
        out = []
        for x, y in places:
            arrivals = [
                (sid, math.hypot(x - sx, y - sy) / 0.99 + lags[sid] + rng.gauss(0, 25))
                for sid, sx, sy in SENSORS
            ]
            first = min(t for _, t in arrivals)
            anchor = (x + rng.gauss(0, 10), y + rng.gauss(0, 10), 15.0) if anchored else None
            out.append(KeptEvent(tuple((s, t - first) for s, t in arrivals), anchor))
        return out

    free = solve_joint(events(False), SENSORS, 860, 610, 60, 0.7, {}, 40)
    anchored = solve_joint(events(True), SENSORS, 860, 610, 60, 0.7, {}, 40)
    assert free is not None and anchored is not None
    assert abs(math.log(free.speed_mm_per_us / 0.99)) < 2.5 * free.speed_log_sd
    assert anchored.speed_mm_per_us == pytest.approx(0.99, rel=0.02)
    assert all(abs(dict(anchored.offsets_us)[s] - lags[s]) < 15 for s in lags)
    assert anchored.jitter_us == pytest.approx(25, abs=6)


def test_a_quiet_mat_learns_its_sound_speed_from_contacts_four_piezos_heard_where_a_reading_placed_them() -> (
    None
):
    # On a mat that carries sound poorly few contacts reach five piezos, and four arrivals alone cannot give
    # (x, y, emission time) and the speed. Where a sure reading says where the contact was (an anchor), four
    # arrivals leave two degrees of freedom, and such events teach the speed (acoustics.MIN_SENSORS_ANCHORED).
    from service.attribution.acoustics import KeptEvent
    from service.attribution.acoustics_joint import solve_joint

    rng = random.Random(5)
    positions = {sid: (sx, sy) for sid, sx, sy in SENSORS}

    def quiet_events(anchored: bool) -> list[KeptEvent]:
        out = []
        for _ in range(30):
            x, y = rng.uniform(0, 860), rng.uniform(0, 610)
            nearest = sorted(positions, key=lambda s: math.dist((x, y), positions[s]))[:4]
            arrivals = [(s, math.dist((x, y), positions[s]) / 0.45 + rng.gauss(0, 25)) for s in nearest]
            first = min(t for _, t in arrivals)
            anchor = (x + rng.gauss(0, 8), y + rng.gauss(0, 8), 15.0) if anchored else None
            out.append(KeptEvent(tuple((s, t - first) for s, t in arrivals), anchor))
        return out

    assert solve_joint(quiet_events(False), SENSORS, 860, 610, 60, 0.7, {}, 40) is None
    anchored = solve_joint(quiet_events(True), SENSORS, 860, 610, 60, 0.7, {}, 40)
    assert anchored is not None and anchored.events_used >= 25
    assert anchored.speed_mm_per_us == pytest.approx(0.45, rel=0.05)
    assert anchored.speed_log_sd < 0.05


def speed_belief(speed: float, log_sd: float) -> tuple[float, ...]:
    from service.attribution.acoustics import SPEED_GRID

    return tuple(-0.5 * (math.log(v / speed) / log_sd) ** 2 for v in SPEED_GRID)


def test_a_calibration_settles_once_its_speed_is_known_to_ten_percent_after_five_shots() -> None:
    # docs/calibration.md, "Until it has settled": each located event already carries the speed's
    # uncertainty, so the gate only keeps a new mat's first, wildly unsure shots for the referee.
    played = dataclasses.replace(wide_priors("t"), shots=12, source="learnt from play")
    assert dataclasses.replace(played, speed_loglik=speed_belief(0.6, 0.08)).settled
    unsure = dataclasses.replace(played, speed_loglik=speed_belief(0.6, 0.16))
    assert not unsure.settled
    assert unsure.unsettled_reasons() == ["the mat's sound speed is still uncertain (±16%)"]
    early = dataclasses.replace(played, shots=4, speed_loglik=speed_belief(0.6, 0.03))
    assert early.unsettled_reasons() == ["the table has been calibrated from 4 shots so far"]


def test_on_a_mat_with_noisy_timing_a_less_certain_speed_is_settled_enough() -> None:
    # docs/calibration.md, "Until it has settled": 180 µs of timing noise at 0.85 mm/µs blurs a placed impact
    # by some 150 mm, more than a speed off by 14 % moves it over a 400 mm path difference (56 mm), so knowing
    # the speed better would not place impacts better; a speed unsure by 30 % still waits.
    noisy = dataclasses.replace(
        wide_priors("t"), shots=12, source="learnt from play", jitter_ss_us2=180.0**2 * 20, jitter_dof=20
    )
    assert dataclasses.replace(noisy, speed_loglik=speed_belief(0.85, 0.14)).settled
    assert dataclasses.replace(noisy, speed_loglik=speed_belief(0.85, 0.14)).speed_settles_at == 0.25
    very_unsure = dataclasses.replace(noisy, speed_loglik=speed_belief(0.85, 0.30))
    assert not very_unsure.settled
    assert very_unsure.unsettled_reasons() == [
        f"the mat's sound speed is still uncertain (±{very_unsure.speed_log_sd:.0%})"
    ]
    # The same speed's doubt on a mat with the prior's 45 µs of noise is more than the noise: it waits.
    quiet = dataclasses.replace(wide_priors("t"), shots=12, source="learnt from play")
    assert not dataclasses.replace(quiet, speed_loglik=speed_belief(0.85, 0.14)).settled
