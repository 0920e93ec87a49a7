"""A 3E game's setup record includes the Castles heroes through the castles expansion (docs/game-log.md,
"expansions"; catacombs-and-castles-2e-manual.md: Catacombs 3E Integration), from a table file, the
set-up wizard or ``smartmat run --expansion castles``; its log replays to the same state."""

from __future__ import annotations

import pytest

from service.gamelog.replay import replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A
from service.sensing.tags import TableConfigError
from service.table.config import load_table, with_game
from service.table.games import table_game
from service.table.session import TableSession
from service.table.setup_game import SetupRefused, setup_payload


def test_the_castles_table_writes_the_expansion_into_its_setup_record() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes ("A party of heroes
    may be composed of both regular heroes and Catacomb heroes")."""
    table = load_table("castles-in-3e-demo")
    setup = table_game(table.ruleset).setup_payload(table, 0)
    assert setup["expansions"] == ["castles"] and "hakoru" in setup["heroes"]
    log = LogWriter()
    log.setup(setup)
    log.action(A.EnterRoom(playmat="castles-front"))
    log.action(A.Decide("d1", "start-zone-b"))
    result = replay(log.records)
    assert result.rejected == []
    assert result.state.room_id == "the-barracks" and result.state.playmat == "castles-front"


def test_the_wizard_chooses_castles_heroes_for_a_3e_game() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration (a 3E game can include them)."""
    table = load_table("demo")
    lord = "vasesak-the-sorcerer"
    choice = {"heroes": ["xoric", "cahreliss"], "lord": lord, "expansions": ["castles"]}
    setup = setup_payload(choice, table, 0)
    assert setup["expansions"] == ["castles"]
    assert "expansions" not in setup_payload({"heroes": ["xoric"], "lord": lord}, table, 0)
    with pytest.raises(SetupRefused, match="expansions"):
        setup_payload({"heroes": ["xoric"], "lord": lord, "expansions": "castles"}, table, 0)


def test_run_adds_an_expansion_to_a_3e_table_only() -> None:
    """``smartmat run --expansion castles`` (docs/setup.md)."""
    table = with_game(load_table("demo"), expansions=("castles",))
    assert table_game(table.ruleset).setup_payload(table, 0)["expansions"] == ["castles"]
    with pytest.raises(TableConfigError, match="Catacombs 3E"):
        with_game(load_table("castles-demo"), expansions=("castles",))


def test_the_table_shows_the_games_expansions_and_the_wizard_keeps_the_others() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration. The snapshot's ``table.expansions`` is
    what the set-up wizard starts from: ticking or unticking the Castles cards must not drop Soloth."""
    table = with_game(load_table("demo"), expansions=("soloth", "castles"))
    setup = table_game(table.ruleset).setup_payload(table, 0)
    log = LogWriter()
    log.setup(setup)
    session = TableSession.replay(log.records)
    assert session.snapshot()["table"]["expansions"] == ["soloth", "castles"]
    assert TableSession().snapshot().get("table", {}).get("expansions", []) == []
