"""The frame codec: every message survives the wire, and every kind of damaged frame is named and skipped."""

from __future__ import annotations

import json
import struct

import pytest
from cobs import cobs
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.errors import (
    BadCrc,
    CobsError,
    FrameError,
    MalformedBody,
    OversizeFrame,
    TruncatedFrame,
    UnknownMessageType,
    UnsupportedVersion,
)
from firmware_bridge.messages import Ack, Button, Hello, Impact, Message, ScanDone, TagSeen
from firmware_bridge.protocol import (
    CRC,
    HEADER,
    MAX_ENCODED_BYTES,
    FrameDecoder,
    crc16,
    decode_frame,
    encode_frame,
)
from tests.bridge.strategies import any_message, u16, u32

# The worked example of PROTOCOL.md: IMPACT from sensor 2 at t=1.5 s, amplitude 812, seq 7, boot 0x1A2B3C4D.
WORKED_EXAMPLE = bytes.fromhex("03 01 05 07 07 1a 2b 3c 4d 02 01 01 01 01 08 16 e3 60 03 2c 7a 88 00")


def crc16_ccitt_false_bitwise(data: bytes) -> int:
    """The textbook shift-register definition, to check the library call has the right parameters."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def frame_with(raw_content: bytes, crc: int | None = None) -> bytes:
    """Hand-build a frame around arbitrary header+body bytes (to make deliberately wrong ones)."""
    crc = crc16(raw_content) if crc is None else crc
    return cobs.encode(raw_content + CRC.pack(crc)) + b"\x00"


def collecting_decoder() -> tuple[FrameDecoder, list[FrameError]]:
    errors: list[FrameError] = []
    return FrameDecoder(on_error=errors.append), errors


def test_crc_is_ccitt_false_with_its_published_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16_ccitt_false_bitwise(b"123456789") == 0x29B1


@given(st.binary(max_size=64))
def test_crc_matches_the_shift_register_definition(data: bytes) -> None:
    assert crc16(data) == crc16_ccitt_false_bitwise(data)


def test_the_documented_worked_example_is_what_goes_on_the_wire() -> None:
    impact = Impact(sensor_id=2, t_us=1_500_000, amplitude=812)
    assert encode_frame(impact, seq=7, boot_id=0x1A2B3C4D) == WORKED_EXAMPLE
    frame = decode_frame(WORKED_EXAMPLE[:-1])
    assert (frame.seq, frame.boot_id, frame.message) == (7, 0x1A2B3C4D, impact)


@settings(max_examples=300)
@given(any_message, u16, u32)
def test_every_message_round_trips_through_a_frame(message: Message, seq: int, boot_id: int) -> None:
    wire = encode_frame(message, seq=seq, boot_id=boot_id)
    assert wire.count(0) == 1 and wire.endswith(b"\x00"), "0x00 appears only as the delimiter"
    frame = decode_frame(wire[:-1])
    assert frame.message == message
    assert (frame.seq, frame.boot_id, frame.version) == (seq, boot_id, 1)


@settings(max_examples=100)
@given(st.lists(any_message, min_size=1, max_size=8), st.data())
def test_a_stream_cut_into_any_pieces_decodes_to_the_same_messages(
    messages: list[Message], data: st.DataObject
) -> None:
    stream = b"".join(encode_frame(m, seq=i, boot_id=9) for i, m in enumerate(messages))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder, errors = collecting_decoder()
    frames = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        frames += decoder.feed(stream[start:end])
    assert [f.message for f in frames] == messages
    assert errors == []


def test_garbage_before_and_between_frames_is_skipped_and_reported() -> None:
    first = encode_frame(Button(button_id=1, pressed=True, t_us=10), seq=1, boot_id=5)
    second = encode_frame(Button(button_id=1, pressed=False, t_us=90), seq=2, boot_id=5)
    decoder, errors = collecting_decoder()
    frames = decoder.feed(b"\x13\x37noise" + first[3:] + b"line noise\xff\xfe\x00" + second)
    # the stream started mid-frame; the first frame's tail is noise to the decoder, the second is whole
    assert [f.message for f in frames] == [Button(button_id=1, pressed=False, t_us=90)]
    assert errors and all(isinstance(e, FrameError) for e in errors)
    assert sum(decoder.error_counts.values()) == len(errors)


def test_a_flipped_bit_is_a_bad_crc_and_the_next_frame_still_arrives() -> None:
    good = encode_frame(ScanDone(scan_id=4, t_us=1000, cells_read=216), seq=3, boot_id=5)
    content = bytearray(cobs.decode(good[:-1]))
    content[HEADER.size + 2] ^= 0x04  # one bit of scan_id flipped in transit; the CRC is the sender's
    damaged = cobs.encode(bytes(content)) + b"\x00"
    decoder, errors = collecting_decoder()
    frames = decoder.feed(damaged + good)
    assert [f.seq for f in frames] == [3]
    assert [type(e) for e in errors] == [BadCrc]


def test_frames_too_short_for_a_header_are_truncated() -> None:
    decoder, errors = collecting_decoder()
    assert decoder.feed(frame_with(b"\x01\x05\x00")) == []
    assert [type(e) for e in errors] == [TruncatedFrame]


def test_a_body_shorter_than_its_type_needs_is_truncated() -> None:
    header = HEADER.pack(1, Impact.TYPE, 1, 5)
    with pytest.raises(TruncatedFrame, match="IMPACT body is 3 bytes, needs 11"):
        decode_frame(frame_with(header + b"\x02\x00\x00")[:-1])


def test_a_tag_uid_cut_short_is_truncated_and_an_impossible_uid_length_is_malformed() -> None:
    head = HEADER.pack(1, TagSeen.TYPE, 1, 5) + struct.pack(">IBBbB", 1, 2, 3, -40, 7)
    with pytest.raises(TruncatedFrame, match="uid has 4 bytes, length field says 7"):
        decode_frame(frame_with(head + b"\xaa\xbb\xcc\xdd")[:-1])
    bad_len = HEADER.pack(1, TagSeen.TYPE, 1, 5) + struct.pack(">IBBbB", 1, 2, 3, -40, 11) + bytes(11)
    with pytest.raises(MalformedBody, match="uid length 11"):
        decode_frame(frame_with(bad_len)[:-1])


def test_unknown_type_and_wrong_version_are_named() -> None:
    decoder, errors = collecting_decoder()
    decoder.feed(frame_with(HEADER.pack(1, 0x7E, 1, 5)))
    decoder.feed(frame_with(HEADER.pack(2, Ack.TYPE, 1, 5) + b"\x00\x01"))
    assert [type(e) for e in errors] == [UnknownMessageType, UnsupportedVersion]
    assert "0x7e" in str(errors[0]) and "version 2" in str(errors[1])


def test_invalid_cobs_is_named() -> None:
    decoder, errors = collecting_decoder()
    decoder.feed(b"\x09\x01\x02\x00")  # the code byte promises 8 more bytes; 2 arrive
    assert [type(e) for e in errors] == [CobsError]


def test_a_run_without_delimiters_is_oversize_then_the_decoder_resyncs() -> None:
    decoder, errors = collecting_decoder()
    after = encode_frame(Impact(sensor_id=1, t_us=5, amplitude=6), seq=8, boot_id=5)
    frames = decoder.feed(b"\x01" * (MAX_ENCODED_BYTES + 10))
    frames += decoder.feed(b"\x01" * 100 + b"\x00" + after)
    assert [type(e) for e in errors] == [OversizeFrame]
    assert [f.seq for f in frames] == [8]


def test_hello_with_broken_capabilities_json_is_malformed() -> None:
    blob = b'{"firmware": "1.0", "boot_id": 5'
    raw = HEADER.pack(1, Hello.TYPE, 0, 5) + struct.pack(">H", len(blob)) + blob
    with pytest.raises(MalformedBody, match="not UTF-8 JSON"):
        decode_frame(frame_with(raw)[:-1])
    caps = default_capabilities(5).to_json()
    del caps["grid"]
    blob = json.dumps(caps).encode()
    raw = HEADER.pack(1, Hello.TYPE, 0, 5) + struct.pack(">H", len(blob)) + blob
    with pytest.raises(MalformedBody, match="incomplete or mistyped"):
        decode_frame(frame_with(raw)[:-1])


def test_hello_from_newer_firmware_with_extra_fields_is_still_read() -> None:
    caps = default_capabilities(5).to_json() | {"accelerometer": {"range_g": 16}}
    blob = json.dumps(caps).encode()
    raw = HEADER.pack(1, Hello.TYPE, 0, 5) + struct.pack(">H", len(blob)) + blob
    assert decode_frame(frame_with(raw)[:-1]).message == Hello(default_capabilities(5))


def test_a_failing_error_reporter_does_not_stop_the_stream() -> None:
    def broken_reporter(error: FrameError) -> None:
        raise RuntimeError("reporter is broken")

    decoder = FrameDecoder(on_error=broken_reporter)
    good = encode_frame(Ack(3), seq=0, boot_id=5)
    assert [f.message for f in decoder.feed(b"\x05junk\x00" + good)] == [Ack(3)]
    assert decoder.error_counts == {"TruncatedFrame": 1}


def test_fields_that_do_not_fit_their_wire_width_are_refused_where_they_are_made() -> None:
    with pytest.raises(ValueError, match=r"Impact.sensor_id must be an integer in 0..255, got 300"):
        Impact(sensor_id=300, t_us=0, amplitude=1)
    with pytest.raises(ValueError, match=r"Impact.amplitude must be an integer in 0..65535, got 812.5"):
        Impact(sensor_id=1, t_us=0, amplitude=812.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Button.pressed must be a bool"):
        Button(button_id=1, pressed=1, t_us=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seq 70000"):
        encode_frame(Ack(1), seq=70_000, boot_id=1)
    with pytest.raises(ValueError, match="uid is 4..10 bytes"):
        TagSeen(scan_id=1, col=0, row=0, uid=b"\x01\x02", rssi=-50)


def test_the_protocol_document_shows_the_bytes_the_codec_makes() -> None:
    from pathlib import Path

    import firmware_bridge

    document = (Path(firmware_bridge.__file__).parent / "PROTOCOL.md").read_text()
    wire_line = next(line for line in document.splitlines() if line.startswith("wire "))
    assert bytes.fromhex(wire_line.removeprefix("wire ")) == WORKED_EXAMPLE
    crc_line = next(line for line in document.splitlines() if line.startswith("crc16 "))
    content = cobs.decode(WORKED_EXAMPLE[:-1])[:-2]
    assert crc_line.split()[1:3] == [f"{crc16(content) >> 8:02x}", f"{crc16(content) & 0xFF:02x}"]
