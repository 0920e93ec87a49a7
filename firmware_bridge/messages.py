"""The typed messages of wire protocol v1 and the byte layout of each one's body.

Every message is a frozen dataclass with a ``TYPE`` code and ``encode_body()`` / ``decode_body()``.
Bodies are fixed ``struct`` layouts, big-endian, except HELLO whose capabilities travel as a
length-prefixed JSON blob: the description of a mat is variable in size (any number of sensors and
buttons), is sent once per session, and gains fields as hardware revisions appear; JSON lets an old host
read a newer device's capabilities (unknown keys are ignored) at no cost on the hot path, where every
per-event message stays a few bytes of struct. See ``firmware_bridge/PROTOCOL.md``.

Units: millimetres and microseconds of the device clock.
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, TypeGuard

from firmware_bridge.errors import MalformedBody, TruncatedFrame

UID_MIN_BYTES = 4
UID_MAX_BYTES = 10
GRID_MAX_CELLS = 256  # TAG_SEEN's col and row are u8


@dataclass(frozen=True)
class ReaderGrid:
    """The NFC reader grid: cell (col, row) is centred at origin + (col, row) * pitch."""

    cols: int
    rows: int
    pitch_mm: float
    origin_mm: tuple[float, float]

    def cell_centre_mm(self, col: int, row: int) -> tuple[float, float]:
        return (self.origin_mm[0] + col * self.pitch_mm, self.origin_mm[1] + row * self.pitch_mm)


@dataclass(frozen=True)
class SensorPosition:
    """A piezo impact sensor and where it sits on the mat."""

    id: int
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class Capabilities:
    """What a device says about itself in HELLO."""

    firmware_version: str
    boot_id: int
    grid: ReaderGrid
    sensors: tuple[SensorPosition, ...]
    mat_width_mm: float
    mat_height_mm: float
    button_ids: tuple[int, ...]
    # The piezo channels' report threshold (ADC counts): below it an impact is not reported. Optional, so
    # older firmware stays readable; the attribution then assumes the reference board's.
    piezo_threshold: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "firmware": self.firmware_version,
            "boot_id": self.boot_id,
            "grid": {
                "cols": self.grid.cols,
                "rows": self.grid.rows,
                "pitch_mm": self.grid.pitch_mm,
                "origin_mm": list(self.grid.origin_mm),
            },
            "sensors": [[s.id, s.x_mm, s.y_mm] for s in self.sensors],
            "mat_mm": [self.mat_width_mm, self.mat_height_mm],
            "buttons": list(self.button_ids),
            **({"piezo_threshold": self.piezo_threshold} if self.piezo_threshold is not None else {}),
        }

    @classmethod
    def from_json(cls, obj: Any) -> Capabilities:
        """Build from the parsed blob; unknown keys are ignored so newer firmware stays readable."""
        try:
            grid = obj["grid"]
            origin_x, origin_y = grid["origin_mm"]
            width, height = obj["mat_mm"]
            caps = cls(
                firmware_version=_typed(obj["firmware"], str, "firmware"),
                boot_id=_typed(obj["boot_id"], int, "boot_id"),
                grid=ReaderGrid(
                    cols=_typed(grid["cols"], int, "grid.cols"),
                    rows=_typed(grid["rows"], int, "grid.rows"),
                    pitch_mm=_number(grid["pitch_mm"], "grid.pitch_mm"),
                    origin_mm=(_number(origin_x, "grid.origin_mm"), _number(origin_y, "grid.origin_mm")),
                ),
                sensors=tuple(
                    SensorPosition(
                        _typed(sid, int, "sensors.id"), _number(x, "sensors.x"), _number(y, "sensors.y")
                    )
                    for sid, x, y in obj["sensors"]
                ),
                mat_width_mm=_number(width, "mat_mm"),
                mat_height_mm=_number(height, "mat_mm"),
                button_ids=tuple(_typed(b, int, "buttons") for b in obj["buttons"]),
                piezo_threshold=(
                    _number(obj["piezo_threshold"], "piezo_threshold") if "piezo_threshold" in obj else None
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, MalformedBody):
                raise
            raise MalformedBody(f"HELLO capabilities are incomplete or mistyped: {exc!r}") from exc
        if not 0 <= caps.boot_id <= 0xFFFF_FFFF:
            raise MalformedBody(f"HELLO capabilities boot_id {caps.boot_id} does not fit in u32")
        if caps.grid.cols <= 0 or caps.grid.rows <= 0 or caps.grid.pitch_mm <= 0:
            raise MalformedBody(f"HELLO reader grid is empty or has no pitch: {caps.grid}")
        if caps.grid.cols > GRID_MAX_CELLS or caps.grid.rows > GRID_MAX_CELLS:
            # TAG_SEEN names a cell by u8 column and row: a bigger grid could never be read whole.
            raise MalformedBody(
                f"HELLO reader grid of {caps.grid.cols}x{caps.grid.rows} cells; TAG_SEEN can address at "
                f"most {GRID_MAX_CELLS}x{GRID_MAX_CELLS}"
            )
        if caps.piezo_threshold is not None and caps.piezo_threshold <= 0:
            raise MalformedBody(f"HELLO piezo_threshold must be positive, got {caps.piezo_threshold}")
        if caps.mat_width_mm <= 0 or caps.mat_height_mm <= 0:
            raise MalformedBody(
                f"HELLO mat_mm must be positive, got {[caps.mat_width_mm, caps.mat_height_mm]}"
            )
        ids = [("sensors.id", s.id) for s in caps.sensors] + [("buttons", b) for b in caps.button_ids]
        for name, value in ids:
            if not 0 <= value <= 0xFF:  # IMPACT and BUTTON carry them as u8: any other id is never heard of
                raise MalformedBody(f"HELLO capabilities field {name} {value} does not fit in u8")
        return caps


def _typed(value: Any, kind: type, name: str) -> Any:
    # bool is an int in Python; a JSON true where a number belongs is still a broken blob.
    if not isinstance(value, kind) or isinstance(value, bool):
        raise MalformedBody(f"HELLO capabilities field {name} should be {kind.__name__}, got {value!r}")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MalformedBody(f"HELLO capabilities field {name} should be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an integer past any float
        number = math.inf
    if not math.isfinite(number):  # Python's json reads NaN and Infinity; no position is either
        raise MalformedBody(f"HELLO capabilities field {name} should be a finite number, got {value!r}")
    return number


U8 = (0, 0xFF)
I8 = (-0x80, 0x7F)
U16 = (0, 0xFFFF)
U32 = (0, 0xFFFF_FFFF)
U64 = (0, 0xFFFF_FFFF_FFFF_FFFF)


def _fits(value: object, low: int, high: int) -> bool:
    # ``type(...) is int`` also refuses bool, which is an int subclass but no wire integer.
    return type(value) is int and low <= value <= high


def _require(message: object, **ranges: tuple[int, int]) -> None:
    """Refuse at construction what the wire cannot carry, so a bad reading fails where it is made."""
    for name, (low, high) in ranges.items():
        value = getattr(message, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            where = f"{type(message).__name__}.{name}"
            raise ValueError(f"{where} must be an integer in {low}..{high}, got {value!r}")


def _unpack(layout: struct.Struct, body: bytes, name: str) -> tuple[Any, ...]:
    if len(body) < layout.size:
        raise TruncatedFrame(f"{name} body is {len(body)} bytes, needs {layout.size}")
    if len(body) > layout.size:
        raise MalformedBody(f"{name} body is {len(body)} bytes, expected exactly {layout.size}")
    return layout.unpack(body)


def _pack(layout: struct.Struct, name: str, *fields: Any) -> bytes:
    try:
        return layout.pack(*fields)
    except struct.error as exc:
        raise ValueError(f"{name} field out of range for the wire: {fields!r} ({exc})") from exc


# --------------------------------------------------------------------------- device -> host


@dataclass(frozen=True)
class Hello:
    """First message of every session: who the device is. Body: ``len u16 ‖ UTF-8 JSON``."""

    TYPE: ClassVar[int] = 0x01
    capabilities: Capabilities

    def encode_body(self) -> bytes:
        blob = json.dumps(self.capabilities.to_json(), separators=(",", ":")).encode()
        return struct.pack(">H", len(blob)) + blob

    @classmethod
    def decode_body(cls, body: bytes) -> Hello:
        if len(body) < 2:
            raise TruncatedFrame(f"HELLO body is {len(body)} bytes, needs at least 2")
        (length,) = struct.unpack_from(">H", body)
        blob = body[2:]
        if len(blob) < length:
            raise TruncatedFrame(f"HELLO capabilities blob is {len(blob)} bytes, header says {length}")
        if len(blob) > length:
            raise MalformedBody(f"HELLO has {len(blob) - length} bytes after its capabilities blob")
        try:
            parsed = json.loads(blob.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise MalformedBody(f"HELLO capabilities blob is not UTF-8 JSON: {exc}") from exc
        except RecursionError as exc:  # ~1000 nested "[" fit in a frame; json gives up with this
            raise MalformedBody("HELLO capabilities blob is nested too deeply") from exc
        if not isinstance(parsed, dict):
            raise MalformedBody("HELLO capabilities blob is not a JSON object")
        return cls(Capabilities.from_json(parsed))


_HEARTBEAT = struct.Struct(">Q")


@dataclass(frozen=True)
class Heartbeat:
    """Device is alive; sent every heartbeat period. Body: ``t_us u64``."""

    TYPE: ClassVar[int] = 0x02
    t_us: int

    def __post_init__(self) -> None:
        if not (_fits(self.t_us, *U64)):
            _require(self, t_us=U64)  # says which field is wrong

    def encode_body(self) -> bytes:
        return _pack(_HEARTBEAT, "HEARTBEAT", self.t_us)

    @classmethod
    def decode_body(cls, body: bytes) -> Heartbeat:
        return cls(*_unpack(_HEARTBEAT, body, "HEARTBEAT"))


_TAG_SEEN_HEAD = struct.Struct(">IBBbB")  # scan_id, col, row, rssi, uid length; then the uid bytes


@dataclass(frozen=True)
class TagSeen:
    """One tag read in one cell during scan ``scan_id``.

    Body: ``scan_id u32, col u8, row u8, rssi i8 (dBm), uid_len u8, uid[uid_len]`` with uid_len 4..10.
    """

    TYPE: ClassVar[int] = 0x03
    scan_id: int
    col: int
    row: int
    uid: bytes
    rssi: int

    def __post_init__(self) -> None:
        if not (
            _fits(self.scan_id, *U32)
            and _fits(self.col, *U8)
            and _fits(self.row, *U8)
            and _fits(self.rssi, *I8)
        ):
            _require(self, scan_id=U32, col=U8, row=U8, rssi=I8)  # says which field is wrong
        if not isinstance(self.uid, bytes):
            raise ValueError(f"TagSeen.uid must be bytes, got {self.uid!r}")
        if not UID_MIN_BYTES <= len(self.uid) <= UID_MAX_BYTES:
            raise ValueError(f"a tag uid is {UID_MIN_BYTES}..{UID_MAX_BYTES} bytes, got {len(self.uid)}")

    def encode_body(self) -> bytes:
        head = _pack(_TAG_SEEN_HEAD, "TAG_SEEN", self.scan_id, self.col, self.row, self.rssi, len(self.uid))
        return head + self.uid

    @classmethod
    def decode_body(cls, body: bytes) -> TagSeen:
        if len(body) < _TAG_SEEN_HEAD.size:
            raise TruncatedFrame(f"TAG_SEEN body is {len(body)} bytes, needs at least {_TAG_SEEN_HEAD.size}")
        scan_id, col, row, rssi, uid_len = _TAG_SEEN_HEAD.unpack_from(body)
        uid = body[_TAG_SEEN_HEAD.size :]
        if not UID_MIN_BYTES <= uid_len <= UID_MAX_BYTES:
            raise MalformedBody(f"TAG_SEEN uid length {uid_len} is outside {UID_MIN_BYTES}..{UID_MAX_BYTES}")
        if len(uid) < uid_len:
            raise TruncatedFrame(f"TAG_SEEN uid has {len(uid)} bytes, length field says {uid_len}")
        if len(uid) > uid_len:
            raise MalformedBody(f"TAG_SEEN has {len(uid) - uid_len} bytes after its uid")
        return cls(scan_id=scan_id, col=col, row=row, uid=bytes(uid), rssi=rssi)


_SCAN_DONE = struct.Struct(">IQH")


@dataclass(frozen=True)
class ScanDone:
    """Scan ``scan_id`` finished at ``t_us`` having read ``cells_read`` cells. Body: ``u32, u64, u16``."""

    TYPE: ClassVar[int] = 0x04
    scan_id: int
    t_us: int
    cells_read: int

    def __post_init__(self) -> None:
        if not (_fits(self.scan_id, *U32) and _fits(self.t_us, *U64) and _fits(self.cells_read, *U16)):
            _require(self, scan_id=U32, t_us=U64, cells_read=U16)  # says which field is wrong

    def encode_body(self) -> bytes:
        return _pack(_SCAN_DONE, "SCAN_DONE", self.scan_id, self.t_us, self.cells_read)

    @classmethod
    def decode_body(cls, body: bytes) -> ScanDone:
        return cls(*_unpack(_SCAN_DONE, body, "SCAN_DONE"))


_IMPACT = struct.Struct(">BQH")


@dataclass(frozen=True)
class Impact:
    """A piezo sensor fired. Body: ``sensor_id u8, t_us u64, amplitude u16`` (peak ADC counts)."""

    TYPE: ClassVar[int] = 0x05
    sensor_id: int
    t_us: int
    amplitude: int

    def __post_init__(self) -> None:
        if not (_fits(self.sensor_id, *U8) and _fits(self.t_us, *U64) and _fits(self.amplitude, *U16)):
            _require(self, sensor_id=U8, t_us=U64, amplitude=U16)  # says which field is wrong

    def encode_body(self) -> bytes:
        return _pack(_IMPACT, "IMPACT", self.sensor_id, self.t_us, self.amplitude)

    @classmethod
    def decode_body(cls, body: bytes) -> Impact:
        return cls(*_unpack(_IMPACT, body, "IMPACT"))


_BUTTON = struct.Struct(">BBQ")


@dataclass(frozen=True)
class Button:
    """A button on the mat changed state. Body: ``button_id u8, pressed u8 (0|1), t_us u64``."""

    TYPE: ClassVar[int] = 0x06
    button_id: int
    pressed: bool
    t_us: int

    def __post_init__(self) -> None:
        if not (_fits(self.button_id, *U8) and _fits(self.t_us, *U64)):
            _require(self, button_id=U8, t_us=U64)  # says which field is wrong
        if not isinstance(self.pressed, bool):
            raise ValueError(f"Button.pressed must be a bool, got {self.pressed!r}")

    def encode_body(self) -> bytes:
        return _pack(_BUTTON, "BUTTON", self.button_id, int(self.pressed), self.t_us)

    @classmethod
    def decode_body(cls, body: bytes) -> Button:
        button_id, pressed, t_us = _unpack(_BUTTON, body, "BUTTON")
        if pressed not in (0, 1):
            raise MalformedBody(f"BUTTON pressed byte is {pressed}, must be 0 or 1")
        return cls(button_id=button_id, pressed=bool(pressed), t_us=t_us)


# --------------------------------------------------------------------------- both ways

_SEQ = struct.Struct(">H")


@dataclass(frozen=True)
class Ack:
    """Cumulative: every sequenced message up to and including ``seq`` was taken. Body: ``seq u16``."""

    TYPE: ClassVar[int] = 0x10
    seq: int

    def __post_init__(self) -> None:
        if not (_fits(self.seq, *U16)):
            _require(self, seq=U16)  # says which field is wrong

    def encode_body(self) -> bytes:
        return _pack(_SEQ, "ACK", self.seq)

    @classmethod
    def decode_body(cls, body: bytes) -> Ack:
        return cls(*_unpack(_SEQ, body, "ACK"))


@dataclass(frozen=True)
class Resend:
    """Send again every sequenced message from ``from_seq`` on. Body: ``from_seq u16``."""

    TYPE: ClassVar[int] = 0x11
    from_seq: int

    def __post_init__(self) -> None:
        if not (_fits(self.from_seq, *U16)):
            _require(self, from_seq=U16)  # says which field is wrong

    def encode_body(self) -> bytes:
        return _pack(_SEQ, "RESEND", self.from_seq)

    @classmethod
    def decode_body(cls, body: bytes) -> Resend:
        return cls(*_unpack(_SEQ, body, "RESEND"))


# --------------------------------------------------------------------------- host -> device

_BOOT_ID = struct.Struct(">I")


@dataclass(frozen=True)
class HelloAck:
    """The host accepted the HELLO of boot ``boot_id``. Body: ``boot_id u32``."""

    TYPE: ClassVar[int] = 0x20
    boot_id: int

    def __post_init__(self) -> None:
        if not (_fits(self.boot_id, *U32)):
            _require(self, boot_id=U32)  # says which field is wrong

    def encode_body(self) -> bytes:
        return _pack(_BOOT_ID, "HELLO_ACK", self.boot_id)

    @classmethod
    def decode_body(cls, body: bytes) -> HelloAck:
        return cls(*_unpack(_BOOT_ID, body, "HELLO_ACK"))


@dataclass(frozen=True)
class ScanRequest:
    """Ask for a fresh full scan of the reader grid now. Empty body."""

    TYPE: ClassVar[int] = 0x21

    def encode_body(self) -> bytes:
        return b""

    @classmethod
    def decode_body(cls, body: bytes) -> ScanRequest:
        if body:
            raise MalformedBody(f"SCAN_REQUEST has an empty body, got {len(body)} bytes")
        return cls()


SensorEvent: TypeAlias = TagSeen | ScanDone | Impact | Button
DeviceMessage: TypeAlias = Hello | Heartbeat | TagSeen | ScanDone | Impact | Button | Ack | Resend
HostMessage: TypeAlias = HelloAck | ScanRequest | Ack | Resend
Message: TypeAlias = DeviceMessage | HelloAck | ScanRequest

# Messages the device numbers and keeps until acknowledged: the sensor events. HELLO is repeated until
# HELLO_ACK instead (it opens a session, so it cannot wait behind the data it announces); Heartbeat, Ack
# and Resend are link chatter that would be meaningless replayed later.
SEQUENCED_TYPES: tuple[type, ...] = (TagSeen, ScanDone, Impact, Button)


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, Heartbeat, TagSeen, ScanDone, Impact, Button, Ack, Resend, HelloAck, ScanRequest)
}


def is_sequenced(message: Message) -> TypeGuard[SensorEvent]:
    return isinstance(message, SEQUENCED_TYPES)


def type_name(type_code: int) -> str:
    cls = MESSAGE_TYPES.get(type_code)
    return cls.__name__ if cls else f"0x{type_code:02x}"
