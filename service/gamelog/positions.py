"""A log's position at any record: the setup record of a new log starting from it (docs/positions.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.gamelog.context import game_context
from service.gamelog.records import Record
from service.gamelog.replay import SetupError, fold, replay
from service.games import definition_of
from service.rules.codec import encode

CONTEXT_KEYS = ("ruleset", "content", "overlay", "expansions")


def position_setup(records: Sequence[Record], at: int | None = None) -> dict[str, Any]:
    """The setup record of a new log starting where ``records`` stand after record ``at`` (default: all)."""
    kept = [r for r in records if at is None or r.seq <= at]
    if not kept:
        raise SetupError(f"the log has no record at or before seq {at}")
    result = replay(kept)
    position_of = definition_of(result.rules.name).position_of
    if position_of is None:
        raise SetupError(f"positions are a Catacombs 3E format; this log plays {result.state.ruleset}")
    setup, _ = fold(kept)
    out = {key: setup[key] for key in CONTEXT_KEYS if setup.get(key) is not None}
    out["settings"] = encode(result.rules.settings)
    out["context"] = game_context(out)
    out["position"] = position_of(result.state)
    return out
