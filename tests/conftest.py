"""Setups and logs naming ``content: sample`` play with the hand-made cards of tests/helpers.

The service ships no such cards (a real table can only play the shipped ones); the tests register theirs.
"""

from __future__ import annotations

import pytest

from service.gamelog.replay import register_fixture_content
from tests.helpers.sample_content import sample_content

register_fixture_content("sample", sample_content)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` run first, in their usual order, then the rest: with ``--dist worksteal``
    the long ones then never start last and keep one worker busy while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
