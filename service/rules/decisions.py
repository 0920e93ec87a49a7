"""Decisions: a question the rules wait on before the game goes on (which alternative, which target, block
or take the damage...). While one is pending only its answer (``Decide``) and the referee's corrections are
allowed (``RuleSet.check``). Each game asks its own kinds of question; ``kind`` names it and ``context``
carries the kind's own facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One answer a decision offers: its id (what ``Decide.option`` names) and how it reads."""

    id: str
    label: str


@dataclass(frozen=True)
class Pending:
    """The decision a game's state waits on. ``shot`` is the shot it is about, in the game's own type, when
    there is one (a game narrows its type in a subclass); ``context`` the kind's own facts as strings."""

    id: str
    kind: str
    character: str | None
    prompt: str
    options: tuple[Option, ...]
    shot: Any = None
    context: tuple[str, ...] = ()
