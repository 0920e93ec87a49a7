"""Shot traces survive a round trip through JSON Lines, and broken ones are refused with a precise reason."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest

from service.attribution.evidence import EvidenceParams, SoundModel, heard_probability
from service.attribution.model import ModelContact
from service.mat.trace import ShotTrace, TraceFormatError, read_traces, trace_to_json, write_traces
from service.simulator.shot_lab import ShotLab


@pytest.fixture(scope="module")
def trace() -> ShotTrace:
    table = ShotLab(seed=31)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    table.place("ice-1", "ice", 400, 300, side="heroes", covering="orc-1")
    return table.shoot("hero-xoric", 0.0, 2400).trace


def _line(data: dict) -> io.StringIO:
    return io.StringIO(json.dumps(data) + "\n")


def test_a_trace_round_trips_through_json_lines(trace: ShotTrace) -> None:
    out = io.StringIO()
    write_traces([trace, trace], out)
    back = list(read_traces(io.StringIO(out.getvalue())))
    assert back == [trace, trace]
    assert back[0].impacts, "the hit was heard"
    assert back[0].declaration.flicked == "hero-xoric"


def test_an_unknown_version_is_refused(trace: ShotTrace) -> None:
    data = trace_to_json(trace) | {"v": 99}
    with pytest.raises(TraceFormatError, match=r":1: v: unsupported trace format version 99"):
        list(read_traces(_line(data)))


def test_a_missing_post_scan_is_named(trace: ShotTrace) -> None:
    data = trace_to_json(trace)
    del data["post"]
    with pytest.raises(TraceFormatError, match=r"post: missing"):
        list(read_traces(_line(data)))


def test_a_scan_of_an_unknown_piece_is_named(trace: ShotTrace) -> None:
    data = trace_to_json(trace)
    data["post"]["pieces"][0]["piece"] = "dragon-9"
    with pytest.raises(TraceFormatError, match=r"post.pieces\[0\].piece: unknown piece 'dragon-9'"):
        list(read_traces(_line(data)))


def test_a_non_numeric_position_is_named(trace: ShotTrace) -> None:
    data = trace_to_json(trace)
    data["pre"]["pieces"][1]["x_mm"] = "left"
    with pytest.raises(TraceFormatError, match=r"pre.pieces\[1\].x_mm: expected a finite number"):
        list(read_traces(_line(data)))


def test_a_declared_piece_missing_from_the_trace_is_refused(trace: ShotTrace) -> None:
    data = trace_to_json(trace)
    data["declaration"]["flicked"] = "hero-ghost"
    with pytest.raises(TraceFormatError, match=r"declaration.flicked: 'hero-ghost' is not one of"):
        list(read_traces(_line(data)))


def test_a_corrupt_line_names_its_line_number(trace: ShotTrace) -> None:
    good = json.dumps(trace_to_json(trace))
    source = io.StringIO(good + "\n\n" + good[:-20] + "\n")
    reader = read_traces(source)
    assert next(reader) == trace
    with pytest.raises(TraceFormatError, match=r":3: not valid JSON"):
        next(reader)


def test_the_boards_piezo_threshold_travels_with_the_trace_and_a_bad_one_is_named(trace: ShotTrace) -> None:
    # The board states its threshold in HELLO (firmware_bridge/PROTOCOL.md); the trace carries it.
    assert trace.mat.piezo_threshold == 40
    data = trace_to_json(trace)
    assert data["mat"]["piezo_threshold"] == 40
    del data["mat"]["piezo_threshold"]
    assert next(read_traces(_line(data))).mat.piezo_threshold is None  # an older trace: the reference's
    data["mat"]["piezo_threshold"] = 0
    with pytest.raises(TraceFormatError, match=r"mat.piezo_threshold"):
        list(read_traces(_line(data)))


def test_silence_counts_for_less_on_a_board_that_reports_only_louder_impacts(trace: ShotTrace) -> None:
    # A gentle disc-on-disc touch in the middle of the mat. A board that reports only from 120 counts would
    # often miss it, so its silence says less. A 5-count board is not taken at its word: its silence counts
    # as the reference board's (docs/attribution.md, "What the sensors, not the code, cost").
    touch = ModelContact(0.1, 430.0, 305.0, "hero-xoric", "orc-1", "disc", impulse=1500.0)
    ep, sound = EvidenceParams(), SoundModel()

    def heard(threshold: float | None) -> float:
        board = dataclasses.replace(trace, mat=dataclasses.replace(trace.mat, piezo_threshold=threshold))
        return heard_probability(touch, board, ep, sound)

    assert heard(None) == heard(40.0) == heard(5.0)
    assert heard(120.0) < heard(40.0) - 0.2


@pytest.fixture(scope="module")
def filmed() -> ShotTrace:
    table = ShotLab(seed=31, sensor_config="camera")
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    return table.shoot("hero-xoric", 0.0, 2400).trace


def test_a_camera_report_round_trips_with_the_trace(filmed: ShotTrace) -> None:
    assert filmed.camera is not None
    assert {t.piece for t in filmed.camera.tracks} == {"hero-xoric", "orc-1"}
    back = list(read_traces(_line(trace_to_json(filmed))))[0]
    assert back.camera is not None
    assert back.camera.fps == 120.0 and back.camera.frames == filmed.camera.frames
    hero = back.camera.track("hero-xoric")
    assert hero is not None and hero.points[0][0] == 0
    assert hero.points[-1][1] == pytest.approx(filmed.camera.track("hero-xoric").points[-1][1], abs=0.01)


def test_a_camera_frame_out_of_order_is_named(filmed: ShotTrace) -> None:
    data = trace_to_json(filmed)
    points = data["camera"]["tracks"]["orc-1"]
    points[1][0] = points[0][0]
    with pytest.raises(TraceFormatError, match=r"camera.tracks.orc-1\[1\]: frame 0 out of order"):
        list(read_traces(_line(data)))


def test_a_camera_track_of_an_unknown_piece_is_named(filmed: ShotTrace) -> None:
    data = trace_to_json(filmed)
    data["camera"]["tracks"]["dragon-9"] = [[0, 1.0, 2.0]]
    with pytest.raises(TraceFormatError, match=r"camera.tracks.dragon-9: unknown piece 'dragon-9'"):
        list(read_traces(_line(data)))


def test_a_camera_without_a_frame_rate_is_named(filmed: ShotTrace) -> None:
    data = trace_to_json(filmed)
    data["camera"]["fps"] = "fast"
    with pytest.raises(TraceFormatError, match=r"camera.fps: expected a finite number, got 'fast'"):
        list(read_traces(_line(data)))
