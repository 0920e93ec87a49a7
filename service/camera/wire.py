"""The camera process's messages to its table, on ``smartmat/<table>/camera/frames`` and ``…/camera/status``
(docs/mqtt.md, docs/camera.md).

A frames message is a batch of consecutive frames: ``{"v": 1, "fps", "sigma_mm", "frames": [{"i", "t_us",
"host_us", "mapped", "problem"?, "places": {disc: [x_mm, y_mm]}, "row_delay_us"?: {disc: µs}, "by_marker"?:
[disc, …]}]}``. ``t_us`` is the frame's time on the camera's own clock; ``host_us`` the moment it was captured
on the table computer's monotonic clock (the daemon dates a shot on the same clock). A malformed message is
refused whole, naming the key, and changes nothing. Nothing here imports OpenCV or NumPy.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.camera.frames import FrameResult

VERSION = 1
MAX_FRAMES = 240  # a batch holds at most two seconds at 120 fps
MAX_DISCS = 64


class CameraMessageError(ValueError):
    """A camera message that does not fit the format; says which key."""


@dataclass(frozen=True)
class CapturedFrame:
    host_us: int  # when it was captured, on the table computer's monotonic clock
    result: FrameResult


@dataclass(frozen=True)
class FrameBatch:
    fps: float
    sigma_mm: float
    frames: tuple[CapturedFrame, ...]


def encode_frames(frames: Sequence[CapturedFrame], fps: float, sigma_mm: float) -> bytes:
    body = {
        "v": VERSION,
        "fps": fps,
        "sigma_mm": sigma_mm,
        "frames": [_frame_json(f) for f in frames],
    }
    return json.dumps(body, separators=(",", ":"), allow_nan=False).encode()


def _frame_json(frame: CapturedFrame) -> dict[str, Any]:
    r = frame.result
    out: dict[str, Any] = {
        "i": r.index,
        "t_us": r.t_us,
        "host_us": frame.host_us,
        "mapped": r.mapped,
        "places": {p: [round(x, 2), round(y, 2)] for p, (x, y) in sorted(r.places.items())},
    }
    if r.problem:
        out["problem"] = r.problem
    if any(r.row_delay_us.values()):
        out["row_delay_us"] = {p: round(d, 1) for p, d in sorted(r.row_delay_us.items())}
    if r.by_marker:
        out["by_marker"] = sorted(r.by_marker)
    return out


def decode_frames(payload: bytes) -> FrameBatch:
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError) as error:
        raise CameraMessageError(f"camera frames: not JSON ({error})") from None
    if not isinstance(body, dict):
        raise CameraMessageError("camera frames: the message must be a JSON object")
    if body.get("v") != VERSION:
        raise CameraMessageError(f"camera frames: 'v' must be {VERSION}, got {body.get('v')!r}")
    fps, sigma = _number(body, "fps", 1.0, 1000.0), _number(body, "sigma_mm", 0.0, 50.0)
    frames = body.get("frames")
    if not isinstance(frames, list) or len(frames) > MAX_FRAMES:
        raise CameraMessageError(f"camera frames: 'frames' must be a list of at most {MAX_FRAMES} frames")
    return FrameBatch(fps, sigma, tuple(_frame(f, n) for n, f in enumerate(frames)))


def _frame(raw: Any, n: int) -> CapturedFrame:
    where = f"camera frames: frames[{n}]"
    if not isinstance(raw, dict):
        raise CameraMessageError(f"{where} must be an object")
    index, t_us, host_us = (_whole(raw, key, where) for key in ("i", "t_us", "host_us"))
    mapped = raw.get("mapped")
    if not isinstance(mapped, bool):
        raise CameraMessageError(f"{where}.mapped must be true or false")
    problem = raw.get("problem")
    if problem is not None and not isinstance(problem, str):
        raise CameraMessageError(f"{where}.problem must be text")
    places = _per_disc(raw.get("places", {}), f"{where}.places", pair=True)
    delays = _per_disc(raw.get("row_delay_us", {}), f"{where}.row_delay_us", pair=False)
    by_marker = raw.get("by_marker", [])
    if not isinstance(by_marker, list) or not all(isinstance(p, str) and p in places for p in by_marker):
        raise CameraMessageError(f"{where}.by_marker must list discs of its places")
    result = FrameResult(index, t_us, places, mapped, problem, delays, set(by_marker))
    return CapturedFrame(host_us, result)


def _per_disc(raw: Any, where: str, pair: bool) -> dict[str, Any]:
    if not isinstance(raw, dict) or len(raw) > MAX_DISCS:
        raise CameraMessageError(f"{where} must map at most {MAX_DISCS} disc ids to values")
    out: dict[str, Any] = {}
    for disc, value in raw.items():
        if pair:
            ok = isinstance(value, list) and len(value) == 2 and all(_finite(v) for v in value)
            if not ok:
                raise CameraMessageError(f"{where}.{disc} must be [x_mm, y_mm]")
            out[disc] = (float(value[0]), float(value[1]))
        else:
            if not _finite(value):
                raise CameraMessageError(f"{where}.{disc} must be a number")
            out[disc] = float(value)
    return out


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(raw: dict[str, Any], key: str, where: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CameraMessageError(f"{where}.{key} must be a whole number")
    return value


def _number(raw: dict[str, Any], key: str, low: float, high: float) -> float:
    value = raw.get(key)
    if not isinstance(value, int | float) or not _finite(value) or not low <= value <= high:
        raise CameraMessageError(f"camera frames: '{key}' must be a number from {low:g} to {high:g}")
    return float(value)


def encode_status(status: dict[str, Any]) -> bytes:
    return json.dumps(status, separators=(",", ":"), allow_nan=False).encode()


def decode_status(payload: bytes) -> dict[str, Any]:
    """The camera process's health: ``{"state": "online"|"offline", …}`` (its last will is ``offline``)."""
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError) as error:
        raise CameraMessageError(f"camera status: not JSON ({error})") from None
    if not isinstance(body, dict) or body.get("state") not in ("online", "offline"):
        raise CameraMessageError("camera status: 'state' must be 'online' or 'offline'")
    return body


MAX_VIEW_BYTES = 512 * 1024  # an annotated, downscaled JPEG is some 60 KB


def encode_view(summary: dict[str, Any], jpeg: bytes) -> bytes:
    """The camera's view for the set-up page (service/camera/view.py), on ``…/camera/view``: the summary's
    keys and the JPEG in base64 under ``jpeg``, in one message so the picture and its figures always match."""
    body = {"v": VERSION, **summary, "jpeg": base64.b64encode(jpeg).decode("ascii")}
    return json.dumps(body, separators=(",", ":"), allow_nan=False).encode()


def decode_view(payload: bytes) -> tuple[dict[str, Any], bytes]:
    """The summary and the JPEG; a message that is not one is refused whole."""
    if len(payload) > MAX_VIEW_BYTES * 4 // 3 + 4096:
        raise CameraMessageError("camera view: too large")
    try:
        body = json.loads(payload)
        jpeg = base64.b64decode(body.pop("jpeg"), validate=True)
    except (ValueError, RecursionError, KeyError, TypeError, AttributeError) as error:
        raise CameraMessageError(f"camera view: not a view ({error})") from None
    if body.pop("v", None) != VERSION or not jpeg.startswith(b"\xff\xd8"):
        raise CameraMessageError("camera view: not a version-1 view with a JPEG")
    for key in ("seen", "missing"):
        if not isinstance(body.get(key), list) or not all(isinstance(d, str) for d in body[key]):
            raise CameraMessageError(f"camera view: '{key}' must list disc ids")
    error_mm = body.get("mapping_error_mm")
    if error_mm is not None and not _finite(error_mm):
        raise CameraMessageError("camera view: 'mapping_error_mm' must be a number or null")
    return body, jpeg
