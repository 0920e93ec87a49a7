"""A rule set's table options: the base every game's settings subclass.

A rule set names its settings class in ``RuleSet.settings_type``; a game log's setup record carries them as
``settings`` (docs/game-log.md) and they are decoded into that class, field by field, each of its own type.
A game without options keeps this empty base.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSettings:
    """No options: the rulebook's basic rules as the referee rules them."""
