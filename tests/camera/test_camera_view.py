"""The camera step of the calibrate page (docs/camera.md, "The camera step"): asked on
``camera/view/ask``, the camera process answers with one annotated JPEG of a rendered frame and its
summary; unasked, it sends nothing,
and however often it is asked it sends at most one picture every few seconds."""

from __future__ import annotations

from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")

from service.camera.capture import open_source  # noqa: E402
from service.camera.discs import read_discs  # noqa: E402
from service.camera.layout import DiscLook, MatLayout  # noqa: E402
from service.camera.pipeline import CameraPipeline, CameraSettings  # noqa: E402
from service.camera.view import disc_names  # noqa: E402
from service.camera.wire import decode_view  # noqa: E402
from service.camera_process.process import VIEW_EVERY_S, CameraProcess, view_message  # noqa: E402
from service.cli import main  # noqa: E402
from service.mat.geometry import load_mat  # noqa: E402
from service.publish.transport import InboundMessage  # noqa: E402

ASK = "smartmat/table-1/camera/view/ask"
VIEW = "smartmat/table-1/camera/view"


class _Transport:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []
        self.subscribed: list[str] = []

    def start(self, on_connect, on_message, will=None):  # type: ignore[no-untyped-def]
        self.on_message = on_message
        on_connect()

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        self.sent.append((topic, payload))

    def subscribe(self, topic_filter: str, qos: int) -> None:
        self.subscribed.append(topic_filter)

    def flush(self, timeout_s: float) -> None:
        pass

    def stop(self) -> None:
        pass

    def views(self) -> list[bytes]:
        return [p for t, p in self.sent if t == VIEW]


def test_disc_names_take_a_disc_sets_name_else_the_discs_files_id() -> None:
    assert disc_names(["hero-1", "orc-1"], {"hero-1": "Gimli"}) == {"hero-1": "Gimli", "orc-1": "orc-1"}
    assert disc_names(["orc-1"]) == {"orc-1": "orc-1"}


@pytest.mark.slow
def test_the_camera_answers_an_ask_with_an_annotated_jpeg_and_its_summary(tmp_path: Path) -> None:
    discs, clip = tmp_path / "discs.yaml", tmp_path / "clip"
    assert main(["camera", "render", "--out", f"dir:{clip}", "--discs-out", str(discs), "--shots", "1"]) == 0
    looks = read_discs(discs)
    # One more disc enrolled that is not on the mat: the summary names it as missing.
    looks["ghost-9"] = DiscLook("ghost-9", 18.0, (200, 0, 200), 40)
    mat = load_mat()
    pipeline = CameraPipeline(MatLayout(mat.width_mm, mat.height_mm), looks, CameraSettings())
    clock = [100.0]
    transport = _Transport()
    process = CameraProcess("table-1", transport, 120.0, 0.5, host_now=lambda: clock[0])
    process.start()
    assert transport.subscribed == [ASK]
    source = open_source(f"dir:{clip}")
    frame = source.read()
    assert frame is not None
    result = pipeline.process(frame)
    process.take(result, 0)
    assert not process.view_wanted() and transport.views() == []  # no ask, no picture

    transport.on_message(InboundMessage(ASK, b"", 1, False))
    assert process.view_wanted()
    process.send_view(view_message(pipeline, frame.image, result))
    [payload] = transport.views()
    summary, jpeg = decode_view(payload)
    picture = cv2.imdecode(__import__("numpy").frombuffer(jpeg, "uint8"), cv2.IMREAD_COLOR)
    assert picture.shape[1] == 640 and picture.shape[1] < frame.image.shape[1]  # downscaled
    assert summary["mapped"] and summary["fiducials_seen"] >= 4
    assert 0 < summary["mapping_error_mm"] < 2.0
    assert set(summary["seen"]) == set(looks) - {"ghost-9"}
    assert summary["missing"] == ["ghost-9"]
    assert summary["names"]["ghost-9"] == "ghost-9"

    # Asked again at once: not before VIEW_EVERY_S has passed, then once.
    transport.on_message(InboundMessage(ASK, b"", 1, False))
    assert not process.view_wanted()
    clock[0] += VIEW_EVERY_S
    assert process.view_wanted()
    assert not process.view_wanted()  # one ask, one picture
    source.close()
