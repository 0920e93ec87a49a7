from __future__ import annotations

import pytest

from service.publish import topics


def test_kind_filters_match_the_topics_they_stand_for() -> None:
    from paho.mqtt.client import topic_matches_sub

    assert topics.kind_filter(topics.TRACKER) == "smartmat/+/tracker/+/health"
    assert topics.kind_filter(topics.CHARACTER, "table-2") == "smartmat/table-2/character/+"
    assert topic_matches_sub(topics.kind_filter(topics.TRACKER), topics.tracker_topic("table-9", "troll"))
    assert not topic_matches_sub(topics.kind_filter(topics.STATE), topics.character_topic("table-9", "troll"))
    for kind in topics.DAEMON_PUBLISHES:
        assert topics.parse(topics.kind_filter(kind, "t1").replace("+", "x")).kind == kind


@pytest.mark.parametrize(("kind", "table"), [("scoreboard", "+"), (topics.STATE, "Table 1")])
def test_kind_filter_refuses_what_the_contract_lacks(kind: str, table: str) -> None:
    with pytest.raises(topics.TopicError):
        topics.kind_filter(kind, table)
