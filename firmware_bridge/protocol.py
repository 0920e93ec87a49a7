"""Frame codec of wire protocol v1: ``COBS(header ‖ body ‖ CRC16) 0x00``.

Header ``version u8, type u8, seq u16, boot_id u32``, big-endian. The CRC is CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF, no reflection, no final xor) over header and body, sent big-endian.
COBS removes every 0x00 from the frame so 0x00 only ever means "frame ends here": a receiver that
starts mid-stream or sees line noise throws away bytes up to the next 0x00 and is in sync again.

Pure: bytes in, frames (or reported errors) out.
"""

from __future__ import annotations

import binascii
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass

from cobs import cobs  # type: ignore[import-untyped]

from firmware_bridge.errors import (
    BadCrc,
    CobsError,
    FrameError,
    OversizeFrame,
    TruncatedFrame,
    UnknownMessageType,
    UnsupportedVersion,
)
from firmware_bridge.messages import MESSAGE_TYPES, Message, type_name

log = logging.getLogger(__name__)

VERSION = 1
DELIMITER = b"\x00"
HEADER = struct.Struct(">BBHI")
CRC = struct.Struct(">H")
# Largest frame before COBS: header + a HELLO with a generous capabilities blob + CRC. A receiver that
# has buffered more than the COBS-encoded size of this without a delimiter is reading noise.
MAX_FRAME_BYTES = 2048
MAX_ENCODED_BYTES = MAX_FRAME_BYTES + MAX_FRAME_BYTES // 254 + 2


@dataclass(frozen=True)
class Frame:
    """One decoded frame: the header fields and the typed message of its body."""

    seq: int
    boot_id: int
    message: Message
    version: int = VERSION


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE; ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode_frame(message: Message, *, seq: int, boot_id: int) -> bytes:
    """The bytes to put on the wire for ``message``, delimiter included."""
    if not 0 <= seq <= 0xFFFF:
        raise ValueError(f"seq {seq} does not fit in u16")
    if not 0 <= boot_id <= 0xFFFF_FFFF:
        raise ValueError(f"boot_id {boot_id} does not fit in u32")
    raw = HEADER.pack(VERSION, message.TYPE, seq, boot_id) + message.encode_body()
    if len(raw) + CRC.size > MAX_FRAME_BYTES:
        raise ValueError(f"{type(message).__name__} frame of {len(raw) + CRC.size} bytes exceeds the limit")
    return bytes(cobs.encode(raw + CRC.pack(crc16(raw)))) + DELIMITER


def decode_frame(encoded: bytes) -> Frame:
    """Decode the bytes between two delimiters (delimiter excluded); raise a ``FrameError`` subclass."""
    if len(encoded) > MAX_ENCODED_BYTES:
        raise OversizeFrame(f"frame of {len(encoded)} encoded bytes exceeds {MAX_ENCODED_BYTES}")
    try:
        raw = bytes(cobs.decode(encoded))
    except cobs.DecodeError as exc:
        raise CobsError(f"invalid COBS in {len(encoded)}-byte frame: {exc}") from exc
    if len(raw) < HEADER.size + CRC.size:
        raise TruncatedFrame(f"frame of {len(raw)} bytes is shorter than header and CRC")
    content, (sent_crc,) = raw[: -CRC.size], CRC.unpack(raw[-CRC.size :])
    actual_crc = crc16(content)
    if sent_crc != actual_crc:
        raise BadCrc(f"CRC is 0x{sent_crc:04x}, contents give 0x{actual_crc:04x}")
    version, type_code, seq, boot_id = HEADER.unpack_from(content)
    if version != VERSION:
        raise UnsupportedVersion(f"protocol version {version}, this side speaks {VERSION}")
    cls = MESSAGE_TYPES.get(type_code)
    if cls is None:
        raise UnknownMessageType(f"message type 0x{type_code:02x} is not part of protocol v{VERSION}")
    message = cls.decode_body(content[HEADER.size :])
    return Frame(seq=seq, boot_id=boot_id, message=message, version=version)


def _log_error(error: FrameError) -> None:
    log.warning("dropped a bad frame: %s: %s", type(error).__name__, error)


class FrameDecoder:
    """Streaming decoder: feed it whatever the port delivered, get back every complete good frame.

    Bad frames never raise out of ``feed``: each is handed to ``on_error`` (logs by default), counted
    in ``error_counts`` and skipped; decoding carries on from the next delimiter.
    """

    def __init__(self, on_error: Callable[[FrameError], None] = _log_error) -> None:
        self._buffer = bytearray()
        self._discarding = False  # after an oversize run: drop bytes until the next delimiter
        self._on_error = on_error
        self.error_counts: dict[str, int] = {}
        self.frames_decoded = 0

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        for chunk_end, piece in _split_keep_last(data):
            if self._discarding:
                if chunk_end:
                    self._discarding = False
                continue
            self._buffer += piece
            if not chunk_end:
                if len(self._buffer) > MAX_ENCODED_BYTES:
                    self._report(OversizeFrame(f"over {MAX_ENCODED_BYTES} bytes without a frame delimiter"))
                    self._buffer.clear()
                    self._discarding = True
                continue
            encoded = bytes(self._buffer)
            self._buffer.clear()
            if not encoded:
                continue  # back-to-back delimiters are idle fill / a resync preamble
            try:
                frames.append(decode_frame(encoded))
            except FrameError as error:
                self._report(error)
        self.frames_decoded += len(frames)
        return frames

    def reset(self) -> None:
        """Forget a partial frame, e.g. after the port was reopened."""
        self._buffer.clear()
        self._discarding = False

    def _report(self, error: FrameError) -> None:
        name = type(error).__name__
        self.error_counts[name] = self.error_counts.get(name, 0) + 1
        try:
            self._on_error(error)
        except Exception:  # a faulty reporter must not stop the stream either
            log.exception("frame error reporter failed")


def _split_keep_last(data: bytes) -> list[tuple[bool, bytes]]:
    """Split on the delimiter; each piece says whether a delimiter ended it."""
    parts = data.split(DELIMITER)
    return [(True, part) for part in parts[:-1]] + [(False, parts[-1])]


def describe(frame: Frame) -> str:
    return f"{type_name(frame.message.TYPE)} seq={frame.seq} boot=0x{frame.boot_id:08x}"
