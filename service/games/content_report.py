"""What ``smartmat content check`` prints for any game (service/games/content_cli.py): the problems found, or
the summary of the cards (counts, unverified records, files). Each game's own check (its package's
``content_check.py``) says how its cards are loaded and counted."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

ContentCheck = Callable[[str, Path | None, Sequence[str], TextIO], int]
"""A game's check: (rule set, overlay, expansions, where to print) to the exit code."""


class Record(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def unverified_fields(self) -> tuple[str, ...]: ...


class SummarisedContent(Protocol):
    @property
    def ruleset(self) -> str: ...

    @property
    def files(self) -> tuple[str, ...]: ...

    def unverified(self) -> Sequence[Any]: ...


def print_problems(problems: Sequence[object], out: TextIO) -> int:
    print(f"content check failed: {len(problems)} problem(s)", file=out)
    for problem in problems:
        print(f"  {problem}", file=out)
    return 1


def check_shipped(
    load: Callable[[], SummarisedContent],
    counts: Callable[[Any], Iterable[tuple[str, int]]],
    out: TextIO,
) -> int:
    """Loads the cards with ``load`` and checks the hardware files beside them; prints the problems, or the
    summary with ``counts``."""
    from service.content.errors import ContentError, Problem
    from service.content.hardware import check_hardware
    from service.content.reading import CONTENT_ROOT

    problems: list[Problem] = []
    content: SummarisedContent | None = None
    try:
        content = load()
    except ContentError as exc:
        problems.extend(exc.problems)
    problems.extend(check_hardware(CONTENT_ROOT / "hardware"))
    if problems:
        return print_problems(problems, out)
    assert content is not None
    print(summary(content, counts(content)), file=out)
    return 0


def summary(content: SummarisedContent, counts: Iterable[tuple[str, int]]) -> str:
    lines = [f"content {content.ruleset}: OK"]
    lines += [f"  {label:<15} {count:>3}" for label, count in counts]
    unverified = content.unverified()
    lines.append(f"  unverified records: {len(unverified)} (see docs/content.md)")
    for record in unverified:
        fields = ", ".join(record.unverified_fields) or "whole record"
        lines.append(f"    {type(record).__name__} {record.id}: {fields}")
    lines.append("  files: " + ", ".join(content.files))
    return "\n".join(lines)
