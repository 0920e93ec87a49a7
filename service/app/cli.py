"""``smartmat run`` (daemon, mat, broker, dashboard) and ``smartmat simulate`` (a simulated table)."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import sys
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from service.app.simulated import (
    SIMULATED_CAMERA_WAIT_S,
    run_simulation,
    start_camera_process,
    start_simulated_table,
)
from service.app.waiting import wait_until_stopped
from service.games import definition_of, game_names

log = logging.getLogger("smartmat")

DEFAULT_BROKER = os.environ.get("SMARTMAT_MQTT_URL", "mqtt://127.0.0.1:1883")
DEFAULT_DATA_DIR = Path(os.environ.get("SMARTMAT_STATE_DIR", "~/.local/state/smartmat")).expanduser()


def register_cli(subparsers: Any) -> None:
    run = subparsers.add_parser(
        "run",
        help="run a table: the daemon, and with no --serial a simulated mat, plus the dashboard",
        description="Run one smartmat table. With --serial it reads the real mat; without it a simulated mat "
        "and simulated players play a game on the same serial code path. The dashboard URL is printed.",
    )
    run.add_argument(
        "--table", default=os.environ.get("SMARTMAT_TABLE_FILE"), help="table file (default: demo)"
    )
    run.add_argument(
        "--ruleset",
        help=f"the game: {', '.join(game_names())}; without --table, the shipped demo table of that game "
        "(default: the table file's)",
    )
    run.add_argument(
        "--mode",
        choices=("team", "one-versus-one", "boss", "boss-versus-boss"),
        help="Catacombs & Castles: the mode played, one of the table file's game.modes (default: its "
        "game.mode)",
    )
    run.add_argument(
        "--expansion",
        action="append",
        default=[],
        help="Catacombs 3E: add a shipped expansion to the table's games (soloth; castles: Castles heroes, "
        "Dark Spells and the Castles playmat in the party's game); may be given more than once",
    )
    _the_mat_and_its_broker(run)
    _the_dashboard(run)
    _what_the_table_learns(run)
    run.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    run.set_defaults(func=run_table)

    sim = subparsers.add_parser(
        "simulate", help="a simulated table (mat + players) for a daemon started apart"
    )
    sim.add_argument("--table", default=None)
    sim.add_argument("--broker", default=DEFAULT_BROKER)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--no-players", action="store_true", help="only the mat: nobody plays")
    sim.add_argument("--seconds", type=float)
    sim.add_argument("--camera-out", type=Path, help="film every flick into this FIFO (the camera extra)")
    sim.add_argument("--camera-discs", type=Path, help="with --camera-out: write the discs file here")
    sim.set_defaults(func=run_simulation)


def _the_mat_and_its_broker(run: argparse.ArgumentParser) -> None:
    run.add_argument("--serial", default=os.environ.get("SMARTMAT_SERIAL"), help="the mat's serial port path")
    run.add_argument("--broker", default=DEFAULT_BROKER, help="MQTT URL mqtt://user:pass@host:port")
    run.add_argument(
        "--data-dir", type=Path, default=DEFAULT_DATA_DIR, help=f"event logs (default {DEFAULT_DATA_DIR})"
    )
    run.add_argument("--new-game", action="store_true", help="start a new event log instead of resuming")
    run.add_argument("--workers", type=int, default=0, help="attribution processes (0: one per core)")
    run.add_argument("--gpio", action="store_true", help="read the mat's buttons on the Pi's GPIO pins")
    run.add_argument(
        "--camera",
        choices=("none", "mqtt", "sim"),
        default=os.environ.get("SMARTMAT_CAMERA", "none"),
        help="an overhead camera (docs/camera.md): mqtt takes the frames of `smartmat camera run` from the "
        "broker; sim also starts a camera process on frames rendered of the simulated mat's shots",
    )
    run.add_argument(
        "--next-game-after",
        type=float,
        metavar="SECONDS",
        help="once a game is over, show its result this long, then start the next game by itself "
        "(default: 60 for the demo without --serial, so it runs all day; off with --serial: the referee "
        "starts the next game; 0 or less turns it off)",
    )


def _the_dashboard(run: argparse.ArgumentParser) -> None:
    run.add_argument("--dashboard-host", default="0.0.0.0")
    run.add_argument("--dashboard-port", type=int, default=8080, help="0 picks a free port")
    run.add_argument(
        "--public-url",
        help="the address phones open (printed, and in the QR code), e.g. http://192.168.1.20:8080/ "
        "(default: this machine's LAN address, found without sending anything)",
    )
    run.add_argument("--no-dashboard", action="store_true")
    run.add_argument(
        "--tls-cert",
        type=Path,
        default=os.environ.get("SMARTMAT_TLS_CERT") or None,
        help="PEM certificate: the dashboard serves HTTPS on --dashboard-tls-port and spectators only on "
        "--dashboard-port (default $SMARTMAT_TLS_CERT; `smartmat dashboard make-cert` makes one)",
    )
    run.add_argument("--tls-key", type=Path, default=os.environ.get("SMARTMAT_TLS_KEY") or None)
    run.add_argument("--dashboard-tls-port", type=int, default=8443, help="HTTPS port with --tls-cert")
    run.add_argument(
        "--spectator-broker",
        default=os.environ.get("SMARTMAT_MQTT_SPECTATOR_URL"),
        help="read-only MQTT URL for the dashboard's feed (default: --broker)",
    )
    run.add_argument(
        "--referee-broker",
        default=os.environ.get("SMARTMAT_MQTT_REFEREE_URL"),
        help="MQTT URL with the referee account, for the dashboard's commands (default: --broker)",
    )
    run.add_argument("--pin-file", type=Path, help="referee PIN file (default: one in --data-dir)")


def _what_the_table_learns(run: argparse.ArgumentParser) -> None:
    run.add_argument(
        "--calibration",
        type=Path,
        help="the table's calibration file, learnt from play and from the referee's answers, saved after "
        "each shot (docs/calibration.md); default: <data-dir>/<table>.calibration.json, starting from wide "
        "priors (the simulated mat's too, so the demo learns its mat as a new table does)",
    )
    run.add_argument(
        "--built-in-constants",
        action="store_true",
        help="the simulated mat only: read shots with the model's built-in constants taken as known (the "
        "simulated mat is built to them) and learn nothing; no calibration file",
    )
    run.add_argument(
        "--ignore-referee-answers",
        action="store_true",
        help="learn only from each shot's own evidence, not from the referee's answers to held shots "
        "(a comparison: benchmarks/demo_learning.py)",
    )
    run.add_argument(
        "--dump-traces", type=Path, help="append every live shot's trace to this JSON Lines file"
    )


def run_table(args: argparse.Namespace) -> int:
    from firmware_bridge.transport import SerialConnection
    from service.attribution.infer import AttributionConfig, shutdown_pool
    from service.common.systemd_notify import ServiceWatch, SystemdNotifier
    from service.daemon.camera_link import CameraLink
    from service.daemon.daemon import Daemon, DaemonOptions
    from service.eventlog.sqlite_log import SqliteEventLog
    from service.publish.embedded_broker import ensure_broker
    from service.publish.paho_transport import PahoTransport, unguessable_client_id
    from service.publish.publisher import TablePublisher

    table = chosen_table(args)
    args.data_dir.mkdir(parents=True, exist_ok=True)
    # systemd (Type=notify): STATUS= lines, READY=1 once the log is replayed and the table serves, WATCHDOG=1
    # while the mat and the broker are connected. Outside systemd the notifier does nothing.
    notifier = SystemdNotifier.from_environment()
    with ExitStack() as stack:
        notifier.status(f"table {table.table}: looking for the MQTT broker")
        broker, embedded = ensure_broker(args.broker, **stand_in_broker_policy(args.serial))
        if embedded is not None:
            stack.callback(embedded.stop)
        refuse_or_announce_an_open_broker(broker, embedded is not None, args.serial)
        port, camera_wait_s = _the_mat(args, stack, table, str(broker))
        log_path = args.data_dir / f"{table.table}.sqlite"
        if args.new_game and log_path.exists():
            archived = log_path.with_suffix(f".{secrets.token_hex(3)}.sqlite")
            log_path.rename(archived)
            log.info("previous game kept in %s", archived)
        notifier.status(f"table {table.table}: replaying the event log {log_path}")
        eventlog = stack.enter_context(SqliteEventLog(log_path))
        connection = stack.enter_context(SerialConnection(port))
        transport = PahoTransport(broker, client_id=unguessable_client_id(f"smartmat-daemon-{table.table}"))
        holder: dict[str, Daemon] = {}
        camera = CameraLink() if args.camera != "none" else None
        publisher = TablePublisher(
            table.table,
            transport,
            handler=lambda command: holder["daemon"].on_command(command),
            camera=camera.on_message if camera else None,
        )
        options = DaemonOptions(attribution=AttributionConfig(workers=args.workers, seed=None))
        options.camera, options.camera_wait_s = camera, camera_wait_s
        options.next_game_after_s = next_game_after(args.next_game_after, demo=args.serial is None)
        options.calibration = _calibration_keeper(args, table.table)
        options.sets_dir = args.data_dir / "sets"  # discs enrolled from the set-up page (docs/setup.md)
        if args.dump_traces:
            options.dump_traces = _trace_dumper(args.dump_traces)
        daemon = Daemon(
            table, connection, eventlog, publisher, size_of=piece_sizes(table.ruleset), options=options
        )
        holder["daemon"] = daemon
        say_which_game_resumes(daemon, args.mode)
        daemon.start()
        stack.callback(daemon.stop)
        stack.callback(shutdown_pool)
        daemon.run_in_thread()
        if args.gpio:
            from service.daemon.buttons import MatButtons

            stack.enter_context(MatButtons(daemon.on_button))
        url = None
        if not args.no_dashboard:
            url = start_dashboard(args, table.table, str(broker), stack)
        # Replayed (in Daemon()), published, reading the mat and serving: now systemd may call it started.
        check = health_check(daemon, table.table, port, broker)
        notifier.ready(check()[1])
        if notifier.enabled:
            stack.enter_context(ServiceWatch(notifier, check))
        print(f"smartmat: table {table.table} is running; event log {log_path}", flush=True)
        if url:
            print(f"smartmat: open {url} to watch (Ctrl-C stops)", flush=True)
        wait_until_stopped(args.seconds)
        notifier.stopping(f"table {table.table}: stopping")
        print("smartmat: stopping", flush=True)
    return 0


def _the_mat(args: argparse.Namespace, stack: ExitStack, table: Any, broker: str) -> tuple[str, float]:
    """The mat's serial port (the simulated mat's, with its camera under --camera sim), and how long a shot
    waits for its camera frames."""
    if args.serial is not None:
        return args.serial, 1.0
    camera_dir = args.data_dir / "camera" if args.camera == "sim" else None
    port = start_simulated_table(stack, table.path, broker, table.game.seed, camera_dir)
    log.info("no --serial given: playing on a SIMULATED mat at %s", port)
    if camera_dir is None:
        return port, 1.0
    start_camera_process(stack, table.table, camera_dir, broker)
    return port, SIMULATED_CAMERA_WAIT_S


def _calibration_keeper(args: argparse.Namespace, table: str) -> Any:
    """The table's calibration, learnt into its file in the data dir (or --calibration). The demo's too: its
    simulated referee answers the shots it holds, and those answers teach the table as a real referee's do;
    only --built-in-constants (the simulated mat, which is built to them) reads without learning."""
    from service.attribution.learning import CalibrationKeeper

    if args.built_in_constants:
        if args.serial is not None:
            raise SystemExit("smartmat: --built-in-constants is for the simulated mat; a real mat learns")
        if args.calibration is not None:
            raise SystemExit("smartmat: --built-in-constants reads no calibration file; drop --calibration")
        return None
    path = args.calibration or args.data_dir / f"{table}.calibration.json"
    keeper = CalibrationKeeper(path, table, learn_answers=not args.ignore_referee_answers)
    print(f"smartmat: table calibration {path} ({keeper.describe()})", flush=True)
    return keeper


def chosen_table(args: argparse.Namespace) -> Any:
    """The table file, or the shipped demo table of --ruleset, with --mode picked; a wrong choice is an
    error naming what is wrong before anything starts."""
    from service.sensing.tags import TableConfigError
    from service.table.config import load_table, shipped_tables, with_game

    path = args.table
    if path is None and args.ruleset is not None:
        path = shipped_tables().get(args.ruleset)
        if path is None:
            raise SystemExit(
                f"smartmat: no table plays {args.ruleset!r}; known: {', '.join(sorted(shipped_tables()))}"
            )
    try:
        return with_game(
            load_table(path),
            getattr(args, "ruleset", None),
            getattr(args, "mode", None),
            tuple(getattr(args, "expansion", None) or ()),
        )
    except TableConfigError as exc:
        raise SystemExit(f"smartmat: {exc}") from None


def say_which_game_resumes(daemon: Any, mode: str | None) -> None:
    """--mode chooses the next game; a game of another mode already in the log resumes (it is not thrown
    away unasked), and the console says so with the way to start afresh."""
    state = daemon.session.state
    playing = getattr(state, "mode", None)
    if mode is not None and playing is not None and playing != mode and state.outcome is None:
        print(
            f"smartmat: the event log resumes a {playing} game in play; --mode {mode} applies to the next "
            "game (add --new-game to start it now)",
            flush=True,
        )


def stand_in_broker_policy(serial: str | None) -> dict[str, Any]:
    """Only the demo (no --serial, not under systemd) may start the embedded broker when none answers."""
    from service.common.systemd_notify import under_systemd

    if serial is not None:
        return {"allow_embedded": False, "why_not": f"a real table (--serial {serial})"}
    if under_systemd():
        return {"allow_embedded": False, "why_not": "a service run by systemd"}
    return {"allow_embedded": True}


def refuse_or_announce_an_open_broker(broker: Any, embedded: bool, serial: str | None) -> None:
    """A broker that lets clients in without a password lets anyone who reaches it command the table and forge
    what every page and tracker shows. A real table refuses it; the demo runs on one and says so loudly."""
    from service.publish.paho_transport import accepts_anonymous

    if not embedded and not accepts_anonymous(broker):
        return  # it asks for accounts (or did not answer: the client keeps trying, as with any broker)
    if serial is not None:
        raise SystemExit(
            f"smartmat: the MQTT broker at {broker} lets clients in without a password: anyone who reaches "
            "it could command this table and forge what every page shows. A real table needs Mosquitto with "
            "its accounts and ACLs (sudo deploy/install.sh; docs/mqtt.md), and --broker "
            "mqtt://daemon:PASSWORD@127.0.0.1:1883"
        )
    banner = "!" * 100
    print(
        f"{banner}\n!!! DEMO ONLY: the MQTT broker at {broker} lets anyone in without a password.\n"
        "!!! Whoever can reach it can command this table and change what every page shows. Keep it on\n"
        "!!! this machine (a broker the demo starts listens on 127.0.0.1 only). A real table (--serial)\n"
        f"!!! refuses such a broker: it runs Mosquitto with accounts and ACLs (docs/security.md).\n{banner}",
        flush=True,
    )
    log.warning("the MQTT broker at %s accepts anonymous clients: demo only", broker)


def health_check(daemon: Any, table: str, port: str, broker: Any) -> Any:
    """(healthy, status line) for systemd: the mat's serial link, the broker and the game loop."""

    def check() -> tuple[bool, str]:
        health = daemon.health()
        parts = [
            "mat connected"
            if health.serial_link
            else "the mat's messages CANNOT BE KEPT (is the disk full?)"
            if not health.journal
            else f"NO MAT at {port} (reconnecting)",
            "MQTT connected"
            if health.mqtt
            else f"NO MQTT BROKER at {broker} (reconnecting; sudo systemctl start mosquitto)",
        ]
        if not health.game_loop:
            parts.append("the game loop is STUCK")
        if health.camera is not None:
            parts.append(health.camera)
        return health.ok, f"table {table} at seq {daemon.session.seq}: " + ", ".join(parts)

    return check


def start_dashboard(args: argparse.Namespace, table: str, broker: str, stack: ExitStack) -> str:
    from service.app.public_address import PublicUrlError, check_public_url
    from web_dashboard.server import serve_dashboard

    if args.public_url:
        try:
            check_public_url(args.public_url)
        except PublicUrlError as exc:
            raise SystemExit(f"smartmat: {exc}") from None
    pin_file = args.pin_file or args.data_dir / "referee-pin"
    _announce_the_pin(pin_file)
    config = {
        "HOST": args.dashboard_host,
        "PORT": args.dashboard_port,
        "TABLE": table,
        "MQTT_URL": args.spectator_broker or broker,
        "MQTT_REFEREE_URL": args.referee_broker or broker,
        "REFEREE_PIN_FILE": str(pin_file),
    }
    if args.tls_cert or args.tls_key:
        config.update(TLS_CERT=args.tls_cert, TLS_KEY=args.tls_key, TLS_PORT=args.dashboard_tls_port)
    try:
        server = serve_dashboard(config)
    except ValueError as exc:  # a missing or unreadable certificate or key
        raise SystemExit(f"smartmat: {exc}") from None
    stack.callback(server.stop)
    spectators = _public(args, str(server.spectator_url))
    # The console's QR code encodes this address, not the one the referee's browser happened to use.
    server.app.config["PUBLIC_URL"] = spectators
    if spectators != server.spectator_url:
        print(f"smartmat: dashboard listening on {server.spectator_url} (this machine)", flush=True)
    if server.fingerprint:
        referee = _public(argparse.Namespace(**{**vars(args), "public_url": None}), str(server.url))
        if args.public_url:  # the same host as the public address, on the HTTPS port
            referee = _same_port(str(server.url), args.public_url)
        print(f"smartmat: referee pages at {referee} (HTTPS)", flush=True)
        print(f"smartmat: TLS certificate SHA-256 fingerprint {server.fingerprint}", flush=True)
    return spectators


def _public(args: argparse.Namespace, served: str) -> str:
    """The served URL as a phone on the network opens it (--public-url, else the LAN address)."""
    from urllib.parse import urlsplit

    from service.app.public_address import public_base

    parts = urlsplit(served)
    base, warning = public_base(args.public_url, args.dashboard_host, parts.scheme, parts.port or 80)
    if warning:
        print(f"smartmat: {warning}", flush=True)
    return base


def _same_port(served: str, public_url: str) -> str:
    from urllib.parse import urlsplit

    served_parts, public = urlsplit(served), urlsplit(public_url)
    host = public.hostname or "localhost"
    host = f"[{host}]" if ":" in host else host
    return f"{served_parts.scheme}://{host}:{served_parts.port}/"


def _announce_the_pin(pin_file: Path) -> None:
    """On every start: the new PIN, or where the one set before is kept and how to set a new one."""
    from web_dashboard.security import write_pin_file

    if not pin_file.exists():
        pin = f"{secrets.randbelow(10**6):06d}"
        write_pin_file(pin_file, pin)
        print(f"smartmat: referee PIN for this table is {pin} (stored hashed in {pin_file})", flush=True)
        return
    print(
        f"smartmat: the referee PIN is the one set before (stored hashed in {pin_file}); to set a new one: "
        f"smartmat dashboard set-pin --pin-file {pin_file}",
        flush=True,
    )


def piece_sizes(ruleset: str) -> Any:
    """Monster card id -> piece class, from the game's shipped cards (disc sizes printed on them)."""
    game = definition_of(ruleset) if ruleset in game_names() else None
    if game is None or game.monster_piece_class is None:
        # No disc size to go by (no monsters, or none printed): warriors take their team's discs and a
        # monster a free disc of its family (service/table/bindings.py).
        return lambda card: None
    try:
        return game.monster_piece_class()
    except Exception:  # the size is a hint for handing out discs; a referee can always rebind
        log.exception("could not read monster disc sizes")
        return lambda card: None


def _trace_dumper(path: Path) -> Any:
    import json

    lock = threading.Lock()

    def dump(trace: dict[str, Any]) -> None:
        with lock, path.open("a") as out:
            out.write(json.dumps(trace, separators=(",", ":")) + "\n")

    return dump


DEMO_NEXT_GAME_AFTER_S = 60.0


def next_game_after(given: float | None, *, demo: bool) -> float | None:
    """How long a finished game's result stays up before the table starts the next game by itself."""
    if given is None:
        return DEMO_NEXT_GAME_AFTER_S if demo else None
    return given if given > 0 else None


if __name__ == "__main__":  # pragma: no cover
    from service.cli import main

    sys.exit(main(["run", *sys.argv[1:]]))
