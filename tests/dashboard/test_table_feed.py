"""The table feed: latest retained picture, event ring, and resuming SSE clients without gaps or repeats."""

from __future__ import annotations

import itertools
import threading

from web_dashboard.table.fake_feed import FakeFeed
from web_dashboard.table.table_feed import SseMessage, parse_event_id


def take(stream, count: int) -> list[SseMessage]:
    return [m for m in itertools.islice(stream, count)]


def play_room(fake: FakeFeed, first_seq: int, records: int) -> None:
    """Each record of the log yields two domain events, as a hit followed by its consequence does."""
    for seq in range(first_seq, first_seq + records):
        fake.event("damage", f"Xoric's melee hits the Troll (record {seq})", seq=seq)
        fake.event("health", f"Troll loses 1 health (record {seq})", seq=seq)


def texts(messages: list[SseMessage]) -> list[str]:
    return [m.data["text"] for m in messages if m.kind == "event"]


def test_a_phone_that_reconnects_gets_exactly_the_events_it_missed() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle", "characters": []}, seq=10)
    play_room(fake, 11, 3)  # six events: 11, 11.1, 12, 12.1, 13, 13.1

    phone = fake.feed.stream(None, history=50, keepalive_s=0.05)
    first = take(phone, 1 + 4)  # hello, then four events
    assert first[0].kind == "hello"
    assert [m.id for m in first[1:]] == ["11", "11.1", "12", "12.1"]
    phone.close()  # the connection drops after "12.1"

    play_room(fake, 14, 2)  # the game goes on while the phone is away
    again = fake.feed.stream(parse_event_id("12.1"), keepalive_s=0.05)
    resumed = take(again, 6)
    assert [m.id for m in resumed] == ["13", "13.1", "14", "14.1", "15", "15.1"]
    seen = texts(first) + texts(resumed)
    assert len(seen) == len(set(seen)) == 10  # no repeats, no gaps
    again.close()


def test_live_events_follow_the_catch_up_without_repeating_it() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle"}, seq=1)
    play_room(fake, 2, 1)
    phone = fake.feed.stream(parse_event_id("1"), keepalive_s=1)
    assert [m.id for m in take(phone, 2)] == ["2", "2.1"]
    threading.Timer(0.05, lambda: play_room(fake, 3, 1)).start()
    assert [m.id for m in take(phone, 2)] == ["3", "3.1"]
    phone.close()
    assert fake.feed.subscriber_count == 0


def test_a_phone_too_far_behind_gets_the_whole_picture_then_what_is_left() -> None:
    fake = FakeFeed("t1", ring_size=4)
    fake.snapshot({"phase": "battle", "round": 1}, seq=0)
    play_room(fake, 1, 5)  # ten events, only the last four kept
    fake.snapshot({"phase": "battle", "round": 2}, seq=5)
    phone = fake.feed.stream(parse_event_id("1"), keepalive_s=0.05)
    messages = take(phone, 5)
    assert messages[0].kind == "hello"
    assert messages[0].data["state"]["round"] == 2
    assert [m.id for m in messages[1:]] == ["4", "4.1", "5", "5.1"]
    phone.close()


def test_a_slow_phone_is_dropped_and_the_table_carries_on() -> None:
    fake = FakeFeed("t1", queue_size=3)
    fake.snapshot({"phase": "battle"}, seq=0)
    slow = fake.feed.stream(parse_event_id("0"), keepalive_s=0.05)
    assert next(slow) is None  # connected and idle: a keep-alive
    play_room(fake, 1, 5)  # ten events arrive while the phone reads nothing
    got = list(slow)  # the three that fitted its queue, then the stream ends
    assert [m.id for m in got if m is not None] == ["1", "1.1", "2"]
    assert fake.feed.subscriber_count == 0
    resumed = take(fake.feed.stream(parse_event_id("2"), keepalive_s=0.05), 7)
    assert [m.id for m in resumed] == ["2.1", "3", "3.1", "4", "4.1", "5", "5.1"]


def test_broken_and_repeated_messages_are_skipped_and_reported() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle", "round": 3}, seq=8)
    fake.publish("state", "{not json")
    fake.publish("state", [1, 2])
    fake.publish("event", {"type": "damage", "text": "no seq"})
    fake.publish("status", "maybe")
    fake.feed.ingest("smartmat/other-table/state", '{"seq": 99}')
    fake.event("damage", "Troll hit", seq=9)
    fake.event("damage", "Troll hit", seq=9)  # QoS 1 redelivery
    fake.snapshot({"phase": "battle", "round": 2}, seq=7)  # stale retained copy after a reconnect
    view = fake.feed.view()
    assert view["state"]["round"] == 3
    assert [e["text"] for e in fake.feed.recent_events()] == ["Troll hit"]
    reasons = "\n".join(fake.feed.rejected)
    assert "not JSON" in reasons and "JSON object" in reasons and "'seq'" in reasons
    assert "'maybe'" in reasons and "other-table" in reasons


def test_characters_come_and_go_with_their_retained_topics() -> None:
    fake = FakeFeed("t1")
    fake.publish("character/zombie-1", {"id": "zombie-1", "health": 1})
    assert fake.feed.view()["characters"]["zombie-1"]["health"] == 1
    fake.publish("character/zombie-1", "", retained=True)  # cleared: the zombie was removed
    assert fake.feed.view()["characters"] == {}


def test_closing_the_feed_ends_every_stream() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle"}, seq=0)
    stream = fake.feed.stream(None, keepalive_s=5)
    assert next(stream).kind == "hello"
    threading.Timer(0.05, fake.feed.close).start()
    assert list(stream) == []


def test_a_daemon_restarted_on_a_new_game_log_starts_the_story_again() -> None:
    fake = FakeFeed("t1")
    fake.online()
    fake.snapshot({"phase": "battle", "round": 4}, seq=40)
    play_room(fake, 41, 2)
    phone = fake.feed.stream(parse_event_id("42.1"), keepalive_s=0.05)
    assert next(phone) is None  # up to date, idle

    fake.publish("status", "offline")  # the daemon's last will
    fake.publish("status", "online")
    fake.snapshot({"phase": "setup", "round": 0}, seq=1)  # a fresh log for a new game
    fake.event("room", "The heroes enter The Barracks", seq=2)
    live = [m for m in take(phone, 6) if m is not None]
    assert [m.kind for m in live[:4]] == ["status", "status", "reset", "snapshot"]
    assert live[4].kind == "event" and live[4].id == "2"
    phone.close()

    assert fake.feed.view()["state"]["phase"] == "setup"
    assert [e["text"] for e in fake.feed.recent_events()] == ["The heroes enter The Barracks"]
    # A phone that was away through the restart holds an id from the old log: it gets the new picture.
    late = take(fake.feed.stream(parse_event_id("42.1"), keepalive_s=0.05), 2)
    assert late[0].kind == "hello" and late[0].data["state"]["phase"] == "setup"
    assert late[1].id == "2"


def test_without_a_restart_an_older_snapshot_is_a_stale_copy() -> None:
    fake = FakeFeed("t1")
    fake.online()
    fake.snapshot({"round": 4}, seq=40)
    fake.publish("status", "online")  # the dashboard's own reconnect: retained status again
    fake.snapshot({"round": 1}, seq=5)
    assert fake.feed.view()["state"]["round"] == 4


def story(fake: FakeFeed) -> list[str]:
    return [e["text"] for e in fake.feed.recent_events()]


def live_state(fake: FakeFeed, seq: int, **state: object) -> None:
    """The table's state as a subscribed page gets it while it is published (not a retained copy)."""
    fake.publish("state", {"phase": "battle", **state, "seq": seq})


def test_one_strangers_state_with_a_huge_seq_does_not_freeze_the_page() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle", "round": 1}, seq=10)
    live_state(fake, 999_999, round=99)  # a stranger's message on a broker that let it through
    live_state(fake, 11, round=2)  # the table's next record
    assert fake.feed.view()["state"]["seq"] == 11
    assert fake.feed.view()["state"]["round"] == 2
    live_state(fake, 12, round=3)
    assert fake.feed.view()["state"]["round"] == 3


def test_one_strangers_event_with_a_huge_seq_hides_no_later_event() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle"}, seq=10)
    phone = fake.feed.stream(None, history=50, keepalive_s=0.05)
    assert take(phone, 1)[0].kind == "hello"
    fake.event("damage", "a stranger's event", seq=999_999)
    play_room(fake, 11, 2)
    assert "a stranger's event" not in story(fake)
    assert any("implausibly far past" in reason for reason in fake.feed.rejected)
    live = take(phone, 4)
    assert [m.id for m in live] == ["11", "11.1", "12", "12.1"]
    assert story(fake) == texts(live)


def test_a_strangers_state_and_event_are_dropped_once_the_table_publishes_again() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle"}, seq=10)
    phone = fake.feed.stream(None, history=50, keepalive_s=0.05)
    assert take(phone, 1)[0].kind == "hello"
    live_state(fake, 999_999)
    fake.event("damage", "a stranger's event", seq=999_999)  # plausible next to the stranger's state
    fake.event("damage", "the table's event", seq=11)
    live_state(fake, 11)
    assert story(fake) == ["the table's event"]
    seen = take(phone, 5)
    # The page starts its story again without the stranger's event, then shows the table's state.
    assert [m.kind for m in seen] == ["snapshot", "event", "reset", "event", "snapshot"]
    assert seen[3].data["text"] == "the table's event" and seen[4].data["seq"] == 11
    fake.event("damage", "the table's next event", seq=12)
    assert texts(take(phone, 1)) == ["the table's next event"]
