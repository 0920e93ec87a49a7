"""The table's side of the hub's catch-up: publish the event log record by record, answer requests for more.

Runs beside the daemon (``smartmat hub ship-log --log table.sqlite --table t1 --broker mqtt://logship:…``),
reading the event log file (SQLite in WAL mode, so reading never blocks the daemon's writes) and publishing
on the table's own broker, which the bridge forwards to the hub:

- each new record on ``smartmat/<t>/log`` as ``{"game", "record"}`` (QoS 1);
- the newest record it holds on the retained ``smartmat/<t>/log/head`` as ``{"game", "seq"}``, so a hub that
  returns sees at once how far behind it is;
- on ``smartmat/<t>/log/request`` ``{"game", "after"}`` it publishes the records after ``after`` again.

Records go out as the daemon writes them: the shipper watches the log's folder (inotify,
service/hub/file_watch.py) and reads on each change, with a look every second besides in case a change
slipped by; where no watch can be had it looks every 50 ms.

``game`` names a log by its table and first record (``game_id``): a table that starts a new log starts a new
game, and the hub never mixes the records of two games that both have a seq 5.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from service.eventlog import Record
from service.eventlog.base import StoredRow
from service.hub.file_watch import watch_folder
from service.hub.topics import LOG, LOG_HEAD, LOG_REQUEST, table_topic
from service.publish.topics import check_id
from service.publish.transport import InboundMessage, MqttTransport

log = logging.getLogger(__name__)
SAFETY_POLL_S = 1.0  # with a watch: a look now and then in case a change slipped by
FALLBACK_POLL_S = 0.05  # without one
# The looks after each change until SQLite's commit is readable: the writer updates the WAL's index (a
# shared memory file, whose writes no watch sees) after the WAL itself, later on a loaded machine.
SETTLE_S = (0.002, 0.005, 0.01, 0.03, 0.1, 0.3)


class LogReader(Protocol):
    def records(self, after_seq: int = 0) -> list[Record]: ...

    def close(self) -> None: ...


class ReadOnlyLog:
    """The table's event log opened read-only: the shipper can never write to it, nor race the daemon
    creating a new one (it waits until the daemon's schema is there)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        self._db.execute("PRAGMA busy_timeout=5000")
        ready = self._db.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'"
        ).fetchone()[0]
        if not ready:
            self._db.close()
            raise FileNotFoundError(f"the event log {self.path} is still being created")

    def records(self, after_seq: int = 0) -> list[Record]:
        cursor = self._db.execute(
            "SELECT seq, at, by, kind, payload FROM events WHERE seq > ? ORDER BY seq", (after_seq,)
        )
        return [StoredRow(*row).to_record() for row in cursor]

    def close(self) -> None:
        self._db.close()


def game_id(first: Record, table: str) -> str:
    """A log's name: the hash of its table and its first record, the same on the table, the hub and in an
    export. The table is part of it: tables set up from one table file, started in the same second, write
    the same first record."""
    return hashlib.sha256(f"{table}\n{first.to_line()}".encode()).hexdigest()[:16]


class LogShipper:
    def __init__(
        self,
        table: str,
        open_log: Callable[[], LogReader],
        transport: MqttTransport,
        poll_s: float = 0.2,
        identity: Callable[[], object] | None = None,
        watch: Callable[[Callable[[], None]], Any] | None = None,
    ) -> None:
        """``open_log`` opens the table's event log; ``identity`` (e.g. the file's inode) changes when the
        table starts a new log, and the shipper then reopens it. ``watch(wake)`` starts a watch that calls
        ``wake`` whenever the log may have grown (or returns None if it cannot): the shipper then reads at
        once and ``poll_s`` is only the safety interval."""
        self.table = check_id(table, "table id")
        self._open_log = open_log
        self._identity = identity or (lambda: None)
        self._transport = transport
        self._poll_s = poll_s
        self._log: LogReader | None = None
        self._log_identity: object = None
        self._game: str | None = None
        self._shipped = 0
        self._requests: list[tuple[str | None, int]] = []
        self._waiting_for_file = False
        self.wakes = 0  # how often it looked at the log (a test checks a quiet log costs little)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"logship-{table}", daemon=True)
        self._watch = watch
        self._watcher: Any = None

    @property
    def game(self) -> str | None:
        return self._game

    def start(self) -> None:
        if self._watch is not None:
            self._watcher = self._watch(self._wake.set)
            if self._watcher is None:
                self._poll_s = min(self._poll_s, FALLBACK_POLL_S)
        self._transport.start(self._on_connect, self._on_message)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self._watcher is not None:
            self._watcher.close()
        self._transport.flush(2.0)
        self._transport.stop()
        if self._log is not None:
            self._log.close()

    def _on_connect(self) -> None:
        self._transport.subscribe(table_topic(self.table, LOG_REQUEST), 1)
        with self._lock:
            # Republish the head after every reconnect; the records themselves are queued by the client.
            self._requests.append((None, -1))
        self._wake.set()

    def _on_message(self, message: InboundMessage) -> None:
        if message.retain:
            return  # a stale request the broker kept: the hub asks again when it needs to
        try:
            request = json.loads(message.payload)
            after = request["after"]
            game = request.get("game")
            if not isinstance(after, int) or after < 0 or not (game is None or isinstance(game, str)):
                raise ValueError("'after' must be a whole number ≥ 0 and 'game' text or null")
        except (ValueError, KeyError, TypeError) as exc:
            log.error("log request on %s refused: %s (payload %.80r)", message.topic, exc, message.payload)
            return
        with self._lock:
            self._requests.append((game, after))
        self._wake.set()

    def _run(self) -> None:
        settle: list[float] = []
        while not self._stop.is_set():
            try:
                self._step()
            except FileNotFoundError as exc:
                if not self._waiting_for_file:
                    log.warning("table %s: %s; waiting for the daemon to create it", self.table, exc)
                self._waiting_for_file = True
            except Exception:  # a locked or replaced file: log, and try again at the next poll
                log.exception("shipping the event log of %s failed; retrying", self.table)
                self._close_log()
            # A change seen in the folder may come a moment before SQLite's commit is readable (the WAL's
            # frames are written before its index): look again shortly after, then wait for the next one.
            timeout = settle.pop(0) if settle else self._poll_s
            if self._wake.wait(timeout):
                self._wake.clear()
                settle = list(SETTLE_S)
            self.wakes += 1

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
        self._log = None

    def _step(self) -> None:
        identity = self._identity()
        if self._log is None or identity != self._log_identity:
            self._close_log()
            self._log = self._open_log()
            self._log_identity = identity
            self._game, self._shipped = None, 0
        if self._game is None:
            first = self._log.records(after_seq=0)[:1]
            if not first:
                return
            self._game = game_id(first[0], self.table)
            log.info("table %s: shipping game %s", self.table, self._game)
        with self._lock:
            requests, self._requests = self._requests, []
        for game, after in requests:
            if after >= 0 and (game is None or game == self._game):
                self._publish_records(self._log.records(after_seq=after))
            # A request about a log this table no longer holds is answered by the head alone (below): it
            # tells the hub which game is current.
        new = self._log.records(after_seq=self._shipped)
        if new:
            self._publish_records(new)
            self._shipped = new[-1].seq
        if new or requests:
            head = {"game": self._game, "seq": self._shipped}
            self._transport.publish(table_topic(self.table, LOG_HEAD), _compact(head), qos=1, retain=True)

    def _publish_records(self, records: list[Record]) -> None:
        topic_name = table_topic(self.table, LOG)
        for record in records:
            message = {"game": self._game, "record": record.to_json()}
            self._transport.publish(topic_name, _compact(message), qos=1, retain=False)


def _compact(value: dict[str, Any]) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sqlite_log_shipper(
    table: str, path: Path, transport: MqttTransport, poll_s: float = SAFETY_POLL_S, watch: bool = True
) -> LogShipper:
    def identity() -> object:
        try:
            stat = os.stat(path)
        except OSError:
            return None
        return (stat.st_dev, stat.st_ino)

    def open_existing() -> ReadOnlyLog:
        # Never create the table's log: a shipper started before the daemon waits for the file.
        if not Path(path).exists():
            raise FileNotFoundError(f"no event log at {path} yet")
        return ReadOnlyLog(path)

    def watch_log(wake: Callable[[], None]) -> object:
        resolved = Path(path).resolve()
        return watch_folder(resolved.parent, wake, prefix=resolved.name)

    return LogShipper(
        table, open_existing, transport, poll_s=poll_s, identity=identity, watch=watch_log if watch else None
    )
