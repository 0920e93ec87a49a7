"""A table without a camera installs and runs as before: nothing on the default import path loads OpenCV or
NumPy, and a bad camera source is refused with words."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_the_command_line_and_the_daemon_load_neither_opencv_nor_numpy() -> None:
    code = (
        "import sys, service.cli, service.daemon; service.cli.build_parser(); import service.camera; "
        "print(sorted(m for m in ('cv2', 'numpy') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "[]"


def test_an_unknown_source_or_a_broken_recording_is_refused_with_words(tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    from service.camera.capture import RAW_HEADER, CaptureError, DirectorySource, PipeSource, open_source

    with pytest.raises(CaptureError, match="unknown camera source 'usb0'"):
        open_source("usb0")
    with pytest.raises(CaptureError, match="no timestamps.txt"):
        DirectorySource(tmp_path)
    (tmp_path / "timestamps.txt").write_text("100\nsoon\n", encoding="utf-8")
    with pytest.raises(CaptureError, match="timestamps.txt:2: expected an integer"):
        DirectorySource(tmp_path)
    import io

    with pytest.raises(CaptureError, match="not a raw frame"):
        PipeSource(io.BytesIO(b"JUNK" + bytes(RAW_HEADER.size))).read()
    truncated = RAW_HEADER.pack(b"SMF1", 5, 4, 4, 3) + bytes(10)
    with pytest.raises(CaptureError, match="ended inside the pixels"):
        PipeSource(io.BytesIO(truncated)).read()
