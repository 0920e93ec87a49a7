"""``smartmat content check`` for Catacombs: 3E's shipped cards (with the expansions named) and the hardware
files, or 1E's cards with their stand-ins listed (service/games/content_report.py prints them)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from service.games.content_report import check_shipped, print_problems


def third_edition_check(ruleset: str, overlay: Path | None, expansions: Sequence[str], out: TextIO) -> int:
    from service.games.catacombs.content.third_edition import load_content

    return check_shipped(
        lambda: load_content(ruleset, overlay=overlay, expansions=list(expansions)), _counts, out
    )


def _counts(content: Any) -> list[tuple[str, int]]:
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


def first_edition_check(ruleset: str, overlay: Path | None, expansions: Sequence[str], out: TextIO) -> int:
    """Catacombs 1E's cards (service/games/catacombs/content/first_edition.py): validated, counted,
    stand-ins listed."""
    from service.content.errors import ContentError
    from service.games.catacombs.content import first_edition as catacombs1e

    try:
        cards = catacombs1e.load_catacombs1e_content(overlay)
        pending = catacombs1e.unverified(overlay)
    except ContentError as exc:
        return print_problems(exc.problems, out)
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
