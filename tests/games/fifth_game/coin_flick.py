"""Coin Flick, a toy fifth game built only from what ``service/games/<game>/`` would hold: its rules, its
content loader and check, and its table behaviour, in one ``GameDefinition``.

One player flicks a coin disc at a cup; a flick that lands in it wins, and the content says how many flicks
the player has. Small on purpose: it shows that the registry, the content check and a table session find a
game nobody else names (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, TextIO

import yaml

from service.games.content_report import print_problems
from service.games.definition import GameDefinition
from service.games.loading import SetupContentError
from service.rules import actions as A
from service.rules import events as E
from service.rules.errors import IllegalActionError
from service.rules.ruleset import RuleSet

NAME = "coin-flick"
RULE = "coin-flick.md: Flicking"


@dataclass(frozen=True)
class CoinContent:
    flicks: int


@dataclass(frozen=True)
class CoinState:
    ruleset: str
    player: str
    flicks_left: int
    outcome: str | None = None
    pending: None = None

    @property
    def sides(self) -> tuple[Any, ...]:
        return ()

    def expected_shot(self) -> dict[str, Any] | None:
        if self.outcome is not None:
            return None
        return {"shot": "coin", "character": self.player, "actor": self.player, "piece": self.player}

    def public_view(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "phase": "over" if self.outcome else "battle",
            "outcome": self.outcome,
            "flicks_left": self.flicks_left,
            "characters": [],
            "expected_shot": self.expected_shot(),
        }

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


class CoinFlick(RuleSet[CoinState, CoinContent]):
    name: ClassVar[str] = NAME

    def new_game_from_setup(self, setup: Mapping[str, Any]) -> CoinState:
        return CoinState(NAME, str(setup["player"]), self.content.flicks)

    def _check_resolve_shot(self, state: CoinState, action: A.ResolveShot) -> None:
        if action.character != state.player or action.shot != "coin":
            raise IllegalActionError(f"only {state.player} flicks, and only the coin", RULE)

    def perform(self, state: CoinState, action: A.Action) -> tuple[CoinState, list[E.Event]]:
        assert isinstance(action, A.ResolveShot)
        in_the_cup = "cup" in action.direct_hits
        left = state.flicks_left - 1
        events: list[E.Event] = [E.ShotResolved("The coin is flicked.", state.player, "coin")]
        outcome = state.player if in_the_cup else ("cup" if left == 0 else None)
        if outcome is not None:
            events.append(E.GameOver(f"{outcome} wins.", outcome))
        return replace(state, flicks_left=left, outcome=outcome), events

    def choices(self, state: CoinState) -> list[A.Action]:
        return [] if state.outcome else [A.ResolveShot(state.player, "coin")]

    def rule_for_pending(self, state: CoinState) -> str:
        return RULE

    def game_over_rule(self) -> str:
        return "coin-flick.md: Winning"

    def unknown_action_rule(self) -> str:
        return RULE


class CoinTable:
    """The table file's game names the player (its shape: schemas/table_game.schema.json); the one thing to
    declare is the flick."""

    def setup_payload(self, table: Any, games_so_far: int) -> dict[str, Any]:
        return {"ruleset": NAME, "player": table.game.fields["player"]}

    def actions(self, rules: Any, state: Any) -> list[dict[str, Any]] | None:
        if state.outcome is not None:
            return []
        return [{"id": f"{state.player}:0", "label": "Flick the coin", "character": state.player}]

    def expected_shot(self, rules: Any, state: Any) -> dict[str, Any] | None:
        expected: dict[str, Any] | None = state.expected_shot()
        return expected


def coin_flick(content_dir: Path) -> GameDefinition:
    """The game, its cards read from ``content_dir/coins.yaml`` (as a game's own ``content/<ruleset>/``)."""

    def load(path: Path) -> CoinContent:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        flicks = data.get("flicks")
        if not isinstance(flicks, int) or flicks < 1:
            raise SetupContentError(f"{path}: flicks: expected a whole number of flicks, got {flicks!r}")
        return CoinContent(flicks)

    def content(setup: Mapping[str, Any], fixtures: Mapping[str, Callable[[], Any]]) -> CoinContent:
        return load(content_dir / "coins.yaml")

    def check(ruleset: str, overlay: Path | None, expansions: Sequence[str], out: TextIO) -> int:
        try:
            cards = load((overlay or content_dir) / "coins.yaml")
        except SetupContentError as exc:
            return print_problems([exc], out)
        print(f"{ruleset}: {cards.flicks} flicks", file=out)
        return 0

    return GameDefinition(
        ruleset=CoinFlick,
        content=content,
        content_check=check,
        table=CoinTable(),
        demo_table="coin-flick-demo",
        title="Coin Flick",
        table_game_schema=(f"{__package__}.schemas", "table_game"),
    )
