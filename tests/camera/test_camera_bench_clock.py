"""The camera benchmark's clock figures (docs/camera.md, "Measured"): each table's offset error against the
uncertainty it stated, and how often the stated one held."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from service.bench.camera import Tally, clock_summary  # noqa: E402


def test_the_camera_benchmark_says_how_often_the_stated_uncertainty_held() -> None:
    tally = Tally()
    # Three tables: off by 0.5, 1.5 and 3 ms with 1 ms stated; a fourth that never stated one.
    tally.clock_tables = [(500.0, 1000.0), (-1500.0, 1000.0), (3000.0, 1000.0), (200.0, None)]
    tally.clock_errors_us, tally.clock_known_us = [200.0], [1000.0]
    clock = clock_summary(tally)
    assert (clock["tables_stated"], clock["within_1_sigma"], clock["within_2_sigma"]) == (3, 1, 2)
    assert clock["tables_ms"][1] == [-1.5, 1.0] and clock["tables_ms"][3] == [0.2, None]
