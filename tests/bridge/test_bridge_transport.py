"""The host connection: exact byte conversations against a scripted port, acknowledgement after delivery,
reconnection with capped backoff, and the shipped FakeConnection."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.fake import FakeConnection, ScriptedSerialPort, UnexpectedBytes
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import Hello, Impact, ScanDone, ScanRequest, TagSeen
from firmware_bridge.protocol import encode_frame
from firmware_bridge.transport import DeviceUnavailable, SerialConnection

BOOT = 0x1A2B3C4D
CAPS = default_capabilities(BOOT)
HELLO = encode_frame(Hello(CAPS), seq=0, boot_id=BOOT)
# Host -> device, exactly as PROTOCOL.md lists them.
RESYNC = bytes.fromhex("00")
HELLO_ACK = bytes.fromhex("03 01 20 01 0b 1a 2b 3c 4d 1a 2b 3c 4d 6c 30 00")
ACK_FFFF = bytes.fromhex("03 01 10 01 09 1a 2b 3c 4d ff ff 84 67 00")
ACK_0 = bytes.fromhex("03 01 10 01 05 1a 2b 3c 4d 01 03 99 68 00")
ACK_1 = bytes.fromhex("03 01 10 01 05 1a 2b 3c 4d 04 01 89 49 00")
SCAN_REQUEST = bytes.fromhex("03 01 21 01 07 1a 2b 3c 4d 7c d0 00")
# Device -> host
TAG_SEEN_0 = bytes.fromhex("03 01 03 01 05 1a 2b 3c 4d 01 01 0c 01 03 04 d8 04 04 a1 b2 c3 d5 56 00")
SCAN_DONE_1 = bytes.fromhex("03 01 04 06 01 1a 2b 3c 4d 01 01 02 01 01 01 01 01 01 03 61 a8 04 d8 57 03 00")

QUIET = LinkTiming(silence_timeout_us=30_000_000)  # the script sends no heartbeats


def wait_until(condition: object, timeout: float = 2.0) -> bool:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())


def test_a_whole_session_as_an_exact_byte_conversation() -> None:
    port = ScriptedSerialPort()
    port.send(HELLO)
    port.expect(RESYNC)
    port.expect(HELLO_ACK + ACK_FFFF, reply=TAG_SEEN_0 + SCAN_DONE_1)
    port.expect(SCAN_REQUEST)
    port.expect(ACK_0)
    port.expect(ACK_1)
    with SerialConnection("/dev/serial/by-id/usb-mat", timing=QUIET, open_port=port.opener) as conn:
        hello = conn.next_delivery(timeout=2)
        assert hello is not None and hello.message == Hello(CAPS)
        assert conn.capabilities == CAPS
        tag = conn.next_delivery(timeout=2)
        assert tag is not None
        assert tag.message == TagSeen(scan_id=1, col=3, row=4, uid=bytes.fromhex("04a1b2c3"), rssi=-40)
        conn.send(ScanRequest())
        done = conn.next_delivery(timeout=2)
        assert done is not None and done.message == ScanDone(scan_id=1, t_us=25_000, cells_read=216)
        conn.acknowledge(tag)
        conn.acknowledge(done)
        assert wait_until(lambda: port.script_done)
    port.assert_complete()


def test_messages_acknowledges_each_message_only_when_the_consumer_asks_for_the_next() -> None:
    port = ScriptedSerialPort()
    port.send(HELLO)
    port.expect(RESYNC).expect(HELLO_ACK + ACK_FFFF, reply=TAG_SEEN_0 + SCAN_DONE_1)
    port.expect(ACK_0)
    with SerialConnection("mat", timing=QUIET, open_port=port.opener) as conn:
        stream = conn.messages()
        assert isinstance(next(stream), Hello)
        assert isinstance(next(stream), TagSeen)
        time.sleep(0.05)
        assert ACK_0 not in port.written, "the consumer is still busy with TAG_SEEN: no ack yet"
        assert isinstance(next(stream), ScanDone)
        assert wait_until(lambda: ACK_0 in port.written)
        assert ACK_1 not in port.written
    port.assert_complete()


def test_a_host_that_departs_from_the_script_is_caught() -> None:
    port = ScriptedSerialPort()
    port.send(HELLO)
    port.expect(RESYNC).expect(ACK_0)  # wrong: the host must answer HELLO with HELLO_ACK first
    with SerialConnection("mat", timing=QUIET, open_port=port.opener) as conn:
        assert conn.next_delivery(timeout=2) is not None
        assert wait_until(lambda: bool(port.mismatches))
    with pytest.raises(UnexpectedBytes, match="expected 03 01 10"):
        port.assert_complete()


def test_noise_on_the_line_does_not_stop_the_session() -> None:
    port = ScriptedSerialPort()
    port.send(b"\xde\xad\xbe\xef\x00\x07\x07\x07\x00" + HELLO + b"\x01\x02\x00" + TAG_SEEN_0)
    with SerialConnection("mat", timing=QUIET, open_port=port.opener) as conn:
        first, second = conn.next_delivery(timeout=2), conn.next_delivery(timeout=2)
        assert first is not None and isinstance(first.message, Hello)
        assert second is not None and isinstance(second.message, TagSeen)
        stats = conn.link_stats
        assert stats["frame_errors.CobsError"] == 3 and stats["delivered"] == 1


def test_a_port_that_will_not_open_is_retried_with_capped_backoff(caplog: pytest.LogCaptureFixture) -> None:
    attempts = 0
    port = ScriptedSerialPort()
    port.send(HELLO)

    def opener(path: str, baudrate: int) -> ScriptedSerialPort:
        nonlocal attempts
        attempts += 1
        if attempts < 6:
            raise ConnectionError(f"cannot open {path}: [Errno 2] No such file or directory")
        return port.opener(path, baudrate)

    path = "/dev/serial/by-id/usb-mat"
    backoff = {"backoff_initial_s": 0.01, "backoff_cap_s": 0.04}
    with SerialConnection(path, timing=QUIET, open_port=opener, **backoff) as conn:
        delivery = conn.next_delivery(timeout=3)
        assert delivery is not None and isinstance(delivery.message, Hello)
        assert conn.connects == 1
    waits = [
        float(r.getMessage().split("retrying in ")[1].split(" s")[0])
        for r in caplog.records
        if "retrying in" in r.getMessage()
    ]
    assert waits == [0.01, 0.02, 0.04, 0.04, 0.04], "the wait doubles, then stays at the cap"
    retries = [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    assert all("usb-mat unavailable (cannot open" in message for message in retries)


def test_sending_with_no_device_session_is_refused_clearly() -> None:
    def nothing_there(path: str, baudrate: int) -> ScriptedSerialPort:
        raise ConnectionError(f"cannot open {path}")

    with SerialConnection("/dev/serial/by-id/absent", open_port=nothing_there) as conn:
        with pytest.raises(DeviceUnavailable, match="absent.*ScanRequest not sent"):
            conn.send(ScanRequest())


def test_close_ends_a_blocked_consumer() -> None:
    port = ScriptedSerialPort()
    conn = SerialConnection("mat", timing=QUIET, open_port=port.opener)
    seen: list[object] = []
    consumer = threading.Thread(target=lambda: seen.extend(conn.messages()))
    consumer.start()
    time.sleep(0.05)
    conn.close()
    consumer.join(timeout=2)
    assert not consumer.is_alive() and seen == []
    assert not port.is_open


def test_fake_connection_plays_the_device_for_service_tests() -> None:
    conn = FakeConnection(boot_id=7)
    conn.feed(Hello(default_capabilities(7)), Impact(sensor_id=1, t_us=10, amplitude=300))
    stream = conn.messages()
    assert next(stream) == Hello(default_capabilities(7))
    assert conn.capabilities == default_capabilities(7)
    assert next(stream) == Impact(sensor_id=1, t_us=10, amplitude=300)
    assert conn.unacknowledged == 1
    conn.send(ScanRequest())
    conn.close()
    assert list(stream) == []
    assert conn.unacknowledged == 0 and [d.seq for d in conn.acknowledged] == [0]
    assert conn.sent == [ScanRequest()]
    with pytest.raises(DeviceUnavailable):
        conn.send(ScanRequest())


def test_fake_connection_acknowledgement_is_cumulative_and_its_cable_can_be_pulled() -> None:
    conn = FakeConnection(boot_id=7, first_seq=65_534)
    conn.feed(*[Impact(sensor_id=1, t_us=i, amplitude=i) for i in range(4)])
    taken = [conn.next_delivery(timeout=1) for _ in range(4)]
    assert [d.seq for d in taken if d] == [65_534, 65_535, 0, 1]
    assert taken[2] is not None
    conn.acknowledge(taken[2])  # persisted three events in one batch, acked the last of them
    assert conn.unacknowledged == 1
    conn.available = False
    with pytest.raises(DeviceUnavailable, match="ScanRequest not sent"):
        conn.send(ScanRequest())
    conn.available = True
    conn.send(ScanRequest())
    assert conn.sent == [ScanRequest()]


def test_both_connections_satisfy_the_device_connection_contract() -> None:
    from firmware_bridge.transport import DeviceConnection

    def uses(connection: DeviceConnection) -> str | None:
        caps = connection.capabilities
        return caps.firmware_version if caps else None

    fake = FakeConnection()
    fake.feed(Hello(CAPS))
    next(fake.messages())
    assert uses(fake) == CAPS.firmware_version
    port = ScriptedSerialPort()
    port.send(HELLO)
    with SerialConnection("mat", timing=QUIET, open_port=port.opener) as real:
        assert wait_until(lambda: real.capabilities is not None)
        assert uses(real) == CAPS.firmware_version


def test_a_device_gone_silent_is_reopened_and_must_say_hello_again() -> None:
    port = ScriptedSerialPort()
    port.send(HELLO)
    timing = LinkTiming(silence_timeout_us=150_000)
    with SerialConnection("mat", timing=timing, open_port=port.opener, backoff_initial_s=0.01) as conn:
        assert conn.next_delivery(timeout=2) is not None
        assert conn.is_up
        assert wait_until(lambda: port.opened == 2, timeout=2), "silence past the timeout reopens the port"
        assert not conn.is_up, "no session until the device says HELLO on the new connection"
        port.send(HELLO)
        again = conn.next_delivery(timeout=2)
        assert again is not None and isinstance(again.message, Hello)
        assert conn.is_up
