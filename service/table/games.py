"""What the table needs to know about each rule set, beyond the rules themselves: the game's
``TableBehaviour`` (service/games/definition.py), found through the games registry.

The daemon, the table session and the simulated table are rule-set neutral; what differs from one game to
another is the game's own (``service/games/<game>/table.py``):

- the ``setup`` record a table file's game becomes;
- what may be declared now, as the turn controller draws it (``actions`` in the snapshot);
- the expected shot with what the mat needs to know about it: whether a ranged piece (and which size) or a
  shield piece is flicked, or whether the shot is a placement with no flick at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from service.games import DEFAULT_RULESET, definition_of, game_names
from service.games.definition import TableBehaviour
from service.mat.geometry import PieceClass, piece_classes_for
from service.rules.ruleset import RulesState


class TableState(RulesState, Protocol):
    """What the table reads of any game's state: the rules core's (``RulesState``: its rule set, outcome,
    pending decision, public view) and the shot the mat waits for now."""

    def expected_shot(self) -> dict[str, Any] | None: ...


class TableCharacter(Protocol):
    """A character of a game played with characters, as the table reads it (binding discs, corrections)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def kind(self) -> str: ...

    def has(self, status: str) -> bool: ...


class TableTurn(Protocol):
    @property
    def character(self) -> str: ...


@runtime_checkable
class CharacterState(TableState, Protocol):
    """The state of a game played with characters, each a disc on the mat (every shipped game's): whom a disc
    is bound to, who takes the turn, whom a correction names. A game without characters has none of this,
    and the commands that name a character refuse (``TableSession.character_state``)."""

    @property
    def characters(self) -> Sequence[TableCharacter]: ...

    @property
    def turn(self) -> TableTurn | None: ...

    def find(self, character_id: str) -> TableCharacter | None: ...

    def character(self, character_id: str) -> TableCharacter: ...


def table_game(ruleset: str) -> TableBehaviour:
    """The table's knowledge of one rule set (the default game's for a rule set no game has)."""
    return definition_of(ruleset if ruleset in game_names() else DEFAULT_RULESET).table


def plays_sides(ruleset: str) -> bool:
    """Whether the rule set's game is played by two sides of teams (its definition's ``two_sides``)."""
    return ruleset in game_names() and definition_of(ruleset).two_sides


def piece_classes(ruleset: str) -> dict[str, PieceClass]:
    """The piece classes a table of this rule set may use: the common ones and its game's ``piece_sets`` (a
    rule set no game has: its own ``content/<ruleset>/pieces.yaml``, if there is one)."""
    piece_sets = definition_of(ruleset).piece_sets if ruleset in game_names() else (ruleset,)
    return piece_classes_for(piece_sets)
