"""The game log as a user-facing format (docs/game-log.md): records, replay with undo and corrections."""

from service.gamelog.records import LogFormatError, Record, parse_line, read_log
from service.gamelog.replay import Replay, SetupError, new_game_from_setup, replay

__all__ = [
    "LogFormatError",
    "Record",
    "Replay",
    "SetupError",
    "new_game_from_setup",
    "parse_line",
    "read_log",
    "replay",
]
