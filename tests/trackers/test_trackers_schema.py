"""The table file's trackers section against its shipped JSON Schema
(service/table/schemas/trackers.schema.json; docs/trackers.md "Configuring a table"). Errors are asserted on
the file and key they name, not the wording."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from service.common import schema_check
from service.sensing.tags import TableConfigError
from service.table.trackers import parse_trackers

GOOD: list[dict[str, Any]] = [
    {"id": "board-1", "kind": "wled", "topic": "wled/board-1", "character": "hero-xoric", "bar_leds": 10},
    {"id": "board-5", "kind": "gpio", "character": "lord-1"},
]


def test_the_shipped_schema_is_valid_draft_2020_12_and_accepts_the_documented_example() -> None:
    Draft202012Validator.check_schema(schema_check.validator("service.table.schemas", "trackers").schema)
    assert [t.id for t in parse_trackers(GOOD, "t.yaml")] == ["board-1", "board-5"]


@pytest.mark.parametrize(
    ("bad", "key"),
    [
        ({"id": "board-1"}, "t.yaml: trackers:"),
        (["board-1"], "t.yaml: trackers[0]:"),
        ([GOOD[0], {**GOOD[1], "colour": "red"}], "t.yaml: trackers[1]:"),
        ([{**GOOD[1], "kind": "neon"}], "t.yaml: trackers[0].kind:"),
        ([{**GOOD[1], "status_leds": 9}], "t.yaml: trackers[0].status_leds:"),
        ([{**GOOD[1], "brightness": "bright"}], "t.yaml: trackers[0].brightness:"),
        ([{**GOOD[1], "character": ["a"]}], "t.yaml: trackers[0].character:"),
    ],
)
def test_a_malformed_section_is_refused_naming_file_and_key_and_logged(
    bad: Any, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="service.common.schema_check"):
        with pytest.raises(TableConfigError) as refused:
            parse_trackers(bad, "t.yaml")
    assert str(refused.value).startswith(key)
    assert any(str(refused.value) in record.getMessage() for record in caplog.records)


def test_the_semantic_checks_still_follow_the_schema() -> None:
    twice = [GOOD[0], {**GOOD[0], "topic": "wled/board-2"}]
    with pytest.raises(TableConfigError, match="board-1"):
        parse_trackers(twice, "t.yaml")
