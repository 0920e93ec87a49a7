"""``smartmat content check`` for Catacombs & Castles (either edition): its shipped cards and the hardware
files (service/games/content_report.py prints them)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from service.games.content_report import check_shipped


def castles_check(ruleset: str, overlay: Path | None, expansions: Sequence[str], out: TextIO) -> int:
    from service.games.castles.content import load_castles_content

    return check_shipped(lambda: load_castles_content(ruleset, overlay=overlay), _counts, out)


def _counts(content: Any) -> list[tuple[str, int]]:
    return [
        ("shot types", len(content.shots)),
        ("heroes", len(content.heroes)),
        ("game modes", len(content.modes)),
        ("bosses", len(content.bosses)),
    ]
