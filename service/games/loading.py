"""What every game's content loader shares: a setup record's ``content`` and ``overlay`` checked, and the one
error a loader raises when the cards a setup names cannot be had (docs/game-log.md: the setup record)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

ContentLoader = Callable[[Mapping[str, Any], Mapping[str, Callable[[], Any]]], Any]
"""A game's loader: the setup record and the registered fixture card sets, to the cards its rules read."""


class SetupError(ValueError):
    """The setup record cannot start a game (unknown rule set, card or setting, or a table file's game that
    names no setup); service.gamelog.replay raises it too."""


class SetupContentError(ValueError):
    """The setup's cards cannot be loaded: a bad ``content``, ``overlay`` or ``expansions``, or broken
    files."""


def overlay_of(setup: Mapping[str, Any]) -> str | None:
    overlay = setup.get("overlay")
    if overlay is not None and not isinstance(overlay, str):
        raise SetupContentError(f"setup 'overlay' must be a directory name, got {overlay!r}")
    return overlay


def shipped_only(setup: Mapping[str, Any]) -> None:
    """A game without fixture card sets plays the shipped cards only."""
    if setup.get("content", "shipped") != "shipped":
        raise SetupContentError(
            f"setup 'content' must be 'shipped' for {setup['ruleset']}, got {setup['content']!r}"
        )
