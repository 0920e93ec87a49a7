"""What a game tells the rest of the product about itself: one ``GameDefinition`` per rule set, which the
game's package builds (``service/games/<game>/definition.py``) and the registry (``service.games``) lists.

Nothing outside ``service/games/`` names a game: the table, the game log, the mat, the simulated table, the
command line and the dashboard ask the registry for the definition of a setup's ``ruleset`` and read what they
need from it (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from service.games.content_report import ContentCheck
from service.games.loading import ContentLoader
from service.rules.ruleset import RuleSet, RulesState

SWISS = "swiss"
"""A tournament of paired rounds: two entrants (players or teams) a match, a winner or a draw, standings by
points (service/hub/swiss.py)."""
CAMPAIGN = "campaign"
"""A tournament of one party per table, each game scored by how far the party got and the gold it carried
(service/hub/campaign.py)."""


@dataclass(frozen=True)
class PartyProgress:
    """What a campaign scores of one game: the rooms a party has cleared and the gold its heroes carry."""

    rooms_cleared: int = 0
    gold: int = 0


@dataclass(frozen=True)
class TournamentFormat:
    """A tournament a game offers (``smartmat hub new --format NAME``): how it is played and scored."""

    name: str
    """The event record's ``format`` (an id: small letters, digits and dashes), unique in the registry."""
    title: str
    """The format in words, for the organiser's help."""
    kind: str
    """``SWISS`` or ``CAMPAIGN``."""
    mode: str | None = None
    """A Swiss format: the table file's mode each match is offered to play (the match offer's ``mode``)."""
    teams: bool = False
    """A Swiss format: its entrants are teams, each naming its ``members``."""


class TableFileGame(Protocol):
    """A table file's ``game`` section as the table read it (service/table/config.py), checked with the game's
    own section schema; ``fields`` is the section as written, for what the named fields leave out."""

    @property
    def seed(self) -> int: ...

    @property
    def content(self) -> str: ...

    @property
    def heroes(self) -> tuple[str, ...]: ...

    @property
    def lord(self) -> str: ...

    @property
    def rooms(self) -> tuple[str, ...] | None: ...

    @property
    def mode(self) -> str | None: ...

    @property
    def modes(self) -> Mapping[str, Mapping[str, Any]]: ...

    @property
    def settings(self) -> Mapping[str, Any]: ...

    @property
    def expansions(self) -> tuple[str, ...]: ...

    @property
    def fields(self) -> Mapping[str, Any]: ...


class TableFile(Protocol):
    """What a game reads of a table file: where it is (for a refusal), the rule set and the game section."""

    @property
    def path(self) -> Path: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def game(self) -> TableFileGame: ...


class TableBehaviour(Protocol):
    """What a table needs of a game beyond its rules (service/table/): the ``setup`` record a table file's
    game becomes, what may be declared now, and the expected shot with what the mat needs to know of it."""

    def setup_payload(self, table: TableFile, games_so_far: int) -> dict[str, Any]: ...

    def actions(self, rules: RuleSet[Any, Any], state: RulesState) -> list[dict[str, Any]] | None: ...

    def expected_shot(self, rules: RuleSet[Any, Any], state: RulesState) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class GameDefinition:
    """One rule set and everything the product needs to play it at a table."""

    ruleset: type[RuleSet[Any, Any]]
    content: ContentLoader
    """The setup record (and the registered fixture card sets) to the cards its rules read."""
    content_check: ContentCheck
    """``smartmat content check --ruleset NAME``: its cards validated and summarised."""
    table: TableBehaviour
    demo_table: str
    """The shipped table file (``tables/<name>.yaml``) that ``smartmat run --ruleset NAME`` starts."""
    title: str
    """The game's name for people (the set-up page, the command line's help)."""
    table_game_schema: tuple[str, str]
    """The JSON Schema of a table file's ``game`` section for this game, as (package, schema name): the
    package's ``schemas/<name>.schema.json`` (service/table/config.py checks the table file with it)."""
    piece_sets: tuple[str, ...] = ()
    """Content folders whose ``pieces.yaml`` add to the common piece classes (service/mat/geometry.py)."""
    two_sides: bool = False
    """Played by two sides, each a team of heroes (or a boss) and warriors with charged cards: a free disc
    is handed out by team, a correction sets pools and tokens, a declared card is a charged card
    (service/table/)."""
    table_file_modes: bool = False
    """The table file's ``game`` holds one setup per mode (``game.modes``, picked by ``game.mode``)."""
    wizard_choices: Callable[[], dict[str, Any]] | None = None
    """What the set-up wizard offers for this game, from its shipped cards (heroes, Lords, modes …); None: the
    wizard does not set this game up and its games come from the table file."""
    wizard_setup: Callable[[Mapping[str, Any], TableFile, int], dict[str, Any]] | None = None
    """The wizard's choice (its arguments checked against ``wizard_arguments``), the table file and the games
    played so far in the log, to the setup record (``choice.SetupRefused`` names a wrong argument)."""
    wizard_arguments: frozenset[str] = frozenset()
    """The ``setup_game`` arguments a choice of this game takes (besides ``match``); others are refused."""
    monster_piece_class: Callable[[], Callable[[str], str | None]] | None = None
    """Read from its shipped cards: a Monster card's id → the piece class its printed disc size names, so a
    monster's piece class is known before it is bound; None: its Monster cards print no size (a monster
    takes a free disc of its family, service/table/bindings.py)."""
    room_services: bool = False
    """Its special rooms sell services (the Merchant's items, the Healer's cures) that a simulated party buys
    as it walks through (service/simulator/table.py)."""
    translated_content: bool = False
    """Its cards are printed in another language; the content files give each an ``english_name``."""
    referee_view: Callable[[Any], dict[str, Any]] | None = None
    """The game-log adapter's audit view of a state (the decks and the turn): ``smartmat replay --json``'s
    ``referee`` (docs/positions.md)."""
    position_of: Callable[[Any], dict[str, Any]] | None = None
    """A state as the ``position`` of a setup record that starts a new log from it (``smartmat replay
    --position``, docs/positions.md); None for a game without positions."""
    game_result: Callable[[Any], dict[str, Any]] | None = None
    """A finished game's state, told its own way for people (the snapshot's ``result``, docs/state.md: a
    party's rooms and gold); None: told as a side's win (service/table/game_result.py)."""
    corrections: tuple[tuple[str, str], ...] = ()
    """What the referee may set by hand at the console, as (``correct``'s ``field``, its words): the form
    offers these, starting on the first; the table's ``correct`` command checks each
    (service/table/commands/)."""
    tournament_formats: tuple[TournamentFormat, ...] = ()
    """The tournaments the hub runs for this game (service/hub/): each format's name, kind and mode."""
    party_progress: Callable[[dict[str, Any]], PartyProgress] | None = None
    """A table's published state (docs/state.md) read as a campaign scores it; None: a game without a party
    that clears rooms (it scores nothing in a campaign)."""

    @property
    def name(self) -> str:
        """The setup record's ``ruleset``."""
        return self.ruleset.name
