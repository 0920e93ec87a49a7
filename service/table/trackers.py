"""A table's LED trackers: which device stands beside which player board, and how its LEDs are laid out.

In the table file (``content/tables/<table>.yaml``; docs/trackers.md)::

    trackers:
      - {id: board-1, kind: wled, topic: wled/board-1, character: hero-xoric, leds: 10, status_leds: 2}
      - {id: board-5, kind: gpio, character: lord-1}

Errors name the file and the key. The section's shape is service/table/schemas/trackers.schema.json.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.publish.topics import TopicError, check_id, wled_api_topic
from service.sensing.tags import TableConfigError, read_table_yaml
from service.table import schema_check

KINDS = ("wled", "gpio")


@dataclass(frozen=True)
class TrackerLayout:
    """The strip, from its first LED: the health bar, then the status LEDs, then the charge LEDs."""

    bar_leds: int = 10
    status_leds: int = 2
    charge_leds: int = 0
    brightness: int = 96  # 0-255; an LED strip at full brightness dazzles across a table

    @property
    def leds(self) -> int:
        return self.bar_leds + self.status_leds + self.charge_leds


@dataclass(frozen=True)
class TrackerConfig:
    id: str
    kind: str  # "wled" or "gpio"
    character: str | None  # the character whose board it stands beside (None: not yet assigned)
    layout: TrackerLayout
    topic: str | None = None  # WLED: the device's MQTT "Device Topic", e.g. "wled/board-1"

    @property
    def api_topic(self) -> str:
        if self.topic is None:
            raise TopicError(f"tracker {self.id} is not a WLED device")
        return wled_api_topic(self.topic)


def _int(item: Mapping[str, Any], key: str, where: str, default: int, low: int, high: int) -> int:
    value = item.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise TableConfigError(f"{where}.{key}: expected a whole number from {low} to {high}, got {value!r}")
    return value


def parse_trackers(data: Any, where: str) -> tuple[TrackerConfig, ...]:
    if data is None:
        return ()
    # The shape first (service/table/schemas/trackers.schema.json), then what a schema cannot say:
    # ids, topics, one device per topic.
    schema_check.check("trackers", data, where, "trackers")
    if not isinstance(data, list):
        raise TableConfigError(f"{where}: trackers: expected a list of trackers")
    trackers: list[TrackerConfig] = []
    for index, item in enumerate(data):
        key = f"{where}: trackers[{index}]"
        if not isinstance(item, dict):
            raise TableConfigError(f"{key}: expected a mapping")
        unknown = sorted(
            set(item) - {"id", "kind", "topic", "character", *TrackerLayout.__dataclass_fields__}
        )
        if unknown:
            raise TableConfigError(f"{key}: unknown key(s) {', '.join(unknown)}")
        try:
            tracker_id = check_id(str(item.get("id", "")), "tracker id")
            character = item.get("character")
            if character is not None:
                check_id(str(character), "character id")
        except TopicError as exc:
            raise TableConfigError(f"{key}: {exc}") from None
        kind = item.get("kind", "wled")
        if kind not in KINDS:
            raise TableConfigError(f"{key}.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
        topic = item.get("topic")
        if kind == "wled":
            if not isinstance(topic, str):
                raise TableConfigError(
                    f"{key}.topic: a WLED tracker needs its device topic, e.g. wled/{tracker_id}"
                )
            try:
                wled_api_topic(topic)
            except TopicError as exc:
                raise TableConfigError(f"{key}.topic: {exc}") from None
        layout = TrackerLayout(
            bar_leds=_int(item, "bar_leds", key, 10, 1, 200),
            status_leds=_int(item, "status_leds", key, 2, 0, 8),
            charge_leds=_int(item, "charge_leds", key, 0, 0, 50),
            brightness=_int(item, "brightness", key, 96, 1, 255),
        )
        trackers.append(TrackerConfig(tracker_id, kind, str(character) if character else None, layout, topic))
    ids = [t.id for t in trackers]
    for tracker_id in ids:
        if ids.count(tracker_id) > 1:
            raise TableConfigError(f"{where}: trackers: id {tracker_id} is listed twice")
    topics_used = [t.topic for t in trackers if t.topic]
    for topic in topics_used:
        if topics_used.count(topic) > 1:
            raise TableConfigError(f"{where}: trackers: topic {topic} is used by two trackers")
    return tuple(trackers)


def load_trackers(table_file: Path | str) -> tuple[TrackerConfig, ...]:
    """The ``trackers`` of a table file (none listed: an empty tuple)."""
    path = Path(table_file)
    data = read_table_yaml(path)
    if not isinstance(data, dict):
        raise TableConfigError(f"{path}: expected a mapping at the top")
    return parse_trackers(data.get("trackers"), str(path))
