"""The table daemon as `smartmat run --serial` builds it, plus a journal of what it promised, for fault runs.

Run as ``python -m tests.faults.daemon_child --serial PTY --broker URL --db FILE --table FILE
--journal FILE``.
The journal is written *after* each promise is made, one line per promise, so a line in it is a promise the
daemon really made before it died:

    append <seq> <kind> <by> <sha256 of the payload>     the event log's append() returned (durable)
    ack <boot_id> <seq> <last appended seq>               a device event was acknowledged to the mat
    answer <txn> <ok 0|1> <seq or ->                      a command was answered
    attribute                                             a shot's attribution started
    append-failed <kind> <by> <error>                     an append raised (nothing was stored)
    observed <sensor:t_us>...                             the shot segmenter closed a shot with these impacts
    start <pid>                                           this process started

Fault injection from inside (the parent cannot time these):

* ``--kill-in-append N:before-commit`` SIGKILLs the process at its Nth append, after the INSERT and before the
  COMMIT; ``N:during-commit`` fires the SIGKILL from another thread a random few hundred microseconds after
  the COMMIT began, while SQLite writes and fsyncs the WAL.
* ``--kill-in-attribution DELAY_S`` SIGKILLs it DELAY_S after the first attribution started, or as soon as
  that attribution returns if it is quicker: always before the shot's reading is appended (its ``shot``
  record, with the trace, is in the log already; the restarted daemon reads it again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from firmware_bridge.transport import SerialConnection
from service.app.cli import piece_sizes
from service.attribution.infer import AttributionConfig
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog.sqlite_log import SqliteEventLog
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.table.config import load_table


def payload_digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[
        :16
    ]


class Journal:
    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._lock = threading.Lock()

    def write(self, *words: object) -> None:
        line = (" ".join(str(w) for w in words) + "\n").encode()
        with self._lock:
            os.write(self._fd, line)  # in the kernel once this returns: a SIGKILL cannot lose it


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class JournaledLog(SqliteEventLog):
    def __init__(self, path: Path, journal: Journal, kill_in_append: str | None) -> None:
        super().__init__(path)
        self.journal = journal
        self.appends = 0
        self.kill_at, self.kill_mode = 0, ""
        if kill_in_append:
            at, _, mode = kill_in_append.partition(":")
            self.kill_at, self.kill_mode = int(at), mode
        self.trace_statements(self._traced)

    def _traced(self, statement: str) -> None:
        # Called by SQLite just before it runs each statement, inside append()'s transaction.
        if self.kill_at == 0 or self.appends + 1 != self.kill_at:
            return
        if statement.strip().upper() != "COMMIT":
            return
        if self.kill_mode == "before-commit":
            die()
        delay = random.uniform(0.0, 0.0015)
        threading.Thread(target=lambda: (time.sleep(delay), die()), daemon=True).start()

    def append(self, kind: str, payload: Any, by: str, *, at: str | None = None) -> int:
        try:
            seq = super().append(kind, payload, by, at=at)
        except Exception as exc:
            self.journal.write("append-failed", kind, by, type(exc).__name__)
            raise
        self.appends += 1
        self.journal.write("append", seq, kind, by, payload_digest(payload))
        return seq


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--serial", required=True)
    parser.add_argument("--broker", required=True)
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--table", required=True, type=Path)
    parser.add_argument("--journal", required=True, type=Path)
    parser.add_argument("--kill-in-append")
    parser.add_argument("--kill-in-attribution", type=float)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    journal = Journal(args.journal)
    journal.write("start", os.getpid())
    table = load_table(args.table)
    eventlog = JournaledLog(args.db, journal, args.kill_in_append)
    connection = SerialConnection(args.serial)
    real_acknowledge = connection.acknowledge

    def acknowledge(delivery: Any) -> None:
        real_acknowledge(delivery)
        if delivery.seq is not None:
            journal.write("ack", delivery.boot_id, delivery.seq, eventlog.last_seq())

    connection.acknowledge = acknowledge  # type: ignore[method-assign]

    real_attribute = DaemonOptions().attribute

    def attribute(trace: Any, config: Any) -> Any:
        journal.write("attribute")
        if args.kill_in_attribution is None:
            return real_attribute(trace, config)
        timer = threading.Timer(args.kill_in_attribution, die)
        timer.daemon = True
        timer.start()
        result = real_attribute(trace, config)
        die()  # quicker than the delay: still before the shot is recorded
        return result

    holder: dict[str, Daemon] = {}
    publisher = TablePublisher(
        table.table,
        PahoTransport(args.broker, client_id=f"smartmat-daemon-{table.table}"),
        handler=lambda command: holder["daemon"].on_command(command),
    )
    real_respond = publisher.respond

    def respond(txn: str, result: Any) -> None:
        real_respond(txn, result)
        seq = getattr(result, "seq", None)
        journal.write("answer", txn, int(bool(result.ok)), "-" if seq is None else seq)

    publisher.respond = respond  # type: ignore[method-assign]

    options = DaemonOptions(attribution=AttributionConfig(workers=1, seed=0), attribute=attribute)
    daemon = Daemon(
        table, connection, eventlog, publisher, size_of=piece_sizes(table.ruleset), options=options
    )
    holder["daemon"] = daemon
    real_on_shot = daemon.shots.on_shot

    def on_shot(shot: Any) -> None:
        journal.write("observed", *(f"{i.sensor_id}:{i.t_us}" for i in shot.impacts))
        real_on_shot(shot)

    daemon.shots.on_shot = on_shot  # type: ignore[method-assign]
    daemon.start()
    daemon.run_in_thread()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    daemon.stop()
    connection.close()
    eventlog.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
