"""`smartmat camera render` writes a simulated camera's frames where a real camera's come from, and
`smartmat camera watch` reads them as it reads a camera; the discs file says how each disc looks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from service.camera.discs import DiscsFileError, discs_to_yaml, read_discs  # noqa: E402
from service.camera.layout import DiscLook  # noqa: E402
from service.cli import main  # noqa: E402


@pytest.mark.slow
def test_a_rendered_feed_is_read_back_with_every_disc_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    discs = tmp_path / "discs.yaml"
    out = tmp_path / "clip"
    assert main(["camera", "render", "--out", f"dir:{out}", "--discs-out", str(discs), "--shots", "1"]) == 0
    assert (out / "timestamps.txt").is_file()
    capsys.readouterr()
    assert (
        main(
            ["camera", "watch", "--source", f"dir:{out}", "--discs", str(discs), "--check", "--frames", "12"]
        )
        == 0
    )
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert len(lines) == 12 and all(line["mapped"] for line in lines)
    assert {p for line in lines for p in line["places"]} == set(read_discs(discs))
    assert "every disc seen" in captured.err
    # A disc enrolled but absent from the mat fails the set-up check, by name.
    text = (
        discs.read_text(encoding="utf-8")
        + "  lord-9: {radius_mm: 22.5, colour_bgr: [160, 40, 140], marker: 40}\n"
    )
    discs.write_text(text, encoding="utf-8")
    assert (
        main(
            [
                "camera",
                "watch",
                "--source",
                f"dir:{out}",
                "--discs",
                str(discs),
                "--check",
                "--quiet",
                "--frames",
                "3",
            ]
        )
        == 1
    )
    assert "discs never seen: lord-9" in capsys.readouterr().err


def test_the_discs_file_round_trips_and_its_mistakes_are_named(tmp_path: Path) -> None:
    looks = {
        "hero-1": DiscLook("hero-1", 19.0, (40, 200, 230), 10),
        "bolt-1": DiscLook("bolt-1", 10.0, (220, 140, 40)),
    }
    path = tmp_path / "discs.yaml"
    path.write_text(discs_to_yaml(looks), encoding="utf-8")
    assert read_discs(path) == looks
    entry = "{radius_mm: 19, colour_bgr: [1, 2, 3], marker: 12}"
    cases = {
        "discs: {a: {radius_mm: 19, colour_bgr: [1, 2, 3], marker: 3}}": "discs.a.marker: 3 is one of",
        f"discs: {{a: {entry}, b: {entry}}}": "discs.b.marker: 12 is a's already",
        "discs: {a: {radius_mm: 0.5, colour_bgr: [1, 2, 3]}}": "discs.a.radius_mm: expected a radius",
        "discs: {a: {radius_mm: 19, colour_bgr: [1, 2]}}": "discs.a.colour_bgr: expected",
        "discs: {a: {radius_mm: 19, colour_bgr: [1, 2, 3], colour: red}}": "discs.a: unknown key",
        "discs: []": "discs: expected a mapping",
    }
    for text, message in cases.items():
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DiscsFileError, match=message):
            read_discs(path)


@pytest.mark.slow
@pytest.mark.broker
def test_the_camera_process_publishes_what_it_sees_to_its_table(tmp_path: Path) -> None:
    """`smartmat camera run`, a real process on a real broker, reading rendered frames through a pipe as it
    would read a camera: its batches carry every disc, its status says online, then offline when it ends."""
    import subprocess
    import sys

    from service.camera.wire import decode_frames, decode_status
    from tests.helpers.broker import start_mosquitto
    from tests.helpers.mqtt_probe import MqttProbe

    discs, clip = tmp_path / "discs.yaml", tmp_path / "clip"
    assert main(["camera", "render", "--out", f"dir:{clip}", "--discs-out", str(discs), "--shots", "1"]) == 0
    broker = start_mosquitto(tmp_path / "broker")
    try:
        watcher = MqttProbe(broker.host, broker.port)
        watcher.subscribe("smartmat/table-1/camera/#")
        command = [sys.executable, "-m", "service.cli", "camera", "run", "--table-id", "table-1"]
        command += ["--source", f"dir:{clip}", "--discs", str(discs), "--broker", broker.url()]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        seen = watcher.wait_for(
            lambda seen: any(
                b'"offline"' in s.payload and b'"frames"' in s.payload  # its own last report, not a will
                for s in seen
                if s.topic.endswith("status")
            )
        )
        watcher.close()
    finally:
        broker.stop()
    batches = [decode_frames(s.payload) for s in seen if s.topic == "smartmat/table-1/camera/frames"]
    frames = [f for batch in batches for f in batch.frames]
    assert len(frames) == len((clip / "timestamps.txt").read_text().splitlines())
    assert all(f.result.mapped for f in frames)
    assert {p for f in frames for p in f.result.places} == set(read_discs(discs))
    statuses = [decode_status(s.payload) for s in seen if s.topic.endswith("camera/status") and s.payload]
    assert statuses[0]["state"] == "online" and statuses[-1]["state"] == "offline"
    assert 0 < statuses[-1]["mapping_error_mm"] < 2.0  # the mat mapped, its fiducials fitted within 2 mm
