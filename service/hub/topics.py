"""The hub's topic words, beside the table's own (service/publish/topics.py builds every topic string).

A table's log shipper publishes each event-log record on ``log`` and the newest record it holds on the
retained ``log/head``; the hub asks for what it misses on ``log/request``. The bridge itself reports on
``bridge`` (``1`` connected, ``0`` down: Mosquitto's bridge notifications, the ``0`` being its will). When
a round is paired the hub offers each table its match on the retained ``match``; the table's referee
accepts it (docs/tournaments.md).
"""

from __future__ import annotations

from service.publish import topics as table_topics

LOG = table_topics.LOG  # QoS 1, not retained: {"game", "record"}
LOG_HEAD = table_topics.LOG_HEAD  # retained: {"game", "seq"} the newest record the table holds
LOG_REQUEST = table_topics.LOG_REQUEST  # hub → table, not retained: {"game", "after"}
BRIDGE = table_topics.BRIDGE  # retained "1" / "0", written by the bridge itself
MATCH = table_topics.MATCH  # hub → table, retained: the table's match this round (service/hub/offers.py)

# What a table's bridge carries to the hub, and the two things it carries back.
BRIDGED_OUT = (
    table_topics.STATUS,
    table_topics.STATE,
    f"{table_topics.CHARACTER}/+",
    f"{table_topics.TRACKER}/+/health",
    table_topics.BOARD,
    table_topics.EVENT,
    table_topics.SHOT,
    LOG,
    LOG_HEAD,
)
BRIDGED_IN = (LOG_REQUEST, MATCH)

# What the hub subscribes to on the central broker.
HUB_READS = (table_topics.STATUS, table_topics.STATE, BRIDGE, LOG, LOG_HEAD)


def table_topic(table: str, word: str) -> str:
    """``table_topic("t1", "log/head")`` → ``smartmat/t1/log/head``; ``word`` may hold a ``+`` (for ACLs and
    bridge lines), the table id never does."""
    return f"{table_topics.prefix(table)}/{word}"


def hub_filter(word: str) -> str:
    return f"{table_topics.ROOT}/+/{word}"


def parse_table(topic_name: str) -> tuple[str, str] | None:
    """``smartmat/t1/log/head`` → ``("t1", "log/head")``; None for a topic outside the contract."""
    parts = topic_name.split("/")
    if len(parts) < 3 or parts[0] != table_topics.ROOT:
        return None
    try:
        table_topics.check_id(parts[1], "table id")
    except table_topics.TopicError:
        return None
    return parts[1], "/".join(parts[2:])
