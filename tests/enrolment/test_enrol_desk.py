"""Enrolment from the set-up page is refused, saying why, when the table cannot carry it out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.game_script import GameScript


@pytest.fixture
def table() -> Iterator[GameScript]:
    running = GameScript()  # started without a folder for disc sets
    try:
        yield running
    finally:
        running.close()


def test_a_table_without_a_sets_folder_refuses_and_one_command_needs_a_started_enrolment(
    table: GameScript,
) -> None:
    assert table.send("enrol_start", set="box-1")["error"] == (
        "this table has no folder for disc sets (smartmat run --data-dir)"
    )
    assert table.send("enrol_finish")["error"] == "no enrolment is under way: start one first"
    assert (
        table.send("enrol_start", set="box-1", colour="red")["error"]
        == "enrol_start does not take 'colour' (it takes pieces, set)"
    )
    assert table.state["enrolment"] == {"active": False}
