"""``smartmat camera run`` end to end (docs/camera.md, "The camera at the table"): rendered frames of a
simulated shot read by the camera process, streamed under the camera's own account through the shipped
Mosquitto settings, and heard by the daemon's account as the daemon decodes them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from service.camera.discs import read_discs  # noqa: E402
from service.camera.wire import decode_health, decode_tracks  # noqa: E402
from tests.helpers.broker import MosquittoBroker, free_port  # noqa: E402
from tests.helpers.mqtt_probe import MqttProbe  # noqa: E402
from tests.publish.test_broker_security import PASSWORDS, production_config  # noqa: E402

pytestmark = [pytest.mark.broker, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[2]
T = "smartmat/table-1"


@pytest.fixture
def secured_broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    port = free_port()
    broker = MosquittoBroker("127.0.0.1", port, production_config(tmp_path, port), tmp_path / "mosquitto.log")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def smartmat(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args], capture_output=True, text=True, env=env, timeout=300
    )


def test_the_camera_process_streams_a_rendered_shot_to_the_daemons_account(
    tmp_path: Path, secured_broker: MosquittoBroker
) -> None:
    frames, discs = tmp_path / "frames", tmp_path / "discs.yaml"
    rendered = smartmat(
        "camera", "render", "--out", f"dir:{frames}", "--discs-out", str(discs), "--shots", "1",
    )  # fmt: skip
    assert rendered.returncode == 0, rendered.stderr
    read = len(list(frames.glob("*.png")))
    with MqttProbe(
        secured_broker.host, secured_broker.port, "daemon", PASSWORDS["daemon"], client_id="test-daemon"
    ) as daemon:
        daemon.subscribe(f"{T}/camera/#")
        url = secured_broker.url("camera", PASSWORDS["camera"])
        ran = smartmat(
            "camera", "run", "--table-id", "table-1", "--source", f"dir:{frames}", "--discs", str(discs),
            "--broker", url,
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr
        daemon.wait_for(lambda seen: any(decode_health(s.payload).state == "offline" for s in seen
                                         if s.topic.endswith("/health")))  # fmt: skip
        batches = [decode_tracks(s.payload) for s in daemon.on(f"{T}/camera/tracks")]
        beats = [decode_health(s.payload) for s in daemon.on(f"{T}/camera/health")]
    received = [f for b in batches for f in b.frames]
    assert read > 20 and [f.index for f in received] == sorted(f.index for f in received)
    assert len(received) == read, "every frame read reached the daemon"
    mapped = [f for f in received if f.mapped]
    assert len(mapped) >= 0.9 * len(received)
    assert set().union(*(f.places for f in mapped)) == set(read_discs(discs)), "every disc was followed"
    assert beats[0].state == "online" and beats[-1].state == "offline", "a heartbeat, then its goodbye"
