"""The ``smartmat`` command line: one sub-command per job, each registered by the module that owns it."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any

# Modules that add sub-commands. Each exposes ``register_cli(subparsers)`` and sets ``func`` on its parser
# (``parser.set_defaults(func=callable_taking_args_returning_exit_code)``).
COMMAND_MODULES = (
    "service.app.cli",
    "service.gamelog.cli",
    "service.eventlog.cli",
    "service.attribution.cli",
    "service.bench.cli",
    "service.games.content_cli",
    "firmware_bridge.emulator.cli",
    "web_dashboard.cli",
    "service.enrolment.cli",
    "service.trackers.cli",
    "service.app.hub_serve",  # the hub's commands (service/hub/cli.py), with `hub serve` put together
    "service.camera.cli",
    "service.simulator.camera_cli",
    "service.camera_process.cli",
    "service.table.commands.reference",
)


def build_parser() -> argparse.ArgumentParser:
    return _parser_and_commands()[0]


def command_names() -> tuple[str, ...]:
    """Every ``smartmat`` command, as ``smartmat --help`` lists them."""
    return tuple(_parser_and_commands()[1].choices)


def _parser_and_commands() -> tuple[argparse.ArgumentParser, Any]:
    parser = argparse.ArgumentParser(prog="smartmat", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register_cli(subparsers)
    return parser, subparsers


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # The embedded broker's state machines (the transitions library) log every state change at INFO, which
    # buries the console of `smartmat run`; -v shows them again.
    logging.getLogger("transitions").setLevel(logging.DEBUG if args.verbose else logging.WARNING)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
