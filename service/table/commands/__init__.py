"""A table's commands: the catalogue declares each once (catalogue.py); the game's (game.py, corrections.py,
targets.py) and the set-up wizard's (wizard.py) turn one into the records to append."""

from service.table.commands.catalogue import (
    CATALOGUE,
    CommandRefused,
    CommandSpec,
    Record,
    arguments_of,
    check_command,
    command_names,
    from_form,
)
from service.table.commands.game import records_for

__all__ = [
    "CATALOGUE",
    "CommandRefused",
    "CommandSpec",
    "Record",
    "arguments_of",
    "check_command",
    "command_names",
    "from_form",
    "records_for",
]
