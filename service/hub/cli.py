"""``smartmat hub …``: the tournament hub and the organiser's commands (docs/tournaments.md).

    smartmat hub bridge-config --tables t1,t2 --central-host hub.local --out DIR
    smartmat hub new --db hub.sqlite --name "Spring Open" --format FORMAT    (see --help)
    smartmat hub add-entrant --db hub.sqlite ada "Ada Lovelace"       (or: import-entrants FILE.csv)
    smartmat hub add-referee --db hub.sqlite rita --role table --tables t1,t2
    smartmat hub serve --db hub.sqlite --broker mqtt://hub:PASSWORD@127.0.0.1:1883
    smartmat hub pair --db hub.sqlite --tables t1,t2,t3
    smartmat hub standings|export|replay|correct|withdraw --db hub.sqlite …
    smartmat hub ship-log --table t1 --log /var/lib/smartmat/events.sqlite --broker mqtt://logship:…@127.0.0.1

The commands that change the tournament append to the same file the running hub reads; it picks them up.
"""

from __future__ import annotations

import argparse
import csv
import getpass
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.games import tournament_formats
from service.hub import exports
from service.hub.bridge_config import BridgeConfigError, BridgePlan, write_bundle
from service.hub.hub import Hub
from service.hub.model import TournamentError
from service.hub.store import HubStore, HubStoreError
from service.publish.broker_url import BrokerUrlError
from service.publish.topics import TopicError, check_id

log = logging.getLogger(__name__)
DEFAULT_DB = os.environ.get("SMARTMAT_HUB_DB", "hub.sqlite")
ORGANISER = "organiser"


def register_cli(subparsers: Any, serve: Callable[[argparse.Namespace], int] | None = None) -> None:
    """The hub's commands. ``serve`` runs `smartmat hub serve`: the composition root passes it
    (``service/app/hub_serve.py``), as the hub's pages are the web server's; without it there is no serve."""
    hub = subparsers.add_parser("hub", help="the tournament hub: many tables, one standings page")
    commands = hub.add_subparsers(dest="hub_command", metavar="HUB_COMMAND")
    hub.set_defaults(func=lambda args: (hub.print_help(), 2)[1])

    bridge = commands.add_parser(
        "bridge-config", help="Mosquitto files for the central broker and each table"
    )
    bridge.add_argument("--tables", required=True, help="table ids, comma-separated: t1,t2,t3")
    bridge.add_argument("--central-host", required=True, help="the hub machine's address, as tables reach it")
    bridge.add_argument("--central-port", type=int, default=1883)
    bridge.add_argument(
        "--central-dir", default="/etc/mosquitto/smartmat-hub", help="where the central files go"
    )
    bridge.add_argument("--out", type=Path, required=True, help="folder to write the files into")
    bridge.set_defaults(func=_bridge_config)

    _register_the_tournament(commands)
    _register_its_rounds(commands)
    _register_the_running_hub(commands, serve)


def _with_db(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--db", type=Path, default=Path(DEFAULT_DB), help="the hub's file (SMARTMAT_HUB_DB)")
    return parser


def _register_the_tournament(commands: Any) -> None:
    """Before the day: the tournament, its entrants and its referees."""
    new = _with_db(commands.add_parser("new", help="create the tournament"))
    new.add_argument("--name", required=True)
    formats = tournament_formats()
    new.add_argument(
        "--format",
        required=True,
        choices=list(formats),
        help="the tournament the games offer: " + "; ".join(f"{f.name}: {f.title}" for f in formats.values()),
    )
    new.set_defaults(func=_new)

    entrant = _with_db(commands.add_parser("add-entrant", help="register a player, team or party"))
    entrant.add_argument("id")
    entrant.add_argument("name")
    entrant.add_argument("--members", default="", help="a team's members, comma-separated")
    entrant.add_argument("--table", help="a campaign party's table")
    entrant.set_defaults(func=_add_entrant)

    imported = _with_db(commands.add_parser("import-entrants", help="register entrants from a CSV file"))
    imported.add_argument("csv", type=Path, help="columns id, name and optionally members (a;b;c), table")
    imported.set_defaults(func=_import_entrants)

    withdraw = _with_db(commands.add_parser("withdraw", help="an entrant leaves: no longer paired"))
    withdraw.add_argument("entrant")
    withdraw.add_argument("--reason", required=True)
    withdraw.set_defaults(func=_withdraw)

    referee = _with_db(commands.add_parser("add-referee", help="a referee and their PIN (asked for)"))
    referee.add_argument("name")
    referee.add_argument("--role", choices=("table", "head"), required=True)
    referee.add_argument("--tables", default="", help="the tables a table referee signs off")
    referee.set_defaults(func=_add_referee)


def _register_its_rounds(commands: Any) -> None:
    """During the day: pairing rounds, correcting results, standings, exports and the games' logs."""
    pair = _with_db(commands.add_parser("pair", help="pair the next Swiss round"))
    pair.add_argument("--tables", required=True, help="tables to use, top board first: t1,t2,t3")
    pair.set_defaults(func=_pair)

    correct = _with_db(commands.add_parser("correct", help="a head referee corrects a signed-off result"))
    correct.add_argument("--referee", required=True, help="the head referee (their PIN is asked for)")
    correct.add_argument("--round", type=int, required=True)
    correct.add_argument("--table", required=True)
    correct.add_argument("--winner")
    correct.add_argument("--rooms-cleared", type=int)
    correct.add_argument("--gold", type=int)
    correct.add_argument("--reason", required=True)
    correct.set_defaults(func=_correct)

    standings = _with_db(commands.add_parser("standings", help="print the standings"))
    standings.add_argument("--json", action="store_true")
    standings.set_defaults(func=_standings)

    export = _with_db(commands.add_parser("export", help="standings and results as CSV, JSON or TRF"))
    export.add_argument("--format", choices=("standings-csv", "results-csv", "json", "trf"), required=True)
    export.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")
    export.set_defaults(func=_export)

    replay = _with_db(commands.add_parser("replay", help="replay any game the hub holds"))
    replay.add_argument("game", help="the game id (in results and on the overview)")
    replay.add_argument("--upto", type=int, help="stop at this record (a result's final_seq)")
    replay.add_argument("--jsonl", action="store_true", help="print the game log instead of its state")
    replay.set_defaults(func=_replay)

    imported_log = _with_db(
        commands.add_parser("import-log", help="add a table's exported game log to the hub")
    )
    imported_log.add_argument("--table", required=True)
    imported_log.add_argument("log", type=Path, help="JSON Lines, from `smartmat eventlog export`")
    imported_log.set_defaults(func=_import_log)


def _register_the_running_hub(commands: Any, serve: Callable[[argparse.Namespace], int] | None) -> None:
    """The processes: the hub itself (when the composition root gives its serve), and the log shipper beside
    each table's daemon."""
    if serve is not None:
        about = "run the hub: follow every table, serve the pages"
        pages = _with_db(commands.add_parser("serve", help=about))
        pages.add_argument(
            "--broker", default=os.environ.get("SMARTMAT_HUB_MQTT_URL", "mqtt://127.0.0.1:1883")
        )
        pages.add_argument("--host", default="0.0.0.0")
        pages.add_argument("--port", type=int, default=8090)
        pages.add_argument(
            "--table-url",
            default=os.environ.get("SMARTMAT_HUB_TABLE_URL", ""),
            help="each table's dashboard, e.g. http://{table}.local:8080/",
        )
        pages.add_argument(
            "--table-link",
            action="append",
            default=[],
            metavar="TABLE=URL",
            help="one table's dashboard, with host and port (tables on one host): t1=http://10.0.0.5:8081/",
        )
        pages.add_argument(
            "--public-url",
            default=os.environ.get("SMARTMAT_HUB_PUBLIC_URL", ""),
            help="the address phones open, e.g. http://192.168.1.20:8090 "
            "(default: this machine's LAN address)",
        )
        pages.set_defaults(func=serve)

    ship = commands.add_parser("ship-log", help="on a table: publish its event log for the hub")
    ship.add_argument("--table", help="the table id (or --table-file)")
    ship.add_argument("--table-file", type=Path, help="the table's file, which names the table")
    ship.add_argument("--log", type=Path, help="the table's event log file (or --data-dir)")
    ship.add_argument(
        "--data-dir", type=Path, help="the daemon's --data-dir: the log is <data-dir>/<table>.sqlite"
    )
    ship.add_argument(
        "--broker", default=os.environ.get("SMARTMAT_LOGSHIP_MQTT_URL", "mqtt://127.0.0.1:1883")
    )
    ship.set_defaults(func=_ship_log)


def _fail(message: str) -> int:
    print(f"smartmat hub: {message}", file=sys.stderr)
    return 1


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _open(args: argparse.Namespace) -> Hub:
    return Hub(HubStore(args.db))


def _submit(args: argparse.Namespace, kind: str, payload: dict[str, Any], by: str = ORGANISER) -> int:
    try:
        hub = _open(args)
        record = hub.submit(kind, payload, by)
    except (TournamentError, HubStoreError) as exc:
        return _fail(str(exc))
    print(f"{kind} recorded (record {record.seq})")
    hub.store.close()
    return 0


def _bridge_config(args: argparse.Namespace) -> int:
    try:
        plan = BridgePlan(tuple(_split(args.tables)), args.central_host, args.central_port)
        passwords = write_bundle(plan, args.out, central_dir=args.central_dir)
    except (BridgeConfigError, TopicError) as exc:
        return _fail(str(exc))
    print(f"wrote {args.out}/central and {args.out}/tables/<table> (see docs/tournaments.md)")
    print(f"the hub connects with: mqtt://hub:{passwords['hub']}@127.0.0.1:{plan.central_port}")
    print(f"each table's log shipper with: mqtt://logship:{passwords['logship']}@127.0.0.1:1883")
    print(f"all passwords are in {args.out}/secrets.json (readable by you alone)")
    return 0


def _new(args: argparse.Namespace) -> int:
    return _submit(args, "event", {"name": args.name, "format": args.format})


def _add_entrant(args: argparse.Namespace) -> int:
    payload: dict[str, Any] = {"id": args.id, "name": args.name}
    if args.members:
        payload["members"] = _split(args.members)
    if args.table:
        payload["table"] = args.table
    return _submit(args, "entrant", payload)


def _import_entrants(args: argparse.Namespace) -> int:
    try:
        hub = _open(args)
        with args.csv.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, HubStoreError) as exc:
        return _fail(f"cannot read {args.csv}: {exc}")
    for line, row in enumerate(rows, start=2):
        payload: dict[str, Any] = {
            "id": (row.get("id") or "").strip(),
            "name": (row.get("name") or "").strip(),
        }
        if row.get("members"):
            payload["members"] = [m.strip() for m in row["members"].split(";") if m.strip()]
        if row.get("table"):
            payload["table"] = row["table"].strip()
        try:
            hub.submit("entrant", payload, ORGANISER)
        except TournamentError as exc:
            return _fail(f"{args.csv}, line {line}: {exc} (entrants before this line are registered)")
    print(f"{len(rows)} entrant(s) registered")
    return 0


def _withdraw(args: argparse.Namespace) -> int:
    return _submit(args, "withdraw", {"entrant": args.entrant, "reason": args.reason})


def _add_referee(args: argparse.Namespace) -> int:
    from service.common.pins import PinError, hash_pin

    pin = os.environ.get("SMARTMAT_HUB_PIN") or getpass.getpass(f"PIN for referee {args.name}: ")
    try:
        pin_hash = hash_pin(pin)
    except PinError as exc:
        return _fail(str(exc))
    payload = {"name": args.name, "role": args.role, "tables": _split(args.tables), "pin_hash": pin_hash}
    return _submit(args, "referee", payload)


def _pair(args: argparse.Namespace) -> int:
    try:
        hub = _open(args)
        record = hub.pair_next_round(ORGANISER, _split(args.tables))
    except (TournamentError, HubStoreError) as exc:
        return _fail(str(exc))
    names = {e.id: e.name for e in hub.tournament.entrants.values()}
    print(f"round {record.payload['number']}:")
    for match in record.payload["matches"]:
        if match["b"] is None:
            print(f"  bye: {names[match['a']]}")
        else:
            print(f"  {match['table']}: {names[match['a']]} v {names[match['b']]}")
    return 0


def _correct(args: argparse.Namespace) -> int:
    from service.common.pins import pin_matches

    try:
        hub = _open(args)
    except HubStoreError as exc:
        return _fail(str(exc))
    referee = hub.tournament.referees.get(args.referee)
    pin = os.environ.get("SMARTMAT_HUB_PIN") or getpass.getpass(f"PIN for referee {args.referee}: ")
    if referee is None or not pin_matches(referee.pin_hash, pin):
        log.warning("hub correction refused: unknown referee or wrong PIN for %r", args.referee)
        return _fail("unknown referee or wrong PIN")
    changes = {
        key: value
        for key, value in (
            ("winner", args.winner),
            ("rooms_cleared", args.rooms_cleared),
            ("gold", args.gold),
        )
        if value is not None
    }
    try:
        record = hub.correct(f"referee:{args.referee}", args.round, args.table, args.reason, **changes)
    except TournamentError as exc:
        return _fail(str(exc))
    print(f"correction recorded (record {record.seq})")
    return 0


def _standings(args: argparse.Namespace) -> int:
    try:
        rows = _open(args).standings()
    except HubStoreError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        if "points" in row:
            print(
                f"{row['rank']:3d}. {row['name']:<28} {row['points']:4.1f}  Bh {row['buchholz']:4.1f}"
                f"  SB {row['sonneborn_berger']:4.2f}  W {row['wins']}"
            )
        else:
            print(
                f"{row['rank']:3d}. {row['name']:<28} table {row['table']:<8} rooms {row['rooms_cleared']}"
                f"  gold {row['gold']}"
            )
    return 0


def _export(args: argparse.Namespace) -> int:
    try:
        hub = _open(args)
        tournament = hub.refresh()
        if args.format == "standings-csv":
            text = exports.to_csv(hub.standings())
        elif args.format == "results-csv":
            text = exports.to_csv(exports.results_rows(tournament))
        elif args.format == "json":
            text = exports.to_json(tournament, hub.standings())
        else:
            text = exports.to_trf(tournament)
    except (HubStoreError, ValueError) as exc:
        return _fail(str(exc))
    if args.output:
        args.output.write_text(text, encoding="utf-8", newline="")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def _replay(args: argparse.Namespace) -> int:
    from service.gamelog.cli import describe
    from service.gamelog.replay import SetupError, replay

    try:
        records = [r for r in _open(args).game_log(args.game) if args.upto is None or r.seq <= args.upto]
    except HubStoreError as exc:
        return _fail(str(exc))
    if not records:
        return _fail(f"the hub holds no game {args.game!r}")
    if args.jsonl:
        sys.stdout.write("".join(r.to_line() + "\n" for r in records))
        return 0
    try:
        result = replay(records)
    except SetupError as exc:
        return _fail(f"game {args.game}: {exc} (--jsonl prints its log)")
    view = result.state.public_view()
    view["seq"] = result.last_seq
    view["rejected"] = [{"seq": seq, "error": why} for seq, why in result.rejected]
    print(describe(view))
    return 0


def _import_log(args: argparse.Namespace) -> int:
    """For a log the table replaced before the hub held all of it: the hub stores what it lacks."""
    from service.eventlog import EventLogError, read_jsonl
    from service.hub.shipper import game_id

    try:
        check_id(args.table, "table id")
        records = read_jsonl(args.log)
    except (OSError, EventLogError, TopicError) as exc:
        return _fail(f"{args.log}: {exc}")
    if not records:
        return _fail(f"{args.log} holds no records")
    try:
        hub = _open(args)
        game = game_id(records[0], args.table)
        held = {game_id_ for game_id_, table, *_ in hub.store.games() if table != args.table}
        if game in held:
            return _fail(f"game {game} belongs to another table at the hub")
        added = sum(hub.store.add_game_record(game, args.table, r.to_json()) for r in records)
    except HubStoreError as exc:
        return _fail(str(exc))
    print(f"game {game} of table {args.table}: {added} record(s) added, {len(records) - added} already held")
    return 0


def _ship_log(args: argparse.Namespace) -> int:
    from service.hub.shipper import sqlite_log_shipper
    from service.publish.paho_transport import PahoTransport, unguessable_client_id

    table = args.table
    if table is None and args.table_file is not None:
        from service.sensing.tags import TableConfigError
        from service.table.config import load_table

        try:
            table = load_table(args.table_file).table
        except TableConfigError as exc:
            return _fail(str(exc))
    if table is None:
        return _fail("name the table: --table ID or --table-file FILE")
    log_path = args.log or (args.data_dir / f"{table}.sqlite" if args.data_dir else None)
    if log_path is None:
        return _fail("name the event log: --log FILE or --data-dir DIR")
    try:
        transport = PahoTransport(
            args.broker, unguessable_client_id(f"smartmat-logship-{table}"), keepalive_s=15
        )
        shipper = sqlite_log_shipper(table, log_path, transport)
    except (BrokerUrlError, TopicError) as exc:
        return _fail(str(exc))
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    shipper.start()
    print(f"shipping {log_path} for table {table} to {transport.url}")
    try:
        stop.wait()
    finally:
        shipper.stop()
    return 0
