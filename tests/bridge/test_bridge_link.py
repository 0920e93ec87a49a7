"""The link rules, played out between a device link and a host link over a wire that loses, repeats and
reorders frames, on a virtual clock."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.link import HostLink, seq_at_or_before
from firmware_bridge.messages import Ack, Heartbeat, Hello, HelloAck, Impact, Resend
from firmware_bridge.protocol import Frame, encode_frame
from tests.bridge.link_table import TIMING, LinkTable, Tamper, default_capabilities

BOOT = 0xB007


def test_a_session_opens_with_hello_and_events_arrive_in_order() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    assert table.device.in_session
    events = table.impacts(5)
    table.consume()
    assert isinstance(table.taken[0].message, Hello)
    assert table.taken[0].message.capabilities.boot_id == BOOT
    assert table.delivered_events() == events
    assert table.delivered_seqs() == [0, 1, 2, 3, 4]
    assert table.device.unacked_count == 0


def test_device_events_wait_until_hello_ack_before_they_are_sent() -> None:
    table = LinkTable(boot_id=BOOT)
    table.device.connect(0)
    # every HELLO is lost on the way
    table.to_host = lambda frame: [] if isinstance(frame.message, Hello) else [frame]
    table.device.send(Impact(sensor_id=1, t_us=5, amplitude=9), 0)
    table.advance(300)
    assert table.host_heard == [] and table.device.unacked_count == 1
    table.to_host = lambda frame: [frame]
    table.advance(150)
    assert table.delivered_events() == [Impact(sensor_id=1, t_us=5, amplitude=9)]


def test_nothing_is_acknowledged_until_the_consumer_says_so() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.impacts(3)
    taken = table.consume(acknowledge=False)
    assert [d.seq for d in taken] == [None, 0, 1, 2]
    assert table.device.unacked_count == 3, "taken but not yet persisted: the device must keep them"
    table.host.acknowledge(taken[2])
    table.exchange()
    assert table.device.unacked_count == 1, "acks are cumulative: seq 0 and 1 are released, 2 is kept"
    table.host.acknowledge(taken[3])
    table.exchange()
    assert table.device.unacked_count == 0


def test_unacknowledged_events_are_retransmitted_but_delivered_once() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.impacts(3)
    slow = table.consume(acknowledge=False)  # the daemon is still writing them to disk
    table.advance(400, consume=False)
    assert table.device.retransmissions >= 3
    assert table.host.take() is None, "retransmissions of delivered events are not delivered again"
    assert table.host.stats.duplicates >= 3
    table.host.acknowledge(slow[-1])
    table.exchange()
    assert table.device.unacked_count == 0


def test_a_lost_event_is_asked_for_again_and_delivery_stays_in_order() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    lost_once: set[int] = set()

    def lose_seq_2_once(frame: Frame) -> list[Frame]:
        if isinstance(frame.message, Impact) and frame.seq == 2 and 2 not in lost_once:
            lost_once.add(2)
            return []
        return [frame]

    table.to_host = lose_seq_2_once
    table.to_device = lambda frame: [] if isinstance(frame.message, Resend) else [frame]  # first ask lost too
    events = table.impacts(5)
    table.consume()
    assert table.delivered_seqs() == [0, 1], "3 and 4 wait behind the gap"
    table.to_device = lambda frame: [frame]
    table.advance(TIMING.resend_retry_us // 1000 + 10)
    assert table.delivered_events() == events
    resends = [f.message for f in table.device_heard if isinstance(f.message, Resend)]
    assert resends == [Resend(from_seq=2)], "asked again after resend_retry, once"
    assert table.host.stats.out_of_order == 2


def test_frames_arriving_out_of_order_are_put_back_in_order() -> None:
    host = HostLink(TIMING)
    host.connection_opened(0)
    host.receive(Frame(seq=10, boot_id=BOOT, message=Hello(default_capabilities(BOOT))), 0)
    for seq in (12, 10, 13, 11):
        host.receive(Frame(seq=seq, boot_id=BOOT, message=Impact(sensor_id=0, t_us=seq, amplitude=seq)), 0)
    order = []
    while (delivery := host.take()) is not None:
        order.append(delivery.seq)
    assert order == [None, 10, 11, 12, 13]


def test_a_duplicated_frame_is_delivered_once() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.to_host = lambda frame: [frame, frame]
    events = table.impacts(4)
    table.advance(50)
    assert table.delivered_events() == events
    assert table.host.stats.duplicates == 4


def test_a_lost_last_event_is_noticed_from_the_heartbeat() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.to_host = lambda frame: [] if isinstance(frame.message, Impact) and frame.seq == 1 else [frame]
    table.impacts(2)
    table.consume()
    assert table.delivered_seqs() == [0]
    table.to_host = lambda frame: [frame]
    table.advance(TIMING.heartbeat_period_us // 1000 + 20)
    assert table.delivered_seqs() == [0, 1]
    heartbeats = [f for f in table.host_heard if isinstance(f.message, Heartbeat)]
    assert heartbeats and heartbeats[0].seq == 2, "a heartbeat carries the device's next seq"


def test_sequence_numbers_wrap_at_16_bits_without_losing_order() -> None:
    table = LinkTable(boot_id=BOOT, first_seq=65_533)
    table.plug_in()
    dropped: list[int] = []

    def drop_65535_once(frame: Frame) -> list[Frame]:
        if frame.seq == 65_535 and isinstance(frame.message, Impact) and not dropped:
            dropped.append(frame.seq)
            return []
        return [frame]

    table.to_host = drop_65535_once
    events = table.impacts(6)
    table.advance(100)
    assert table.delivered_seqs() == [65_533, 65_534, 65_535, 0, 1, 2]
    assert table.delivered_events() == events
    assert seq_at_or_before(65_535, 2) and not seq_at_or_before(2, 65_535)


def test_a_device_reboot_starts_a_new_session_and_its_seq_0_is_not_a_duplicate() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    before = table.impacts(3)
    table.consume()
    table.reboot_device(new_boot_id=0xC0FFEE)
    after = table.impacts(2, start=100)
    table.consume()
    hellos = [d for d in table.taken if isinstance(d.message, Hello)]
    assert [h.boot_id for h in hellos] == [BOOT, 0xC0FFEE]
    assert table.delivered_events() == before + after
    numbered = [(d.boot_id, d.seq) for d in table.taken if d.seq is not None]
    assert numbered[-2:] == [(0xC0FFEE, 0), (0xC0FFEE, 1)]
    assert table.host.stats.reboots == 1
    assert table.host.capabilities is not None and table.host.capabilities.boot_id == 0xC0FFEE


def test_host_frames_for_another_boot_are_ignored_by_the_device() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.impacts(2)
    table.consume(acknowledge=False)
    stale = encode_frame(Ack(seq=1), seq=0, boot_id=0x0BAD)
    table.host_sends(stale)
    assert table.device.unacked_count == 2


def test_a_silent_device_takes_the_link_down() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.advance(200)
    assert table.host.is_up
    table.to_host = lambda frame: []  # cable cut without the port noticing
    table.advance(TIMING.silence_timeout_us // 1000 + 50)
    assert not table.host.is_up
    assert table.host.silent_for_us(table.now_us) > TIMING.silence_timeout_us


def test_a_device_that_hears_nothing_from_the_host_says_hello_again() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.to_device = lambda frame: []
    table.advance(TIMING.silence_timeout_us // 1000 + 50)
    assert not table.device.in_session
    table.to_device = lambda frame: [frame]
    table.advance(150)
    assert table.device.in_session
    assert [type(d.message) for d in table.taken] == [Hello], "same boot and connection: one HELLO"
    assert sum(isinstance(f.message, HelloAck) for f in table.device_heard) >= 1


def test_a_restarted_host_resumes_after_the_last_event_it_persisted() -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.impacts(8)
    taken = table.consume(acknowledge=False)
    persisted = taken[5]  # seq 4 reached the disk, then the daemon died before acking anything
    assert persisted.seq == 4
    restarted = LinkTable(boot_id=BOOT, host=HostLink(TIMING, resume=(BOOT, 4)))
    restarted.device = table.device
    restarted.host.connection_opened(table.now_us)
    restarted.now_us = table.now_us
    restarted.advance(TIMING.silence_timeout_us // 1000 + 200)
    assert restarted.delivered_seqs() == [5, 6, 7]
    assert restarted.device.unacked_count == 0


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 65_535),
    st.lists(st.integers(1, 8), min_size=1, max_size=12),
    st.floats(0, 0.4),
    st.floats(0, 0.3),
    st.integers(0, 2**32 - 1),
)
def test_through_a_wire_that_loses_repeats_and_reorders_every_event_arrives_once_in_order(
    first_seq: int, bursts: list[int], loss: float, duplication: float, seed: int
) -> None:
    rng = random.Random(seed)
    table = LinkTable(boot_id=BOOT, first_seq=first_seq)
    noisy = True

    def wire() -> Tamper:
        held: list[Frame] = []  # a frame the next one overtakes

        def tamper(frame: Frame) -> list[Frame]:
            if not noisy:
                arriving = [frame, *held]
            elif rng.random() < loss:
                return []
            elif rng.random() < 0.1 and not held:
                held.append(frame)
                return []
            else:
                arriving = [frame, frame] if rng.random() < duplication else [frame]
                arriving += held
            held.clear()
            return arriving

        return tamper

    table.to_host = wire()
    table.to_device = wire()
    table.plug_in()
    sent: list[Impact] = []
    for burst in bursts:
        sent += table.impacts(burst, start=len(sent))
        table.advance(30)
    noisy = False
    table.advance(1000)
    assert table.delivered_events() == sent
    assert table.device.unacked_count == 0


def test_a_burst_waits_in_the_device_buffer_beyond_the_send_window() -> None:
    from firmware_bridge.device_link import DEVICE_WINDOW

    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    burst = table.impacts(3 * DEVICE_WINDOW + 5)
    held = table.consume(acknowledge=False)
    assert len([d for d in held if d.seq is not None]) == DEVICE_WINDOW, "no more than a window on the wire"
    table.advance(200, consume=False)
    assert table.host.stats.resend_requests == 0, "heartbeats count only what was sent: no false gap"
    assert table.host.take() is None
    table.host.acknowledge(held[-1])  # the window slides as the consumer catches up
    table.advance(100)
    assert table.delivered_events() == burst
    assert table.device.unacked_count == 0


def test_events_dropped_for_space_while_the_cable_was_out_are_reported_lost() -> None:
    table = LinkTable(boot_id=BOOT, buffer_limit=8, window=4)
    table.plug_in()
    early = table.impacts(4)
    table.consume()
    table.device.disconnect()
    table.impacts(20, start=4)  # 20 events into a buffer of 8 with nobody listening: seq 4..15 dropped
    assert table.device.dropped_for_space == 12
    table.host.connection_opened(table.now_us)
    table.device.connect(table.now_us)
    table.advance(300)
    assert table.delivered_seqs() == [0, 1, 2, 3, *range(16, 24)]
    assert table.delivered_events()[:4] == early
    assert table.host.stats.lost == 12
    assert table.device.unacked_count == 0


def test_a_resend_for_events_dropped_for_space_moves_the_host_past_them() -> None:
    table = LinkTable(boot_id=BOOT, buffer_limit=8, window=4)
    table.plug_in()
    table.to_host = lambda frame: [] if isinstance(frame.message, Impact) and 4 <= frame.seq < 12 else [frame]
    held = table.consume(acknowledge=False)
    table.impacts(4)
    held += table.consume(acknowledge=False)  # the consumer stalls without acknowledging
    table.impacts(16, start=4)  # the window slides over drops; seq 4..11 are lost on the wire, then dropped
    table.to_host = lambda frame: [frame]
    table.host.acknowledge(held[-1])
    table.advance(400)
    assert table.delivered_seqs() == [0, 1, 2, 3, *range(12, 20)]
    assert table.host.stats.lost == 8
    assert table.device.unacked_count == 0


def test_a_device_sending_host_messages_is_logged_and_ignored(caplog: pytest.LogCaptureFixture) -> None:
    table = LinkTable(boot_id=BOOT)
    table.plug_in()
    table.host.receive(Frame(seq=0, boot_id=BOOT, message=Resend(from_seq=0)), table.now_us)
    table.host.receive(Frame(seq=0, boot_id=BOOT, message=HelloAck(boot_id=BOOT)), table.now_us)
    assert table.host.outgoing() == b"", "the host does not act on them"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("RESEND" in w.upper() and "only the host sends" in w for w in warnings)
    assert any("HELLOACK" in w.upper() for w in warnings)
