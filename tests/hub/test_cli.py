"""``smartmat hub`` as an organiser types it: create, register, pair, export, import a log, replay."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from service.eventlog import SqliteEventLog
from service.hub import cli
from service.hub.hub import Hub
from service.hub.store import HubStore


def smartmat(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="smartmat")
    cli.register_cli(parser.add_subparsers())
    args = parser.parse_args(["hub", *argv])
    return int(args.func(args))


def test_an_organiser_runs_a_round_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "hub.sqlite")
    assert smartmat("new", "--db", db, "--name", "Club Night", "--format", "castles-1v1") == 0
    players = tmp_path / "players.csv"
    players.write_text("id,name\nada,Ada\nbo,Bo\ncy,Cy\n")
    assert smartmat("import-entrants", "--db", db, str(players)) == 0
    players.write_text("id,name\nBad Id,X\n")
    assert smartmat("import-entrants", "--db", db, str(players)) == 1
    assert "line 2: entrant: 'id' 'Bad Id' must be lower-case" in capsys.readouterr().err
    assert smartmat("pair", "--db", db, "--tables", "t1,t2") == 0
    out = capsys.readouterr().out
    assert "t1: Ada v Bo" in out and "bye: Cy" in out
    assert smartmat("export", "--db", db, "--format", "json") == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["event"] == "Club Night" and [r["entrant"] for r in exported["standings"]][0] == "cy"
    assert smartmat("export", "--db", db, "--format", "trf", "-o", str(tmp_path / "club.trf")) == 0
    assert (tmp_path / "club.trf").read_bytes().startswith(b"012 Club Night\r\n")


def test_a_replaced_log_is_imported_and_replays_from_the_hub(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/game-log.md: the game log a table exports replays anywhere, the hub included."""
    from tests.helpers.game_script import GameScript

    table = GameScript(rooms=("althea-the-healer",))
    try:
        assert table.send("enter_room")["ok"]
        exported = tmp_path / "t1.jsonl"
        with SqliteEventLog(tmp_path / "copy.sqlite") as copy:
            for record in table.eventlog.records():
                copy.append(record.kind, record.payload, record.by, at=record.at)
            copy.export_jsonl(exported)
    finally:
        table.close()
    db = str(tmp_path / "hub.sqlite")
    assert smartmat("import-log", "--db", db, "--table", "t1", str(exported)) == 0
    assert "record(s) added, 0 already held" in capsys.readouterr().out
    assert smartmat("import-log", "--db", db, "--table", "t1", str(exported)) == 0
    assert " 0 record(s) added" in capsys.readouterr().out
    game = Hub(HubStore(db)).store.games()[0][0]
    assert smartmat("replay", "--db", db, game) == 0
    assert "special_room" in capsys.readouterr().out


@pytest.mark.broker
def test_serve_and_ship_log_run_as_commands_and_stop_on_ctrl_c(tmp_path: Path) -> None:
    """The two long-running commands, as systemd starts them: a table's log reaches the hub's page."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.hub.network import start_network

    network = start_network(tmp_path, ["t1"])
    log = SqliteEventLog(tmp_path / "t1.sqlite")
    log.append("setup", {"ruleset": "catacombs-3e"}, "referee:anna")
    log.append("action", {"action": "x"}, "sensor")
    smartmat_cmd = [sys.executable, "-m", "service.cli", "hub"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ship = subprocess.Popen(
        [
            *smartmat_cmd,
            "ship-log",
            "--table",
            "t1",
            "--data-dir",
            str(tmp_path),
            "--broker",
            network.logship_url("t1"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    serve = subprocess.Popen(
        [
            *smartmat_cmd,
            "serve",
            "--db",
            str(tmp_path / "hub.sqlite"),
            "--broker",
            network.hub_url(),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    try:
        url = None
        while url is None:
            line = serve.stdout.readline()
            assert line, "smartmat hub serve exited"
            if line.startswith("hub: overview "):
                url = line.split()[2].removesuffix("/hub/")
        deadline = time.monotonic() + 20
        while True:
            tables = json.loads(urllib.request.urlopen(f"{url}/hub/api/overview").read())["tables"]
            if tables and tables[0]["log_held"] == 2:
                break
            assert time.monotonic() < deadline, tables
            time.sleep(0.1)
        for process in (serve, ship):
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=20) == 0
    finally:
        for process in (serve, ship):
            if process.poll() is None:
                process.kill()
        log.close()
        network.stop()
