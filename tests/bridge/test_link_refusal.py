"""A board message the consumer could not keep is never acknowledged, and is taken again when resent.

The consumer here is a journal that refuses writes while its disk is "full", as the daemon's device
journal does (service/daemon/daemon.py): each tick it takes what the link delivered, keeps it in one write
and acknowledges it, or refuses the first message of the batch. The board senses 100 events a second
throughout, so a 1 s fill refuses more than a whole send window (64) and a 3 s fill several (PROTOCOL.md
section 4: a refused event is taken again).
"""

from __future__ import annotations

import pytest

from firmware_bridge.link import Delivery, HostLink
from firmware_bridge.messages import Ack, Impact, Resend
from tests.bridge.link_table import TIMING, LinkTable


class DiskFull(OSError):
    pass


class RefusingJournal:
    """Keeps (boot_id, seq) of each message in one write per batch; refuses every write while ``full``."""

    def __init__(self) -> None:
        self.kept: list[tuple[int, int]] = []
        self.full = False
        self.refusals = 0

    def write(self, batch: list[Delivery]) -> None:
        if self.full:
            self.refusals += 1
            raise DiskFull("No space left on device")
        self.kept += [(d.boot_id, d.seq) for d in batch if d.seq is not None]


def consume(table: LinkTable, journal: RefusingJournal) -> None:
    batch = []
    while (delivery := table.host.take()) is not None:
        batch.append(delivery)
    if not batch:
        return
    try:
        journal.write(batch)
    except DiskFull:
        table.host.refuse(next(d for d in batch if d.seq is not None), table.now_us)
    else:
        for delivery in batch:
            table.host.acknowledge(delivery)
    table.exchange()


def acked_by_host(table: LinkTable) -> int:
    """The highest seq any ACK the board heard covers (-1 before the first); the run never wraps."""
    acks = [f.message.seq for f in table.device_heard if isinstance(f.message, Ack)]
    return max((s for s in acks if s < 0xFF00), default=-1)


def play(table: LinkTable, journal: RefusingJournal, ms: int, sensed: list[int]) -> None:
    """``ms`` of play: one impact sensed every 10 ms tick, the consumer keeping what arrives."""
    for _ in range(ms // 10):
        sensed.append(table.device.send(Impact(1, 1000 * len(sensed), 100), table.now_us))
        table.advance(10, consume=False)
        consume(table, journal)


@pytest.mark.parametrize("fill_s", [1, 3])
def test_a_full_disk_loses_no_acknowledged_message_and_the_link_recovers_by_itself(fill_s: int) -> None:
    table = LinkTable()
    journal = RefusingJournal()
    table.plug_in()
    sensed: list[int] = []
    play(table, journal, 500, sensed)
    kept_before = len(journal.kept)
    assert kept_before > 40  # the table was reading the mat

    journal.full = True
    acked_at_fill = acked_by_host(table)
    play(table, journal, fill_s * 1000, sensed)
    # Nothing sensed during the fill was acknowledged, not even by a later cumulative ack.
    assert acked_by_host(table) == acked_at_fill
    assert journal.refusals >= fill_s * 2  # the board kept resending and each was refused
    assert table.device.unacked_count >= fill_s * 100 - 1

    journal.full = False
    play(table, journal, 1000, sensed)
    table.advance(500, consume=False)
    consume(table, journal)
    # Recovered within a second of space returning: every sensed event kept once, in order, all acked.
    assert journal.kept == [(table.device.boot_id, seq) for seq in sensed]
    assert table.device.unacked_count == 0
    assert acked_by_host(table) == sensed[-1]
    assert table.host.stats.refused >= 1


def test_a_later_cumulative_ack_does_not_release_a_refused_message() -> None:
    table = LinkTable()
    table.plug_in()
    table.impacts(5)
    taken = [d for d in table.consume(acknowledge=False) if d.seq is not None]
    assert [d.seq for d in taken] == [0, 1, 2, 3, 4]
    table.host.acknowledge(taken[1])
    heard_before = len(table.device_heard)
    table.host.refuse(taken[2], table.now_us)
    table.host.acknowledge(taken[4])  # taken before the refusal: stale
    table.exchange()
    after = [f.message for f in table.device_heard[heard_before:]]
    assert Resend(2) in after
    assert all(m.seq <= 1 for m in after if isinstance(m, Ack))
    assert table.device.unacked_count == 3  # 2, 3 and 4 are still the board's to send
    table.advance(50, consume=False)  # the resend arrives
    again = [d.seq for d in table.consume() if d.seq is not None]
    assert again == [2, 3, 4]  # taken again, once each, in order
    assert table.device.unacked_count == 0


def test_refusing_an_acknowledged_or_undelivered_message_changes_nothing() -> None:
    host = HostLink(TIMING)
    table = LinkTable(host=host)
    table.plug_in()
    table.impacts(3)
    taken = [d for d in table.consume() if d.seq is not None]  # all acknowledged
    host.refuse(taken[0], table.now_us)
    host.refuse(Delivery(taken[0].boot_id, 9, taken[0].message), table.now_us)
    assert host.stats.refused == 0
    table.impacts(1)
    assert [d.seq for d in table.consume() if d.seq is not None] == [3]
