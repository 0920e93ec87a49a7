"""The table on fakes that the daemon's tests play on: ``tests/helpers/game_script.py`` (``GameScript``)."""

from tests.helpers.game_script import SAMPLE_SIZES, GameScript

FakeTable = GameScript

__all__ = ["SAMPLE_SIZES", "FakeTable", "GameScript"]
