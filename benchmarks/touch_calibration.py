"""What the guided touches buy: first-shots applied share on hidden tables, with and without them.

For each table of a written hidden set (benchmarks/attribution_hidden.py --out), the prescribed touches
(service/guided/touches.py) are made on that hidden table's own simulated mat — two hero discs at each marked
place, one flicked softly into the other — and read into a fresh calibration file, which the table then
starts from; the same table is also played from a fresh file without them. Both are played with the
simulated referee (benchmarks/referee_driver.py) and scored by benchmarks/attribution_hidden.py --score.

    nice -n 10 .venv/bin/python benchmarks/touch_calibration.py hidden-set
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from pathlib import Path
from typing import Any

from benchmarks.attribution_hidden import score
from benchmarks.referee_driver import play_table
from service.attribution.calibration import TableCalibration, save_calibration, wide_priors
from service.guided.desk import TOUCH_DISC_MASS_G
from service.guided.touches import Touch, TouchError, TouchReading, fit_touches, read_touch, touch_spots
from service.simulator.hidden_mats import hidden_table


def touch_calibration(
    seed: int, k: int, sensors: str, laws: str
) -> tuple[dict[str, Any], TableCalibration, float]:
    """The touches made on hidden table k, read into a fresh calibration; and its figures."""
    table = hidden_table(seed, k, sensors, laws, "study")
    lab = table.lab(seed=1000 + k)
    start = wide_priors(f"table-{k}")
    readings: list[TouchReading] = []
    problems: list[str] = []
    threshold = table.sensors.piezo.detection_threshold  # as the board states it in HELLO
    width, height = lab.mat.width_mm, lab.mat.height_mm
    for spot in touch_spots(width, height):
        heading = math.atan2(spot.aim_y_mm - spot.y_mm, spot.aim_x_mm - spot.x_mm)
        for piece in list(lab.world.pieces):
            lab.remove(piece)
        lab.place("a", "hero", spot.x_mm, spot.y_mm, side="heroes")
        lab.place(
            "b", "hero", spot.x_mm - 60 * math.cos(heading), spot.y_mm - 60 * math.sin(heading), side="heroes"
        )
        shot = lab.shoot("b", heading, 800.0)
        pre, post = shot.trace.pre.by_piece(), shot.trace.post.by_piece()
        if "a" not in pre or "a" not in post:
            problems.append(f"touch {spot.number}: the struck disc was not seen")
            continue
        touch = Touch(
            spot,
            (pre["a"].x_mm, pre["a"].y_mm),
            (post["a"].x_mm, post["a"].y_mm),
            shot.trace.spec("a").radius_mm,
            TOUCH_DISC_MASS_G,
            tuple((i.sensor_id, i.t_us, float(i.amplitude)) for i in shot.trace.impacts),
        )
        try:
            readings.append(read_touch(touch, shot.trace.mat.sensors, start, threshold))
        except TouchError as exc:
            problems.append(str(exc))
    fit = fit_touches(readings, problems, start, threshold)
    truth = table.describe()["disc_disc_coupling"]
    return fit.figures, fit.calibration, float(truth)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hidden_set", type=Path)
    args = parser.parse_args()
    constants = json.loads((args.hidden_set / "constants.json").read_text())
    with_dir = args.hidden_set.with_name(args.hidden_set.name + "-touched")
    shutil.copytree(args.hidden_set, with_dir, dirs_exist_ok=True)
    for entry in constants["tables"]:
        k = entry["table"]
        figures, calibration, truth = touch_calibration(
            constants["seed"], k, constants["sensors"], constants["laws"]
        )
        touched = with_dir / f"table-{k}.touches.json"
        save_calibration(calibration, touched)
        print(f"table {k}: touches {figures}, hidden coupling {truth} (model's 0.30)", flush=True)
        play_table(args.hidden_set, k, 0.04, with_referee=True)
        play_table(with_dir, k, 0.04, with_referee=True, start=touched)
    print("=== without the touches")
    score(args.hidden_set)
    print("=== with the touches")
    score(with_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
