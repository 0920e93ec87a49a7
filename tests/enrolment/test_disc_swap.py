"""A disc swapped mid-game: the referee gives its piece the spare's tag; a log record says so and survives."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from firmware_bridge.messages import ScanDone, TagSeen
from service.publish import topics
from tests.helpers.game_script import GameScript

SPARE = "04c0ffee15beef"  # the spare disc's factory tag, in no table file


@pytest.fixture
def table() -> Iterator[GameScript]:
    running = GameScript()
    try:
        yield running
    finally:
        running.close()


def _scan(table: GameScript, scan_id: int, *tags: tuple[str, int, int]) -> None:
    """Two full scans of the mat seeing ``tags`` (uid hex, col, row), as the board would send them."""
    for n in (scan_id, scan_id + 1):
        for uid, col, row in tags:
            table.connection.feed(TagSeen(scan_id=n, col=col, row=row, uid=bytes.fromhex(uid), rssi=-40))
        table.connection.feed(ScanDone(scan_id=n, t_us=1_000_000 * n, cells_read=18 * 12))
    for _ in range(40):
        table.daemon.step(0.005)
    table.settle()


def _board_pieces(table: GameScript) -> dict[str, tuple[float, float]]:
    message = table.spectator.last(topics.topic(table.table.table, topics.BOARD))
    assert message is not None
    return {p["piece"]: (p["x_mm"], p["y_mm"]) for p in json.loads(message.payload)["pieces"]}


def test_the_referee_swaps_in_a_spare_disc_and_the_mat_follows_it(table: GameScript) -> None:
    xoric_tag = table.table.registry.entry("hero-xoric").uid.hex()
    _scan(table, 1, (SPARE, 4, 5))
    assert table.state["unknown_tags"] == [SPARE]  # the referee sees which tag is new
    assert "hero-xoric" not in _board_pieces(table)

    answer = table.send("swap_tag", piece="hero-xoric", uid=SPARE, reason="Xoric's tag stopped answering")
    assert answer["ok"], answer
    assert table.event_texts()[-1] == (
        f"Disc hero-xoric now carries tag {SPARE} (was {xoric_tag}): Xoric's tag stopped answering."
    )
    record = table.eventlog.records()[-1]
    assert (record.kind, record.by) == ("swap_tag", "referee:anna")
    assert record.payload == {
        "piece": "hero-xoric",
        "old_uid": xoric_tag,
        "new_uid": SPARE,
        "reason": "Xoric's tag stopped answering",
    }
    _scan(table, 3, (SPARE, 4, 5))
    assert _board_pieces(table)["hero-xoric"] == pytest.approx((225.0, 275.0))  # cell (4, 5): the spare
    assert table.state["unknown_tags"] == []

    restarted = GameScript(eventlog=table.eventlog)  # a power cut: the log is replayed
    try:
        assert restarted.table.registry.entry("hero-xoric").uid.hex() == SPARE
    finally:
        restarted.close()


def test_a_tag_that_another_disc_carries_or_that_is_no_uid_is_refused_by_name(table: GameScript) -> None:
    elani_tag = table.table.registry.entry("hero-elani").uid.hex()
    before = table.eventlog.last_seq()
    assert table.send("swap_tag", piece="hero-xoric", uid=elani_tag)["error"] == (
        f"tag {elani_tag} is registered for hero-elani"
    )
    assert table.send("swap_tag", piece="hero-xoric", uid="xyz")["error"] == (
        "swap_tag: 'uid' must be an NFC tag's UID, 4 to 10 bytes of hex, got 'xyz'"
    )
    assert table.send("swap_tag", piece="hero-nobody", uid=SPARE)["error"] == (
        "disc 'hero-nobody' is not registered at this table"
    )
    assert table.eventlog.last_seq() == before
