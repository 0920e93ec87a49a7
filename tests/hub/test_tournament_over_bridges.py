"""A Castles One versus One Swiss played on bridged tables: real Mosquitto brokers (one per table, one
central), the tables' log shippers, and the hub. Results count only once the table's referee signs off;
a cut link and a hub restart lose nothing and count nothing twice."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from werkzeug.security import generate_password_hash

from service.hub import exports
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.model import NotAllowedError, TournamentError
from service.hub.store import HubStore
from service.publish.paho_transport import PahoTransport
from tests.hub.network import start_network
from tests.hub.tables import CastlesTable

pytestmark = [pytest.mark.broker, pytest.mark.slow]
TABLES = ["t1", "t2", "t3"]
PLAYERS = ["ada", "bo", "cy", "dee", "eli", "fay", "gus"]
PIN = generate_password_hash("2468", method="pbkdf2:sha256:1000")


def eventually(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


class RunningHub:
    def __init__(self, path: Path, url: str) -> None:
        self.hub = Hub(HubStore(path))
        self.feed = HubFeed(self.hub, PahoTransport(url, "smartmat-hub", keepalive_s=5), retry_s=0.3)
        self.feed.start()

    def stop(self) -> None:
        self.feed.stop()
        self.hub.store.close()


def set_up_tournament(hub: Hub) -> None:
    hub.submit("event", {"name": "Castles Open", "format": "castles-1v1"}, "organiser")
    for player in PLAYERS:
        hub.submit("entrant", {"id": player, "name": player.title()}, "organiser")
    hub.submit(
        "referee", {"name": "rita", "role": "table", "tables": ["t1", "t2"], "pin_hash": PIN}, "organiser"
    )
    hub.submit("referee", {"name": "tom", "role": "table", "tables": ["t3"], "pin_hash": PIN}, "organiser")
    hub.submit("referee", {"name": "hana", "role": "head", "tables": [], "pin_hash": PIN}, "organiser")


def held_everything(hub: Hub, table: CastlesTable) -> bool:
    view = hub.table_view(table.table)
    return view["log_held"] == table.log.last_seq() and view["log_head"] == table.log.last_seq()


def test_a_swiss_round_on_bridged_tables_with_a_cut_link_and_a_hub_restart(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: One versus One (each match is one game with one winner)."""
    network = start_network(tmp_path, TABLES)
    tables: dict[str, CastlesTable] = {}
    running = RunningHub(tmp_path / "hub.sqlite", network.hub_url())
    try:
        hub = running.hub
        set_up_tournament(hub)
        round_1 = hub.pair_next_round("organiser", TABLES)
        matches = round_1.payload["matches"]
        # Seven players: three games on the three tables (1 v 4, 2 v 5, 3 v 6 by seed) and a bye for the 7th;
        # the higher ranked takes the first side on odd boards (FIDE C.04.3 E.5), so Eli opens at t2.
        assert matches == [
            {"table": "t1", "a": "ada", "b": "dee"},
            {"table": "t2", "a": "eli", "b": "bo"},
            {"table": "t3", "a": "cy", "b": "fay"},
            {"table": "bye", "a": "gus", "b": None},
        ]
        for name in TABLES:
            tables[name] = CastlesTable(network, name, tmp_path)
        for match in matches[:3]:
            tables[match["table"]].start_game(match["a"], match["b"])
            tables[match["table"]].play(shots=4)
        eventually(lambda: all(held_everything(hub, t) for t in tables.values()))
        assert hub.table_view("t1")["online"] and hub.table_view("t1")["phase"] == "battle"

        # A game in play cannot be signed off, and only the table's own referee signs.
        with pytest.raises(TournamentError, match="has not ended"):
            hub.sign_off("referee:rita", "t1", winner="ada")

        # The central broker goes away (a cut link for every table); the tables play on.
        network.central.stop()
        tables["t1"].play(shots=30)
        tables["t1"].finish("ada")
        tables["t2"].play(shots=3)
        network.central.start()
        eventually(lambda: held_everything(hub, tables["t1"]) and held_everything(hub, tables["t2"]))
        assert hub.table_view("t1")["outcome"] == "ada"

        with pytest.raises(NotAllowedError, match="does not referee table t1"):
            hub.sign_off("referee:tom", "t1", winner="ada")
        with pytest.raises(TournamentError, match="the game's log says Ada won"):
            hub.sign_off("referee:rita", "t1", winner="dee")
        signed = hub.sign_off("referee:rita", "t1")  # the log names the winner: the referee confirms
        assert signed.payload["winner"] == "ada"
        assert signed.payload["final_seq"] == tables["t1"].log.last_seq() == 36
        with pytest.raises(TournamentError, match="already signed off"):
            hub.sign_off("referee:rita", "t1", winner="dee")

        # The hub stops; the tables finish meanwhile; a new hub on the same file catches up.
        running.stop()
        tables["t2"].play(shots=5)
        tables["t2"].finish("eli")
        tables["t3"].finish("time")  # stopped at time: the referee records a draw
        running = RunningHub(tmp_path / "hub.sqlite", network.hub_url())
        hub = running.hub
        assert hub.tournament.results[(1, "t1")].winner == "ada"  # the signed result survived the restart
        eventually(lambda: all(held_everything(hub, t) for t in tables.values()))
        hub.sign_off("referee:rita", "t2")
        with pytest.raises(TournamentError, match="still has games"):
            hub.pair_next_round("organiser", TABLES)
        hub.sign_off("referee:tom", "t3", winner="draw")

        # Every record of every game, once: ask every table for everything again and count.
        before = {game: len(hub.store.game_records(game)) for game, *_ in hub.store.games()}
        for name, table in tables.items():  # over MQTT and the bridges, as the hub asks
            running.feed.ask([(name, table.shipper.game, 0)])
        time.sleep(1.0)
        after = {game: len(hub.store.game_records(game)) for game, *_ in hub.store.games()}
        assert before == after == {t.shipper.game: t.log.last_seq() for t in tables.values()}
        assert [r["seq"] for r in hub.store.game_records(tables["t1"].shipper.game)] == list(range(1, 37))

        standings = {row["entrant"]: row for row in hub.standings()}
        assert [row["entrant"] for row in hub.standings()][:4] == ["ada", "eli", "gus", "cy"]
        assert standings["ada"]["points"] == 1.0 and standings["gus"]["byes"] == 1
        assert standings["cy"]["points"] == standings["fay"]["points"] == 0.5
        # Buchholz breaks the tie between the winners: Ada beat Dee (0), Eli beat Bo (0), Gus had a bye.
        assert standings["ada"]["buchholz"] == standings["eli"]["buchholz"] == 0.0

        # The head referee corrects a result, with a reason; the standings follow, the history stays.
        with pytest.raises(NotAllowedError):
            hub.correct("referee:rita", 1, "t3", "scoresheet", winner="cy")
        hub.correct(
            "referee:hana", 1, "t3", "the last shot was Fay's shield, reviewed from the log", winner="fay"
        )
        result = hub.tournament.results[(1, "t3")]
        assert result.winner == "fay" and result.signed_by == "referee:tom"
        assert result.corrections[0].by == "referee:hana" and "reviewed" in result.corrections[0].reason

        # The exports say the same: three signed results with their logs, the TRF's round-1 column.
        results = list(csv.DictReader(io.StringIO(exports.to_csv(exports.results_rows(hub.tournament)))))
        assert [(r["table"], r["winner"], r["signed_by"]) for r in results] == [
            ("t1", "ada", "referee:rita"),
            ("t2", "eli", "referee:rita"),
            ("t3", "fay", "referee:tom"),
        ]
        assert results[2]["corrected_by"] == "referee:hana"
        assert results[0]["game_log"] == f"/hub/games/{tables['t1'].shipper.game}/log.jsonl?upto=36"
        trf = exports.to_trf(hub.tournament).split("\r\n")
        ada = next(line for line in trf if line.startswith("001    1"))
        gus = next(line for line in trf if line.startswith("001    7"))
        assert (ada[80:84], ada[91:99]) == (" 1.0", "   4 w 1") and gus[91:99] == "0000 - U"

        round_2 = hub.pair_next_round("organiser", TABLES).payload["matches"]
        pairs = [{m["a"], m["b"]} for m in round_2]
        assert {"ada", "dee"} not in pairs and {"bo", "eli"} not in pairs  # no rematches
        assert not any(m["b"] is None and m["a"] == "gus" for m in round_2)  # no second bye
        winners = {"ada", "eli", "fay", "gus"}
        assert sum(1 for p in pairs if len(p) == 2 and p <= winners) == 2  # winners meet winners
    finally:
        for table in tables.values():
            table.close()
        running.stop()
        network.stop()
