"""The one place that knows smartmat's MQTT topic names.

Every topic lives under ``smartmat/<table>/``. Build topics with :func:`topic` and take them apart with
:func:`parse`; no other module writes a topic string by hand. The contract for subscribers is
``docs/mqtt.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "smartmat"

# Topic words (relative to the table prefix).
STATUS = "status"  # retained "online" / "offline", backed by the last will
STATE = "state"  # retained full game snapshot with "seq"
CHARACTER = "character"  # retained per-character state: character/<id>
TRACKER = "tracker"  # retained plain integer for LED trackers: tracker/<id>/health
BOARD = "board"  # retained piece positions
EVENT = "event"  # QoS 1, not retained, one message per domain event
SHOT = "shot"  # QoS 1, not retained, the last shot's attribution
CMD_REQUEST = "cmd/request"  # not retained: {"txn", "actor", "command", "args"}
CMD_RESPONSE = "cmd/response"  # not retained: {"txn", "ok", "error"?, "seq"?}
TRACKERS = "trackers"  # retained, from the WLED bridge: {"bridge", "devices": {tracker id: "online"|…}}
CAMERA_FRAMES = (
    "camera/frames"  # QoS 0, not retained, from the camera process: batches of frames' disc places
)
CAMERA_STATUS = "camera/status"  # retained, from the camera process: its health; "offline" is its last will
# The camera's view for the referee's set-up page (docs/camera.md): the referee's channel asks on
# ``camera/view/ask`` (not retained, any payload) and the camera process answers on ``camera/view`` (not
# retained): one annotated JPEG and its summary, at most one every few seconds.
CAMERA_VIEW_ASK = "camera/view/ask"
CAMERA_VIEW = "camera/view"
CAMERA_WORDS = (CAMERA_FRAMES, CAMERA_STATUS)  # what the daemon takes from the camera
# A tournament (docs/tournaments.md): the hub's words under a table's prefix. The log shipper publishes the
# event log on ``log`` and ``log/head``, the hub asks for records on ``log/request``, the table's bridge says
# whether it is up on ``bridge``, and the hub offers the table its next match on ``match`` (retained).
LOG = "log"
LOG_HEAD = "log/head"
LOG_REQUEST = "log/request"
BRIDGE = "bridge"
MATCH = "match"
TOURNAMENT_WORDS = (LOG, LOG_HEAD, LOG_REQUEST, BRIDGE, MATCH)

ONLINE = "online"
OFFLINE = "offline"

# Who may publish and read what; deploy/mosquitto/acl grants exactly this (a test checks).
DAEMON_PUBLISHES = (STATUS, STATE, CHARACTER, TRACKER, BOARD, EVENT, SHOT, CMD_RESPONSE)
# its own retained characters, to clear stale ones; the overhead camera's frames and health (docs/camera.md)
DAEMON_READS = (CMD_REQUEST, CHARACTER, TRACKER, CAMERA_FRAMES, CAMERA_STATUS)
REFEREE_PUBLISHES = (CMD_REQUEST, CAMERA_VIEW_ASK)
SPECTATOR_READS = (STATUS, STATE, CHARACTER, TRACKER, BOARD, EVENT, SHOT, TRACKERS)
# What an LED tracker shows: every account may read it (trackers are read-only, each with an account of its
# own, since the broker names each client after its account).
TRACKER_READS = (TRACKER, STATUS, CHARACTER)
CAMERA_READS = (CAMERA_VIEW_ASK,)  # the referee's ask for a view
# only the camera process: nobody else can blind or fool it
CAMERA_PUBLISHES = (CAMERA_FRAMES, CAMERA_STATUS, CAMERA_VIEW)
WLED_BRIDGE_PUBLISHES = (TRACKERS,)  # the WLED bridge says whether it and each device are connected
# WLED's own topic tree: each device listens on ``wled/<device>/api`` (only the bridge writes there) and
# reports its own state under ``wled/<device>/`` with an account named as its device id (docs/trackers.md).
WLED_ROOT = "wled"
WLED_FILTER = f"{WLED_ROOT}/#"
WLED_GROUP = f"{WLED_ROOT}/all"  # WLED's default group topic, which every device listens on
WLED_DEVICE_REPORTS = ("status", "v", "g", "c")  # availability, XML state, brightness, colour

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class TopicError(ValueError):
    """A topic or identifier that does not fit the contract."""


def check_id(value: str, what: str = "identifier") -> str:
    if not _ID.match(value):
        raise TopicError(f"{what} {value!r} must match {_ID.pattern} (lower-case letters, digits, '-')")
    return value


def prefix(table: str) -> str:
    return f"{ROOT}/{check_id(table, 'table id')}"


def topic(table: str, *words: str) -> str:
    """``topic("t1", CHARACTER, "hero-xoric")`` → ``smartmat/t1/character/hero-xoric``."""
    parts = [prefix(table)]
    for word in words:
        if not word or "+" in word or "#" in word:
            raise TopicError(f"topic word {word!r} is empty or contains a wildcard")
        parts.append(word)
    return "/".join(parts)


def character_topic(table: str, character_id: str) -> str:
    return topic(table, CHARACTER, check_id(character_id, "character id"))


def tracker_topic(table: str, character_id: str) -> str:
    return topic(table, TRACKER, check_id(character_id, "character id"), "health")


def wled_api_topic(device_topic: str) -> str:
    """``wled_api_topic("wled/board-1")`` → ``wled/board-1/api``: where a WLED device takes JSON state."""
    parts = device_topic.split("/")
    if len(parts) != 2 or parts[0] != WLED_ROOT:
        raise TopicError(f"WLED device topic {device_topic!r} must be {WLED_ROOT}/<device id>")
    return f"{WLED_ROOT}/{check_id(parts[1], 'WLED device id')}/api"


def table_filter(table: str) -> str:
    """Subscription filter for every topic of one table."""
    return f"{prefix(table)}/#"


def kind_filter(kind: str, table: str = "+") -> str:
    """Filter for one kind of topic: ``kind_filter(TRACKER)`` → ``smartmat/+/tracker/+/health``."""
    table_part = table if table == "+" else check_id(table, "table id")
    if kind == CHARACTER:
        return f"{ROOT}/{table_part}/{CHARACTER}/+"
    if kind == TRACKER:
        return f"{ROOT}/{table_part}/{TRACKER}/+/health"
    if kind in (
        STATUS,
        STATE,
        BOARD,
        EVENT,
        SHOT,
        CMD_REQUEST,
        CMD_RESPONSE,
        TRACKERS,
        *CAMERA_WORDS,
        CAMERA_VIEW_ASK,
        CAMERA_VIEW,
        *TOURNAMENT_WORDS,
    ):
        return f"{ROOT}/{table_part}/{kind}"
    raise TopicError(f"{kind!r} is not a topic kind of the contract (docs/mqtt.md)")


@dataclass(frozen=True)
class ParsedTopic:
    table: str
    kind: str  # one of the topic words above
    subject: str | None = None  # character id for character/ and tracker/ topics


def parse(full_topic: str) -> ParsedTopic:
    parts = full_topic.split("/")
    if len(parts) < 3 or parts[0] != ROOT:
        raise TopicError(f"{full_topic!r} is not a smartmat topic")
    table, rest = parts[1], parts[2:]
    check_id(table, "table id")
    joined = "/".join(rest)
    if joined in (
        STATUS,
        STATE,
        BOARD,
        EVENT,
        SHOT,
        CMD_REQUEST,
        CMD_RESPONSE,
        TRACKERS,
        *CAMERA_WORDS,
        CAMERA_VIEW_ASK,
        CAMERA_VIEW,
        *TOURNAMENT_WORDS,
    ):
        return ParsedTopic(table, joined)
    if len(rest) == 2 and rest[0] == CHARACTER:
        return ParsedTopic(table, CHARACTER, check_id(rest[1], "character id"))
    if len(rest) == 3 and rest[0] == TRACKER and rest[2] == "health":
        return ParsedTopic(table, TRACKER, check_id(rest[1], "character id"))
    raise TopicError(f"{full_topic!r} is not in the topic contract (docs/mqtt.md)")
