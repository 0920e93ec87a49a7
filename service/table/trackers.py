"""A table's LED trackers: which device stands beside which player board, and how its LEDs are laid out.

In the table file (``content/tables/<table>.yaml``; docs/trackers.md)::

    trackers:
      - {id: board-1, kind: wled, topic: wled/board-1, character: hero-xoric, leds: 10, status_leds: 2}
      - {id: board-5, kind: gpio, character: lord-1}

Errors name the file and the key. The section's shape is service/table/schemas/trackers.schema.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema.protocols import Validator

from service.common import schema_check
from service.publish.topics import TopicError, check_id, wled_api_topic
from service.sensing.tags import TableConfigError, read_table_yaml


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


@cache
def _trackers_schema() -> Validator:
    return schema_check.validator("service.table.schemas", "trackers")


def parse_trackers(data: Any, where: str) -> tuple[TrackerConfig, ...]:
    if data is None:
        return ()
    # The shape first (service/table/schemas/trackers.schema.json), then what a schema cannot say:
    # ids, topics, one device per topic.
    schema_check.check(_trackers_schema(), data, where, TableConfigError, root="trackers", logged=True)
    trackers: list[TrackerConfig] = []
    for index, item in enumerate(data):
        key = f"{where}: trackers[{index}]"
        try:
            tracker_id = check_id(str(item.get("id", "")), "tracker id")
            character = item.get("character")
            if character is not None:
                check_id(str(character), "character id")
        except TopicError as exc:
            raise TableConfigError(f"{key}: {exc}") from None
        kind = item.get("kind", "wled")
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
        defaults = TrackerLayout()
        layout = TrackerLayout(
            **{name: item.get(name, getattr(defaults, name)) for name in TrackerLayout.__dataclass_fields__}
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
