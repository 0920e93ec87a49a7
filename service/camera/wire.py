"""The camera process's messages to the table's daemon (docs/mqtt.md, "The overhead camera").

Two messages, both JSON:

* **tracks** (``smartmat/<table>/camera/tracks``, QoS 0, not retained): the frames read since the last
  message, about ten a second, each frame as ``{"i": index, "t": camera µs, "p": {disc: [x mm, y mm]}}``
  with ``"m": 0`` when the mat could not be mapped in it, ``"x"`` for what went wrong, ``"r"`` for a rolling
  shutter's row delays and ``"k"`` for the discs known by their marker. With them ``cam_to_host_us``: the
  camera's clock against the camera host's wall clock (host = camera + offset), so a receiver places the
  frames on its own clock without trusting when the message arrived.
* **health** (``smartmat/<table>/camera/health``, QoS 1, retained, every second and as its last will): how
  the camera is doing, in figures, and :func:`describe_health` says it in words.

Nothing here needs OpenCV: the daemon decodes what the camera process encodes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from service.camera.frames import FrameResult

VERSION = 1
STALE_S = 5.0  # a camera whose last heartbeat is older than this is taken for stopped


class CameraWireError(ValueError):
    """A camera message that does not fit docs/mqtt.md: says which key is wrong."""


@dataclass(frozen=True)
class TrackBatch:
    seq: int
    sent_us: int  # the camera host's wall clock when sent
    cam_to_host_us: float  # host wall clock = camera clock + this
    frames: tuple[FrameResult, ...]


@dataclass(frozen=True)
class CameraHealth:
    state: str  # "online" or "offline"
    sent_us: int = 0
    fps: float = 0.0  # frames read per second over the last heartbeat
    frames: int = 0  # since the process started
    lost: int = 0  # frames the source skipped (gaps in the frame index)
    unmapped: int = 0  # frames in which the mat could not be mapped
    mapping_error_mm: float | None = None
    bumps: int = 0
    discs: tuple[str, ...] = ()  # the discs file's discs
    unseen: tuple[str, ...] = ()  # ... not seen in the last heartbeat's frames
    problem: str | None = None  # the latest thing that went wrong, in words
    cam_to_host_us: float | None = None
    clock_jitter_us: float | None = None  # how far single frames' arrivals scatter round it (1 σ)


def encode_frame(result: FrameResult) -> dict[str, Any]:
    frame: dict[str, Any] = {
        "i": result.index,
        "t": result.t_us,
        "p": {p: [round(x, 2), round(y, 2)] for p, (x, y) in sorted(result.places.items())},
    }
    if not result.mapped:
        frame["m"] = 0
    if result.problem:
        frame["x"] = result.problem
    delays = {p: round(d, 1) for p, d in sorted(result.row_delay_us.items()) if d}
    if delays:
        frame["r"] = delays
    if result.by_marker:
        frame["k"] = sorted(result.by_marker)
    return frame


def encode_tracks(batch: TrackBatch) -> bytes:
    body = {
        "v": VERSION,
        "seq": batch.seq,
        "sent_us": batch.sent_us,
        "cam_to_host_us": round(batch.cam_to_host_us),
        "frames": [encode_frame(f) for f in batch.frames],
    }
    return json.dumps(body, separators=(",", ":")).encode()


def decode_tracks(payload: bytes) -> TrackBatch:
    body = _object(payload, "tracks")
    raw_frames = body.get("frames")
    if not isinstance(raw_frames, list):
        raise CameraWireError("camera tracks: 'frames' must be a list")
    frames = tuple(_decode_frame(f, n) for n, f in enumerate(raw_frames))
    return TrackBatch(
        _int(body, "seq", "camera tracks"),
        _int(body, "sent_us", "camera tracks"),
        float(_number(body, "cam_to_host_us", "camera tracks")),
        frames,
    )


def _decode_frame(raw: Any, n: int) -> FrameResult:
    where = f"camera tracks: frames[{n}]"
    if not isinstance(raw, dict):
        raise CameraWireError(f"{where} must be an object")
    places_raw = raw.get("p", {})
    if not isinstance(places_raw, dict):
        raise CameraWireError(f"{where}: 'p' must be an object of disc: [x, y]")
    places: dict[str, tuple[float, float]] = {}
    for piece, xy in places_raw.items():
        if (
            not isinstance(xy, list)
            or len(xy) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xy)
        ):
            raise CameraWireError(f"{where}: 'p'.{piece} must be [x mm, y mm]")
        places[str(piece)] = (float(xy[0]), float(xy[1]))
    delays_raw = raw.get("r", {})
    if not isinstance(delays_raw, dict) or not all(isinstance(v, (int, float)) for v in delays_raw.values()):
        raise CameraWireError(f"{where}: 'r' must be an object of disc: µs")
    marked = raw.get("k", [])
    if not isinstance(marked, list):
        raise CameraWireError(f"{where}: 'k' must be a list of discs")
    problem = raw.get("x")
    if problem is not None and not isinstance(problem, str):
        raise CameraWireError(f"{where}: 'x' must be a string")
    return FrameResult(
        _int(raw, "i", where),
        _int(raw, "t", where),
        places,
        raw.get("m", 1) != 0,
        problem,
        row_delay_us={str(p): float(d) for p, d in delays_raw.items()},
        by_marker={str(p) for p in marked},
    )


def encode_health(health: CameraHealth) -> bytes:
    body: dict[str, Any] = {"v": VERSION, "state": health.state}
    if health.state == "online":
        body |= {
            "sent_us": health.sent_us,
            "fps": round(health.fps, 1),
            "frames": health.frames,
            "lost": health.lost,
            "unmapped": health.unmapped,
            "mapping_error_mm": None
            if health.mapping_error_mm is None
            else round(health.mapping_error_mm, 2),
            "bumps": health.bumps,
            "discs": list(health.discs),
            "unseen": list(health.unseen),
            "problem": health.problem,
            "cam_to_host_us": None if health.cam_to_host_us is None else round(health.cam_to_host_us),
            "clock_jitter_us": None if health.clock_jitter_us is None else round(health.clock_jitter_us),
        }
    return json.dumps(body, separators=(",", ":")).encode()


def decode_health(payload: bytes) -> CameraHealth:
    body = _object(payload, "health")
    state = body.get("state")
    if state not in ("online", "offline"):
        raise CameraWireError("camera health: 'state' must be 'online' or 'offline'")
    if state == "offline":
        return CameraHealth("offline")
    where = "camera health"

    def optional(key: str) -> float | None:
        value = body.get(key)
        if value is None:
            return None
        return float(_number(body, key, where))

    def names(key: str) -> tuple[str, ...]:
        value = body.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise CameraWireError(f"{where}: '{key}' must be a list of disc names")
        return tuple(value)

    problem = body.get("problem")
    if problem is not None and not isinstance(problem, str):
        raise CameraWireError(f"{where}: 'problem' must be a string or null")
    return CameraHealth(
        "online",
        sent_us=_int(body, "sent_us", where),
        fps=float(_number(body, "fps", where)),
        frames=_int(body, "frames", where),
        lost=_int(body, "lost", where),
        unmapped=_int(body, "unmapped", where),
        mapping_error_mm=optional("mapping_error_mm"),
        bumps=_int(body, "bumps", where),
        discs=names("discs"),
        unseen=names("unseen"),
        problem=problem,
        cam_to_host_us=optional("cam_to_host_us"),
        clock_jitter_us=optional("clock_jitter_us"),
    )


def describe_health(health: CameraHealth | None, now_us: int) -> str:
    """The camera's state in words, as the health check and the referee's console say it."""
    if health is None:
        return "camera: never heard from (is smartmat-camera running?); shots are read without it"
    if health.state == "offline":
        return "camera: stopped; shots are read without it"
    age_s = (now_us - health.sent_us) / 1e6
    if age_s > STALE_S:
        return f"camera: silent for {age_s:.0f} s; shots are read without it"
    if health.frames == 0 or health.fps <= 0:
        return "camera: running but reading no frames" + (f" ({health.problem})" if health.problem else "")
    if health.mapping_error_mm is None:
        why = f" ({health.problem})" if health.problem else ""
        return f"camera: {health.fps:.0f} frames/s but the mat is not mapped{why}; shots are read without it"
    words = f"camera: {health.fps:.0f} frames/s, the mat mapped to {health.mapping_error_mm:.1f} mm"
    if health.unseen:
        words += f", not seeing {', '.join(health.unseen)}"
    else:
        words += ", every disc seen"
    if health.bumps:
        words += f", bumped {health.bumps} time(s)"
    return words


def _object(payload: bytes, what: str) -> dict[str, Any]:
    try:
        body = json.loads(payload)
    except ValueError as error:
        raise CameraWireError(f"camera {what}: not JSON ({error})") from error
    if not isinstance(body, dict):
        raise CameraWireError(f"camera {what}: must be a JSON object")
    if body.get("v") != VERSION:
        raise CameraWireError(f"camera {what}: 'v' must be {VERSION}, got {body.get('v')!r}")
    return body


def _number(body: dict[str, Any], key: str, where: str) -> float | int:
    value = body.get(key)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise CameraWireError(f"{where}: '{key}' must be a number, got {value!r}")
    return value


def _int(body: dict[str, Any], key: str, where: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CameraWireError(f"{where}: '{key}' must be an integer, got {value!r}")
    return value
