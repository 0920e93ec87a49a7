"""The seam between the table and the games is typed: the table session holds any game's state as a
``TableState`` and its rules as a ``RuleSet`` over it, reads characters only through ``CharacterState``, and a
game reads a table file as a ``TableFile`` (service/table/games.py, service/games/definition.py). The ``Any``
left in service/table/'s public signatures are JSON payloads, and their count only shrinks."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from service.eventlog.record import Record
from service.games import registered
from service.games.definition import TableBehaviour
from service.sensing.tags import RegisteredPiece, TagRegistry
from service.table.commands import CommandRefused
from service.table.commands.game import records_for
from service.table.config import SHIPPED_TABLES, load_table
from service.table.games import CharacterState, table_game
from service.table.session import TableSession
from tests.games.fifth_game.coin_flick import NAME, coin_flick

ROOT = Path(__file__).resolve().parents[2]
AT = "2026-11-28T12:00:00Z"
# The Any in service/table/'s public signatures (functions, methods, dataclass fields), nearly all of them a
# JSON object's values (a record's payload, a command's arguments, a snapshot). The count only shrinks.
MOST_ANY_AT_THE_TABLE = 75


def public_anys(source: str) -> int:
    """How many times ``Any`` appears in the annotations of the public functions, methods and class fields."""
    found = 0

    def count(node: ast.expr | None) -> int:
        if node is None:
            return 0
        return sum(
            1
            for x in ast.walk(node)
            if (isinstance(x, ast.Name) and x.id == "Any")
            or (isinstance(x, ast.Constant) and isinstance(x.value, str) and "Any" in x.value)
        )

    def walk(body: list[ast.stmt], in_class: bool) -> None:
        nonlocal found
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if node.name.startswith("_") and node.name != "__init__":
                    continue
                arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                arguments += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
                found += sum(count(a.annotation) for a in arguments) + count(node.returns)
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                walk(node.body, in_class=True)
            elif in_class and isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if not node.target.id.startswith("_"):
                    found += count(node.annotation)

    walk(ast.parse(source).body, in_class=False)
    return found


def test_the_count_sees_any_in_a_signature_and_a_field_and_not_in_a_private_one() -> None:
    source = """
class Session:
    state: Any = None
    seq: int = 0
    def apply(self, record: Any) -> dict[str, Any]: ...
    def _private(self, x: Any) -> Any: ...
def helper(x: "Mapping[str, Any]") -> None: ...
"""
    assert public_anys(source) == 4


def test_the_any_at_the_table_only_shrink() -> None:
    total = sum(
        public_anys(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / "service/table").rglob("*.py"))
    )
    assert total <= MOST_ANY_AT_THE_TABLE, "type it (a TypedDict, a Protocol) rather than add an Any"
    assert total > MOST_ANY_AT_THE_TABLE - 5, f"fewer Any now ({total}): lower MOST_ANY_AT_THE_TABLE"


def test_the_sessions_game_and_the_games_table_behaviour_name_no_any() -> None:
    hints = typing.get_type_hints(TableSession)
    for field in ("rules", "state"):
        assert "Any" not in str(hints[field]), (field, hints[field])
    for method in ("setup_payload", "actions", "expected_shot"):
        hints = typing.get_type_hints(getattr(TableBehaviour, method))
        assert "Any" not in str(hints.get("table", "")) and "Any" not in str(hints.get("state", "")), method


@pytest.mark.parametrize("demo", ["demo", "castles-demo", "castles-1e-demo", "catacombs-1e-demo"])
def test_every_shipped_games_state_is_played_with_characters(demo: str) -> None:
    table = load_table(SHIPPED_TABLES / f"{demo}.yaml")
    session = TableSession()
    session.apply(Record(1, AT, "daemon", "setup", table_game(table.ruleset).setup_payload(table, 0)))
    state = session.character_state()
    assert isinstance(state, CharacterState) and state.characters
    first = state.characters[0]
    assert state.find(first.id) is first and state.find("nobody") is None


def test_a_game_without_characters_is_refused_what_names_a_character(tmp_path: Path) -> None:
    """The toy Coin Flick keeps no characters: the commands that bind, or end a character's turn, refuse in
    words instead of failing on a missing attribute."""
    (tmp_path / "coins.yaml").write_text("flicks: 2\n", encoding="utf-8")
    registry = TagRegistry([RegisteredPiece("coin-1", b"\x04\xa1", "hero")])
    with registered(coin_flick(tmp_path)):
        session = TableSession()
        session.apply(Record(1, AT, "daemon", "setup", {"ruleset": NAME, "player": "ann"}))
        assert session.state is not None and session.character_state() is None
        with pytest.raises(CommandRefused, match="no character 'ann' in this game"):
            records_for("bind", {"character": "ann", "piece": "coin-1"}, session, registry)
        with pytest.raises(CommandRefused, match="end_turn: no character is taking a turn"):
            records_for("end_turn", {}, session, registry)
