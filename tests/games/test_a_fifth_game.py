"""A fifth game is its own package and one line in the registry (docs/architecture.md, "Adding a game").

Coin Flick (tests/games/fifth_game/coin_flick.py) is built only from what a game's package holds. Registered,
it is found by name, its content is checked by ``smartmat content check``, a game log of it replays, and a
table session plays it through to its end, with no module outside the games' packages naming it.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
from pathlib import Path

import pytest
import yaml

from service.eventlog.record import Record
from service.gamelog.replay import SetupError, replay
from service.games import SWISS, TournamentFormat, definition_of, find_game, game_names, registered, rulesets
from service.games.content_cli import run_check
from service.hub import exports
from service.hub.hub import Hub
from service.hub.model import TournamentError
from service.hub.store import HubStore
from service.mat.geometry import load_piece_classes
from service.sensing.tags import TableConfigError
from service.table.config import load_table
from service.table.games import piece_classes, table_game
from service.table.session import TableSession

from .fifth_game.coin_flick import NAME, CoinFlick, coin_flick

AT = "2026-11-28T12:00:00Z"


@pytest.fixture
def coins(tmp_path: Path) -> Path:
    (tmp_path / "coins.yaml").write_text("flicks: 2\n", encoding="utf-8")
    return tmp_path


def record(seq: int, kind: str, **payload: object) -> Record:
    return Record(seq, AT, "referee:ann" if kind != "setup" else "daemon", kind, dict(payload))


def flick(seq: int, *hits: str) -> Record:
    return record(seq, "action", action="resolve_shot", character="ann", shot="coin", direct_hits=list(hits))


def test_the_registry_finds_a_registered_game_by_its_setup_name_and_forgets_it_after(coins: Path) -> None:
    with registered(coin_flick(coins)) as game:
        assert find_game(NAME) is CoinFlick
        assert definition_of(NAME) is game
        assert game_names()[-1] == NAME
        assert rulesets()[NAME] is CoinFlick
    assert NAME not in game_names()
    with pytest.raises(ValueError, match="unknown rule set 'coin-flick'"):
        find_game(NAME)


def test_a_game_name_is_registered_once(coins: Path) -> None:
    with registered(coin_flick(coins)), pytest.raises(ValueError, match="'coin-flick' is registered already"):
        with registered(coin_flick(coins)):
            pass


def test_smartmat_content_check_runs_the_new_games_own_check(coins: Path) -> None:
    args = argparse.Namespace(ruleset=NAME, overlay=None, expansion=[])
    with registered(coin_flick(coins)):
        out = io.StringIO()
        assert run_check(args, out) == 0
        assert out.getvalue() == "coin-flick: 2 flicks\n"

        (coins / "coins.yaml").write_text("flicks: many\n", encoding="utf-8")
        out = io.StringIO()
        assert run_check(args, out) == 1
        assert (
            f"{coins / 'coins.yaml'}: flicks: expected a whole number of flicks, got 'many'" in out.getvalue()
        )


def test_a_table_session_plays_the_new_game_to_its_end(coins: Path) -> None:
    with registered(coin_flick(coins)):
        session = TableSession()
        assert session.apply(record(1, "setup", ruleset=NAME, player="ann"))[0]["type"] == "game_started"
        assert session.expected_shot() == {"shot": "coin", "character": "ann", "actor": "ann", "piece": "ann"}
        assert session.snapshot()["actions"] == [
            {"id": "ann:0", "label": "Flick the coin", "character": "ann"}
        ]

        session.apply(flick(2))  # the coin misses the cup: one flick left
        assert session.snapshot()["flicks_left"] == 1
        assert session.snapshot()["result"] is None

        events = session.apply(flick(3, "cup"))
        assert [e["type"] for e in events] == ["shot_resolved", "game_over"]
        snapshot = session.snapshot()
        assert snapshot["outcome"] == "ann"
        assert snapshot["actions"] == []
        assert snapshot["result"]["winner"] == "ann"


def test_the_new_games_rules_refuse_what_is_not_part_of_it(coins: Path) -> None:
    with registered(coin_flick(coins)):
        session = TableSession()
        session.apply(record(1, "setup", ruleset=NAME, player="ann"))
        with pytest.raises(Exception, match="only ann flicks, and only the coin"):
            session.check("action", {"action": "resolve_shot", "character": "bob", "shot": "coin"})


def test_a_game_log_of_the_new_game_replays(coins: Path) -> None:
    log = [record(1, "setup", ruleset=NAME, player="ann"), flick(2), flick(3)]
    with registered(coin_flick(coins)):
        result = replay(log)
    assert result.state.outcome == "cup"  # two misses: the cup wins
    assert result.state.flicks_left == 0


def test_broken_content_stops_the_setup_naming_the_file_and_key(coins: Path) -> None:
    (coins / "coins.yaml").write_text("flicks: 0\n", encoding="utf-8")
    with registered(coin_flick(coins)), pytest.raises(SetupError, match=r"coins.yaml: flicks: expected"):
        replay([record(1, "setup", ruleset=NAME, player="ann")])


def test_the_table_reads_the_new_games_behaviour_and_piece_classes_from_its_definition(coins: Path) -> None:
    with registered(coin_flick(coins)) as game:
        assert table_game(NAME) is game.table
        assert piece_classes(NAME) == load_piece_classes()  # no piece sets of its own: the common classes


def write_table(folder: Path, game: dict[str, object]) -> Path:
    path = folder / "coin-table.yaml"
    coin_disc = {"piece": "hero-ann", "uid": "04f8ac70043a75", "class": "hero"}
    table = {"table": "coin-1", "ruleset": NAME, "game": game, "tags": [coin_disc]}
    path.write_text(yaml.safe_dump(table), encoding="utf-8")
    return path


def test_a_table_file_for_the_new_game_is_checked_with_the_games_own_section_schema(coins: Path) -> None:
    with registered(coin_flick(coins)) as game:
        table = load_table(write_table(coins, {"player": "ann"}))
        assert table.ruleset == NAME
        assert game.table.setup_payload(table, games_so_far=0) == {"ruleset": NAME, "player": "ann"}


@pytest.mark.parametrize(
    ("section", "refusal"),
    [
        ({}, "game.player: missing"),
        ({"player": ""}, "game.player: expected the flicking player's name"),
        ({"player": "ann", "heroes": ["ann"]}, "game: unknown key(s) heroes"),  # a Catacombs key is not its
    ],
)
def test_a_broken_table_file_for_the_new_game_is_refused_naming_the_file_and_key(
    coins: Path, section: dict[str, object], refusal: str
) -> None:
    with registered(coin_flick(coins)), pytest.raises(TableConfigError) as refused:
        load_table(write_table(coins, section))
    assert str(refused.value).startswith(f"{coins / 'coin-table.yaml'}: {refusal}"), str(refused.value)


def test_a_table_file_for_a_game_nobody_registered_is_refused_naming_its_ruleset(coins: Path) -> None:
    with pytest.raises(TableConfigError, match=r"coin-table.yaml: ruleset: unknown rule set 'coin-flick'"):
        load_table(write_table(coins, {"player": "ann"}))


def test_the_hub_runs_a_tournament_format_the_new_game_offers(coins: Path) -> None:
    """The game's definition offers the format; the hub pairs it and offers each table the format's mode."""
    open_ = TournamentFormat("coin-flick-open", "Coin Flick, singles", SWISS, mode="singles")
    game = dataclasses.replace(coin_flick(coins), tournament_formats=(open_,))
    hub = Hub(HubStore(coins / "hub.sqlite"))
    with pytest.raises(TournamentError, match="'format' must be one of .*got 'coin-flick-open'"):
        hub.submit("event", {"name": "Coin Open", "format": "coin-flick-open"}, "organiser")
    with registered(game):
        hub.submit("event", {"name": "Coin Open", "format": "coin-flick-open"}, "organiser")
        for player in ("ann", "bob"):
            hub.submit("entrant", {"id": player, "name": player.title()}, "organiser")
        hub.pair_next_round("organiser", ["t1"])
        assert hub.tournament.is_swiss and not hub.tournament.is_campaign
        offer = hub.match_offers()["t1"]
        assert offer is not None
        assert (offer["format"], offer["mode"], offer["round"]) == ("coin-flick-open", "singles", 1)
        assert "092 Individual: Swiss-System" in exports.to_trf(hub.tournament)
