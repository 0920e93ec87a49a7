"""Serial bridge throughput, each figure against a baseline measured in the same run.

1. Codec: IMPACT frames decoded per second by ``FrameDecoder`` (COBS, CRC, header, body) against bare
   ``struct.unpack`` of the same bodies: the ratio is what framing and checking cost.
2. Link over a pty: sensor events per second from the emulated board to ``SerialConnection.messages()``
   (acked one by one) against pushing the same bytes through a bare pty.

Goals: decoding >= 20,000 frames/s and the whole link >= 2,000 events/s. The densest second of play is
a full-grid scan (216 TAG_SEEN at most) plus a burst of impacts, a few hundred frames, and 115200 baud
carries about 500 IMPACT frames/s; so the host keeps up with ten times the worst case on a slower Pi.
Run: ``.venv/bin/python benchmarks/bridge_throughput.py [frames]``.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
import time

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.emulator.source import StaticSensorSource
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import Impact
from firmware_bridge.protocol import FrameDecoder, encode_frame
from firmware_bridge.transport import SerialConnection


def impacts(count: int) -> list[Impact]:
    return [Impact(sensor_id=i % 4, t_us=i * 250, amplitude=i % 4096) for i in range(count)]


def codec(count: int) -> tuple[float, float]:
    events = impacts(count)
    stream = b"".join(encode_frame(e, seq=i % 65536, boot_id=0x1A2B3C4D) for i, e in enumerate(events))
    bodies = [e.encode_body() for e in events]
    layout = struct.Struct(">BQH")

    start = time.perf_counter()
    for body in bodies:
        layout.unpack(body)
    baseline = count / (time.perf_counter() - start)

    decoder = FrameDecoder()
    start = time.perf_counter()
    frames = []
    for offset in range(0, len(stream), 4096):  # the port hands over a few kB per read
        frames += decoder.feed(stream[offset : offset + 4096])
    measured = count / (time.perf_counter() - start)
    assert len(frames) == count
    return measured, baseline


def bare_pty(payload: bytes) -> float:
    master, slave = os.openpty()
    import tty

    tty.setraw(slave)
    received = bytearray()

    def reader() -> None:
        while len(received) < len(payload):
            received.extend(os.read(slave, 65536))

    thread = threading.Thread(target=reader)
    start = time.perf_counter()
    thread.start()
    view = memoryview(payload)
    while view:
        view = view[os.write(master, view[:4096]) :]
    thread.join()
    elapsed = time.perf_counter() - start
    os.close(master)
    os.close(slave)
    return elapsed


def link(count: int) -> tuple[float, float]:
    events = impacts(count)
    payload = b"".join(encode_frame(e, seq=i % 65536, boot_id=1) for i, e in enumerate(events))
    baseline_s = bare_pty(payload)
    board = EmulatedMat(StaticSensorSource(), timing=LinkTiming())
    with board as mat, SerialConnection(str(mat.path)) as conn:
        if not conn.wait_until_up(5):
            raise SystemExit("the host never opened a session with the emulated board")
        stream = conn.messages()
        next(stream)  # HELLO
        start = time.perf_counter()
        mat.inject(*events)
        for received, _ in enumerate(stream, start=1):
            if received == count:
                break
        elapsed = time.perf_counter() - start
    return count / elapsed, count / baseline_s


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    decoded, unpacked = codec(count)
    print(
        f"codec: {decoded:,.0f} frames/s decoded; bare struct.unpack {unpacked:,.0f}/s; "
        f"ratio {decoded / unpacked:.3f} (goal >= 20,000 frames/s)"
    )
    link_count = min(count, 4_000)  # a burst the board can buffer whole (device_link.DEVICE_BUFFER_LIMIT)
    over_link, over_pty = link(link_count)
    print(
        f"link: {over_link:,.0f} events/s emulator -> SerialConnection.messages(); same bytes through "
        f"a bare pty {over_pty:,.0f}/s; ratio {over_link / over_pty:.3f} (goal >= 2,000 events/s)"
    )


if __name__ == "__main__":
    main()
