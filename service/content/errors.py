"""The one error content loading raises, naming the file and the key path of every problem found."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    key_path: str  # e.g. "troll.shot_sequences[0][1].shot"; empty for a problem with the whole file
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.key_path}" if self.key_path else self.file
        return f"{where}: {self.message}"


class ContentError(ValueError):
    """Content that cannot be used: bad YAML, a schema violation or a broken cross-reference."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("ContentError needs at least one problem")
        super().__init__("\n".join(str(problem) for problem in self.problems))


def key_path(parts: Iterable[str | int]) -> str:
    """``["troll", "shot_sequences", 0, 1, "shot"]`` -> ``"troll.shot_sequences[0][1].shot"``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text
