"""``smartmat content check [--ruleset R] [--overlay DIR]``: validate the content and summarise it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from service.games import DEFAULT_RULESET, content_check, game_names


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser("content", help="game content (cards, playmats, layouts)")
    actions = parser.add_subparsers(dest="content_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate the shipped content and an overlay; print a summary")
    check.add_argument("--ruleset", default=DEFAULT_RULESET, help="rule set whose content to check")
    check.add_argument(
        "--overlay",
        type=Path,
        default=None,
        metavar="DIR",
        help="organiser's overlay directory, laid over the shipped content",
    )
    check.add_argument(
        "--expansion",
        action="append",
        default=[],
        metavar="NAME",
        help="add a shipped expansion's content (e.g. soloth); may be given more than once",
    )
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """The rule set's own check (its ``GameDefinition.content_check``); a name no game has is checked as the
    default game's content, whose loader names the rule sets it knows."""
    check = content_check(args.ruleset if args.ruleset in game_names() else DEFAULT_RULESET)
    return check(args.ruleset, args.overlay, list(args.expansion), out or sys.stdout)
