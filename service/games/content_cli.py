"""``smartmat content check [--ruleset R] [--overlay DIR]``: validate the content and summarise it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from service.content.errors import ContentError, Problem
from service.content.hardware import check_hardware
from service.content.loader import CONTENT_ROOT, load_content
from service.content.model import Content
from service.games.castles.content import CASTLES_RULESETS, CastlesContent, load_castles_content
from service.games.catacombs.content import first_edition as catacombs1e


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser("content", help="game content (cards, playmats, layouts)")
    actions = parser.add_subparsers(dest="content_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate the shipped content and an overlay; print a summary")
    check.add_argument("--ruleset", default="catacombs-3e", help="rule set whose content to check")
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
    out = out or sys.stdout
    if args.ruleset == catacombs1e.RULESET:
        return _check_catacombs1e(args, out)
    problems: list[Problem] = []
    content: Content | CastlesContent | None = None
    try:
        if args.ruleset in CASTLES_RULESETS:
            content = load_castles_content(args.ruleset, overlay=args.overlay)
        else:
            content = load_content(args.ruleset, overlay=args.overlay, expansions=args.expansion)
    except ContentError as exc:
        problems.extend(exc.problems)
    problems.extend(check_hardware(CONTENT_ROOT / "hardware"))
    if problems:
        print(f"content check failed: {len(problems)} problem(s)", file=out)
        for problem in problems:
            print(f"  {problem}", file=out)
        return 1
    assert content is not None
    print(summary(content), file=out)
    return 0


def _check_catacombs1e(args: argparse.Namespace, out: TextIO) -> int:
    """Catacombs 1E's cards (service/games/catacombs/content/first_edition.py): validated, counted,
    stand-ins listed."""
    try:
        cards = catacombs1e.load_catacombs1e_content(args.overlay)
        pending = catacombs1e.unverified(args.overlay)
    except ContentError as exc:
        print(f"content check failed: {len(exc.problems)} problem(s)", file=out)
        for problem in exc.problems:
            print(f"  {problem}", file=out)
        return 1
    counts = (
        ("heroes", len(list(cards.heroes()))),
        ("monsters", len(list(cards.monsters()))),
        ("room cards", len(list(cards.rooms()))),
        ("spells", len(list(cards.cards("spell")))),
        ("items", len(list(cards.cards("item")))),
    )
    print(f"content {catacombs1e.RULESET}: OK", file=out)
    for label, count in counts:
        print(f"  {label:<15} {count:>3}", file=out)
    print(f"  unverified records: {len(pending)} (see docs/content.md)", file=out)
    for key, rid, fields in pending:
        print(f"    {key} {rid}: {', '.join(fields)}", file=out)
    return 0


def summary(content: Content | CastlesContent) -> str:
    counts = _counts(content)
    lines = [f"content {content.ruleset}: OK"]
    lines += [f"  {label:<15} {count:>3}" for label, count in counts]
    unverified = content.unverified()
    lines.append(f"  unverified records: {len(unverified)} (see docs/content.md)")
    for record in unverified:
        fields = ", ".join(record.unverified_fields) or "whole record"
        lines.append(f"    {type(record).__name__} {record.id}: {fields}")
    lines.append("  files: " + ", ".join(content.files))
    return "\n".join(lines)


def _counts(content: Content | CastlesContent) -> list[tuple[str, int]]:
    if isinstance(content, CastlesContent):
        return [
            ("shot types", len(content.shots)),
            ("heroes", len(content.heroes)),
            ("game modes", len(content.modes)),
            ("bosses", len(content.bosses)),
        ]
    deck = content.poison_deck
    return [
        ("monsters", len(content.monsters)),
        ("battle rooms", len(content.rooms)),
        ("special rooms", len(content.special_rooms)),
        ("catacomb lords", len(content.lords)),
        ("heroes", len(content.heroes)),
        ("items", len(content.items)),
        ("spells", len(content.spells)),
        ("abilities", len(content.abilities)),
        ("poison cards", len(deck)),
        ("playmat sides", len(content.playmats)),
        ("room layouts", len(content.layouts)),
        ("antients", len(content.antients)),
    ]
