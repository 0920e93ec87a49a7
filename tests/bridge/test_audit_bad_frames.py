"""Bad bytes from the mat: every frame that is wrong is dropped with a named, logged error and the stream
goes on with the next good frame; nothing escapes the decoder and the port is not reopened for it
(firmware_bridge/PROTOCOL.md §1-3)."""

from __future__ import annotations

import json
import logging
import struct
from typing import Any

import pytest
from cobs import cobs  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.errors import FrameError, MalformedBody, TruncatedFrame, UnsupportedVersion
from firmware_bridge.fake import ScriptedSerialPort
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import (
    Ack,
    Button,
    Heartbeat,
    Hello,
    HelloAck,
    Impact,
    Resend,
    ScanDone,
    ScanRequest,
    TagSeen,
)
from firmware_bridge.protocol import CRC, HEADER, MAX_FRAME_BYTES, FrameDecoder, crc16, encode_frame
from firmware_bridge.transport import SerialConnection

BOOT = 0x1A2B3C4D
GOOD = encode_frame(Impact(sensor_id=2, t_us=1_500_000, amplitude=812), seq=7, boot_id=BOOT)


def frame(type_code: int, body: bytes, *, version: int = 1, seq: int = 0) -> bytes:
    """A frame with a correct CRC around whatever header and body we choose."""
    raw = HEADER.pack(version, type_code, seq, BOOT) + body
    return bytes(cobs.encode(raw + CRC.pack(crc16(raw)))) + b"\x00"


def hello_with(blob: bytes) -> bytes:
    return frame(Hello.TYPE, struct.pack(">H", len(blob)) + blob)


def capabilities(**changes: Any) -> bytes:
    caps = default_capabilities(BOOT).to_json()
    for path, value in changes.items():
        where = caps
        *parents, last = path.split("__")
        for parent in parents:
            where = where[parent]
        where[last] = value
    return json.dumps(caps).encode()  # json writes NaN and Infinity as Python reads them


def decode_then_good(data: bytes) -> tuple[list[Any], list[FrameError]]:
    errors: list[FrameError] = []
    decoder = FrameDecoder(on_error=errors.append)
    frames = decoder.feed(data + GOOD)
    return [f.message for f in frames], errors


def test_a_hello_nested_too_deeply_is_malformed_not_an_exception() -> None:
    blob = b"[" * 1018 + b"]" * 1018  # the most that fits in one frame
    data = hello_with(blob)
    assert len(cobs.decode(data[:-1])) <= MAX_FRAME_BYTES
    messages, errors = decode_then_good(data)
    assert messages == [Impact(sensor_id=2, t_us=1_500_000, amplitude=812)]
    assert [type(e) for e in errors] == [MalformedBody]
    assert str(errors[0]) == "HELLO capabilities blob is nested too deeply"


@pytest.mark.parametrize(
    ("blob", "complaint"),
    [
        (capabilities(grid__pitch_mm=float("nan")), "grid.pitch_mm should be a finite number, got nan"),
        (capabilities(mat_mm=[float("inf"), 600.0]), "mat_mm should be a finite number, got inf"),
        (capabilities(grid__origin_mm=[10**400, 0]), "grid.origin_mm should be a finite number"),
        (capabilities(sensors=[[0, float("-inf"), 0.0]]), "sensors.x should be a finite number"),
        (capabilities(grid__cols=257), "reader grid of 257x12 cells; TAG_SEEN can address at most 256x256"),
        (capabilities(grid__rows=10**30), "TAG_SEEN can address at most 256x256"),
        (capabilities(grid__cols=0), "reader grid is empty"),
        (capabilities(mat_mm=[900.0, 0]), "mat_mm must be positive, got [900.0, 0.0]"),
        (capabilities(mat_mm=[-900.0, 600.0]), "mat_mm must be positive"),
        (capabilities(sensors=[[300, 20.0, 20.0]]), "sensors.id 300 does not fit in u8"),
        (capabilities(buttons=[1, -1]), "buttons -1 does not fit in u8"),
        (capabilities(boot_id=-1), "boot_id -1 does not fit in u32"),
        (capabilities(firmware=1.4), "field firmware should be str, got 1.4"),
        (capabilities(grid__cols=True), "field grid.cols should be int, got True"),
        (capabilities(sensors=[{"id": 0, "x": 1, "y": 2}]), "sensors.id should be int, got 'id'"),
        (capabilities(sensors=[[0, 1.0]]), "incomplete or mistyped"),
        (capabilities(mat_mm="900x600"), "incomplete or mistyped"),
        (capabilities(piezo_threshold=0), "piezo_threshold must be positive, got 0"),
        (capabilities(piezo_threshold="40"), "piezo_threshold should be a number, got '40'"),
        (b"[]", "not a JSON object"),
        (b"\xff\xfe{}", "not UTF-8 JSON"),
    ],
)
def test_a_hello_with_impossible_capabilities_is_dropped_naming_the_field(
    blob: bytes, complaint: str
) -> None:
    messages, errors = decode_then_good(hello_with(blob))
    assert messages == [Impact(sensor_id=2, t_us=1_500_000, amplitude=812)]
    assert [type(e) for e in errors] == [MalformedBody]
    assert complaint in str(errors[0])


FIXED_SIZE = [
    (Heartbeat(t_us=5), "HEARTBEAT"),
    (ScanDone(scan_id=1, t_us=2, cells_read=3), "SCAN_DONE"),
    (Impact(sensor_id=1, t_us=2, amplitude=3), "IMPACT"),
    (Button(button_id=1, pressed=True, t_us=2), "BUTTON"),
    (Ack(seq=1), "ACK"),
    (Resend(from_seq=1), "RESEND"),
    (HelloAck(boot_id=BOOT), "HELLO_ACK"),
]


@pytest.mark.parametrize(("message", "name"), FIXED_SIZE)
def test_a_body_one_byte_short_or_long_is_dropped_naming_the_message(message: Any, name: str) -> None:
    body = message.encode_body()
    short, errors_short = decode_then_good(frame(message.TYPE, body[:-1]))
    long, errors_long = decode_then_good(frame(message.TYPE, body + b"\x00"))
    assert short == long == [Impact(sensor_id=2, t_us=1_500_000, amplitude=812)]
    assert [type(e) for e in errors_short] == [TruncatedFrame]
    assert [type(e) for e in errors_long] == [MalformedBody]
    size = len(body)
    assert str(errors_short[0]) == f"{name} body is {size - 1} bytes, needs {size}"
    assert str(errors_long[0]) == f"{name} body is {size + 1} bytes, expected exactly {size}"


def test_the_other_bodies_of_the_wrong_length_are_dropped_too() -> None:
    tag = TagSeen(scan_id=1, col=3, row=4, uid=bytes.fromhex("04a1b2c3"), rssi=-40).encode_body()
    cases = [
        (frame(ScanRequest.TYPE, b"\x00"), "SCAN_REQUEST has an empty body, got 1 bytes"),
        (frame(TagSeen.TYPE, tag[:7]), "TAG_SEEN body is 7 bytes, needs at least 8"),
        (frame(TagSeen.TYPE, tag + b"\x99"), "TAG_SEEN has 1 bytes after its uid"),
        (frame(Hello.TYPE, b"\x00"), "HELLO body is 1 bytes, needs at least 2"),
        (
            frame(Hello.TYPE, struct.pack(">H", 10) + b"{}"),
            "HELLO capabilities blob is 2 bytes, header says 10",
        ),
        (frame(Hello.TYPE, struct.pack(">H", 2) + b"{}  "), "HELLO has 2 bytes after its capabilities blob"),
        (frame(Button.TYPE, struct.pack(">BBQ", 1, 2, 5)), "BUTTON pressed byte is 2, must be 0 or 1"),
    ]
    for data, complaint in cases:
        messages, errors = decode_then_good(data)
        assert messages == [Impact(sensor_id=2, t_us=1_500_000, amplitude=812)], complaint
        assert len(errors) == 1 and str(errors[0]) == complaint


@pytest.mark.parametrize("version", [0, 2, 0xFF])
def test_another_protocol_version_is_dropped_naming_it(version: int) -> None:
    messages, errors = decode_then_good(frame(Impact.TYPE, GOOD_BODY, version=version))
    assert messages == [Impact(sensor_id=2, t_us=1_500_000, amplitude=812)]
    assert [type(e) for e in errors] == [UnsupportedVersion]
    assert str(errors[0]) == f"protocol version {version}, this side speaks 1"


GOOD_BODY = Impact(sensor_id=2, t_us=1_500_000, amplitude=812).encode_body()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.integers(min_value=1, max_value=64))
def test_after_any_garbage_a_delimiter_brings_the_next_frame(garbage: bytes, chunk: int) -> None:
    """Line noise of any length, fed in chunks of any size: a 0x00, then a good frame, always gets through."""
    errors: list[FrameError] = []
    decoder = FrameDecoder(on_error=errors.append)
    stream = garbage + b"\x00" + GOOD
    messages = []
    for start in range(0, len(stream), chunk):
        messages += [f.message for f in decoder.feed(stream[start : start + chunk])]
    assert messages[-1:] == [Impact(sensor_id=2, t_us=1_500_000, amplitude=812)]
    assert all(isinstance(e, FrameError) and str(e) for e in errors)


def test_a_nested_hello_on_the_line_is_logged_and_the_port_stays_open(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caps = default_capabilities(BOOT)
    port = ScriptedSerialPort()
    port.send(hello_with(b"[" * 1018 + b"]" * 1018) + encode_frame(Hello(caps), seq=0, boot_id=BOOT))
    quiet = LinkTiming(silence_timeout_us=30_000_000)
    with caplog.at_level(logging.WARNING):
        with SerialConnection("mat", timing=quiet, open_port=port.opener) as conn:
            hello = conn.next_delivery(timeout=2)
            assert hello is not None and hello.message == Hello(caps)
            assert conn.link_stats["frame_errors.MalformedBody"] == 1
            assert conn.connects == 1  # the bad frame did not cost the session
    assert "dropped a bad frame: MalformedBody: HELLO capabilities blob is nested too deeply" in caplog.text
    assert "unexpected failure" not in caplog.text
