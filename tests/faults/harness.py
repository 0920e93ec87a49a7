"""One fault run: a whole table (Mosquitto, the simulated mat and players, the daemon in a process of its
own), some faults at random moments, then the checks that nothing was lost.

Used by ``tests/faults/`` (a few fixed seeds) and ``benchmarks/fault_suite.py`` (many random ones).
Everything is on loopback; the broker is a private ``mosquitto -c <tmpconf>`` on a free port
(``tests/helpers/broker.py``).

Faults (``FAULT_KINDS``):

``kill``                SIGKILL the daemon at a random moment, restart it.
``kill_append``         the daemon SIGKILLs itself inside an event-log append: after the INSERT, before or
                        during the COMMIT (see ``daemon_child.py``), restart it.
``kill_attribution``    the daemon SIGKILLs itself while a shot is being attributed, restart it.
``broker_restart``      stop Mosquitto (no persistence: every retained message is gone), start it again.
``partition``           SIGSTOP Mosquitto for a few seconds (every client's TCP stream stalls), then SIGCONT.
``mcu_reboot``          the board reboots (new boot_id, its unacknowledged events gone) while events are in
                        flight.
``disk_full``           the event log's filesystem (a small tmpfs) fills up for a few seconds, then is freed.

Checks (``RunResult.problems``; an empty list is a passing run):

1. the log opens and passes ``smartmat eventlog check``; records are numbered without gaps;
2. every append the daemon saw return is in the log, same kind, author and payload (so every record an
   acknowledgement or an answer relied on);
3. every device event the daemon acknowledged came after the records its handling appended, and those are
   in the log; every command answered ``ok`` names a record that is in the log with the command's author;
4. every state the daemon ever published equals the replay of the log up to that state's ``seq``;
5. after the faults, with play stopped: the retained ``state`` on the broker (what phones and the dashboard
   read) equals the replay of the whole log, and every retained ``tracker/<id>/health`` equals that
   character's health in it, with no tracker left for a character that is gone.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import yaml
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.messages import Impact
from service.app.cli import piece_sizes
from service.eventlog.sqlite_log import SqliteEventLog
from service.simulator.table import Pace, SimulatedTable
from service.table.bindings import resolve_bindings
from service.table.session import TableSession
from tests.faults.daemon_child import payload_digest
from tests.helpers.broker import MosquittoBroker, die_with_parent, start_mosquitto
from tests.integration.live_table import quick_table

REPO = Path(__file__).resolve().parents[2]
FAULT_KINDS = (
    "kill",
    "kill_append",
    "kill_attribution",
    "broker_restart",
    "partition",
    "mcu_reboot",
    "disk_full",
)
PACE = Pace(think_s=0.05, shot_timeout_s=12.0, scan_period_s=0.4)
# What a published state and the replay must agree on: the game. (The table's own bookkeeping of a waiting
# shot is left out: a replay ending between a sure shot and its resolution hands that shot to the referee.)
COMPARED = ("phase", "round", "room", "turn", "characters", "gold", "expected_shot", "pending", "outcome")


class Recorder:
    """Everything published under the table's prefix, with a subscription renewed on every (re)connect."""

    def __init__(self, broker: MosquittoBroker, table: str) -> None:
        self.filter = f"smartmat/{table}/#"
        self.seen: list[tuple[str, bytes, bool]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"fault-recorder-{uuid.uuid4().hex[:8]}",
            protocol=mqtt.MQTTv311,
        )
        self.client.on_connect = lambda c, *a: c.subscribe(self.filter, 1)
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(0.2, 1)
        self.client.connect(broker.host, broker.port, keepalive=60)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.seen.append((message.topic, bytes(message.payload), bool(message.retain)))

    def states(self) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(p) for t, p, _ in self.seen if t.endswith("/state") and p]

    def responses(self) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(p) for t, p, _ in self.seen if t.endswith("/cmd/response") and p]

    def requests(self) -> dict[str, dict[str, Any]]:
        with self.lock:
            bodies = [json.loads(p) for t, p, _ in self.seen if t.endswith("/cmd/request") and p]
        return {b["txn"]: b for b in bodies if isinstance(b, dict) and "txn" in b}

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def retained(broker: MosquittoBroker, topic_filter: str, settle_s: float = 1.0) -> dict[str, bytes]:
    """What a phone or a tracker that connects now is given: the broker's retained messages."""
    got: dict[str, bytes] = {}
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"fault-phone-{uuid.uuid4().hex[:8]}")
    client.on_connect = lambda c, *a: c.subscribe(topic_filter, 1)
    client.on_message = lambda c, u, m: got.__setitem__(m.topic, bytes(m.payload)) if m.retain else None
    client.connect(broker.host, broker.port, keepalive=30)
    client.loop_start()
    done.wait(settle_s)
    client.loop_stop()
    client.disconnect()
    return got


@dataclass
class RunResult:
    seed: int
    faults: Counter[str] = field(default_factory=Counter)  # tried, by kind
    problems: list[str] = field(default_factory=list)
    records: int = 0
    acks: int = 0
    answers: int = 0
    states_checked: int = 0
    flicks: int = 0
    seconds: float = 0.0
    # Acknowledged impacts that no record holds, by the documented reason (see FaultRun.check_impacts).
    impacts_in_flight_at_kill: int = 0
    impacts_refused_by_full_disk: int = 0
    impacts_cut_by_reboot: int = 0
    impacts_set_aside: int = 0  # of movements the table's rules ignore (no shot expected, paused, waiting)
    boots: set[int] = field(default_factory=set)  # boot ids of the board whose events were acknowledged
    notes: list[str] = field(default_factory=list)
    # After each full disk: seconds from freeing it to the first acknowledgement of a board message sent after
    # that (the table reads the mat again by itself), and whether health said "not read" while it was full.
    recoveries_s: list[float] = field(default_factory=list)
    journal_checked: int = 0  # board messages an acknowledgement covered, each found in the device journal

    @property
    def ok(self) -> bool:
        return not self.problems


class FaultRun:
    def __init__(self, workdir: Path, seed: int, faults: list[str], *, log_to: Path | None = None) -> None:
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.seed = seed
        self.rng = random.Random(seed)
        self.plan = list(faults)
        self.result = RunResult(seed)
        self.table = quick_table(rooms=("the-mitholaq-hive", "the-barracks"), seed=seed % 1000 + 1)
        self.table_file = self.workdir / "table.yaml"
        shipped = yaml.safe_load(self.table.path.read_text())
        shipped["game"]["rooms"] = list(self.table.game.rooms or ())
        shipped["game"]["seed"] = self.table.game.seed
        self.table_file.write_text(yaml.safe_dump(shipped))
        self.data_dir = self.workdir / "data"
        self.data_dir.mkdir(exist_ok=True)
        self.mounted = False
        self.db = self.data_dir / "table.sqlite"
        self.journal = self.workdir / "journal.txt"
        self.daemon_log = log_to or self.workdir / "daemon.log"
        self.broker: MosquittoBroker | None = None
        self.sim: SimulatedTable | None = None
        self.recorder: Recorder | None = None
        self.daemon: subprocess.Popen[bytes] | None = None
        self.size_of = piece_sizes(self.table.ruleset)
        self.kills = 0

    # -- the table ------------------------------------------------------------------------------------
    def binder(self, state: Any, chosen: Any, previous: Any) -> dict[str, str]:
        return resolve_bindings(state, self.table.registry, chosen, previous, self.size_of)

    def start_daemon(self, *extra: str) -> None:
        assert self.sim is not None and self.broker is not None
        log = self.daemon_log.open("ab")
        self.daemon = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.faults.daemon_child",
                "--serial",
                self.sim.port,
                "--broker",
                self.broker.url(),
                "--db",
                str(self.db),
                "--table",
                str(self.table_file),
                "--journal",
                str(self.journal),
                *extra,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            preexec_fn=die_with_parent,  # a harness killed by a time limit takes its daemon with it
        )
        log.close()

    def kill_daemon(self) -> None:
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGKILL)
        if self.daemon is not None:
            self.daemon.wait(10)
        self.kills += 1

    def wait(self, predicate: Any, timeout_s: float, what: str) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.05)
        self.result.notes.append(f"timed out after {timeout_s:.0f} s waiting for {what}")
        return False

    def journal_lines(self) -> list[list[str]]:
        if not self.journal.exists():
            return []
        return [line.split() for line in self.journal.read_text().splitlines() if line.strip()]

    def last_state(self) -> dict[str, Any] | None:
        states = self.recorder.states() if self.recorder else []
        return states[-1] if states else None

    # -- faults -----------------------------------------------------------------------------------------
    def fault_kill(self) -> None:
        time.sleep(self.rng.uniform(0.0, 3.0))
        self.kill_daemon()
        self.start_daemon()

    def life(self) -> list[list[str]]:
        """The journal lines of the daemon process started last."""
        lines = self.journal_lines()
        starts = [n for n, words in enumerate(lines) if words[0] == "start"]
        return lines[starts[-1] :] if starts else []

    def fault_kill_append(self) -> None:
        mode = self.rng.choice(("before-commit", "during-commit"))
        nth = self.rng.randint(1, 3)
        self.kill_daemon()
        # A restarted daemon appends nothing until something happens: its Nth append is a game input.
        self.start_daemon("--kill-in-append", f"{nth}:{mode}")
        assert self.daemon is not None
        if self.wait(lambda: self.daemon.poll() is not None, 40, "a kill inside an append"):
            returned = sum(1 for w in self.life() if w[0] == "append")
            # during-commit: the SIGKILL may land inside the COMMIT or just after it returned
            where = (
                "before-commit"
                if mode == "before-commit"
                else ("after-commit" if returned >= nth else "in-commit")
            )
            self.result.faults[f"kill_append:{where}"] += 1
        else:
            self.kill_daemon()
            self.result.notes.append("kill_append: no append came in time; killed from outside instead")
        self.start_daemon()

    def fault_kill_attribution(self) -> None:
        self.kill_daemon()
        self.start_daemon("--kill-in-attribution", f"{self.rng.uniform(0.0, 1.5):.3f}")
        assert self.daemon is not None
        if self.wait(lambda: self.daemon.poll() is not None, 40, "a kill during an attribution"):
            life = self.life()
            last = max((n for n, w in enumerate(life) if w[0] == "attribute"), default=None)
            # The shot's record is appended before its attribution starts, its reading after it ends.
            if last is None or any(w[0] == "append" and w[2] == "attribution" for w in life[last:]):
                self.result.problems.append("kill_attribution: the daemon died outside an attribution")
            else:
                self.result.faults["kill_attribution:mid-shot"] += 1
        else:
            self.kill_daemon()
            self.result.notes.append("kill_attribution: no shot came in time; killed from outside instead")
        self.start_daemon()

    def fault_broker_restart(self) -> None:
        assert self.broker is not None
        time.sleep(self.rng.uniform(0.0, 2.0))
        self.broker.stop()
        time.sleep(self.rng.uniform(0.2, 2.0))
        self.broker.start()

    def fault_partition(self) -> None:
        assert self.broker is not None and self.broker.pid is not None
        time.sleep(self.rng.uniform(0.0, 2.0))
        pid = self.broker.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(self.rng.uniform(1.5, 5.0))
        finally:
            os.kill(pid, signal.SIGCONT)

    def fault_mcu_reboot(self) -> None:
        assert self.sim is not None
        board = self.sim.board
        # Events in flight: the board holds some the host has not acknowledged yet (a scan is dozens of them).
        board.wait_for(lambda: board.unacked_count > 0, timeout=5.0)
        in_flight = board.unacked_count
        board.reboot()
        self.result.notes.append(f"board rebooted with {in_flight} event(s) unacknowledged")

    def say(self, command: str, timeout_s: float = 15.0, **args: Any) -> dict[str, Any]:
        """Send a command as a referee would and wait for the daemon's answer (a refusal is an answer)."""
        assert self.recorder is not None and self.broker is not None
        txn = f"fault-{uuid.uuid4().hex}"
        body = {"txn": txn, "actor": "referee:fault-suite", "command": command, "args": args}
        topic = f"smartmat/{self.table.table}/cmd/request"
        self.recorder.client.publish(topic, json.dumps(body), qos=1)
        answer: dict[str, Any] = {}

        def answered() -> bool:
            answer.update(next((r for r in self.recorder.responses() if r.get("txn") == txn), {}))
            return bool(answer)

        self.wait(answered, timeout_s, f"an answer to {command}")
        return answer

    def fault_disk_full(self) -> None:
        filler = self.data_dir / "filler"
        time.sleep(self.rng.uniform(0.0, 1.0))
        if not self.mounted:
            self.result.notes.append("disk_full skipped: the data directory has no small filesystem")
            return
        failed_before = sum(1 for w in self.journal_lines() if w[0] == "append-failed")
        refusals_before = self.link_refusals()
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * 65536):
                    pass
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * 512):
                    pass
        finally:
            os.close(fd)
        # A referee pauses the table while the disk is full: the daemon cannot log it, so must refuse it.
        answer = self.say("pause", reason="fault suite: disk full")
        if answer.get("ok"):
            self.result.problems.append("a command was accepted while the event log's disk was full")
        time.sleep(self.rng.uniform(0.5, 3.0))
        full_states = [s for s in self.recorder.states()] if self.recorder else []
        assert self.sim is not None
        next_seq = self.sim.board.next_seq  # of the first message sensed once the disk has room again
        freed = time.monotonic()
        filler.unlink()
        if answer.get("ok"):
            self.say("resume")
        failed = sum(1 for w in self.journal_lines() if w[0] == "append-failed") - failed_before
        self.result.faults["disk_full:appends_refused"] += failed
        refused = self.link_refusals() - refusals_before
        self.result.faults["disk_full:journal_refused"] += refused
        if refused and not any((s.get("health") or {}).get("serial_link") is False for s in full_states):
            self.result.problems.append("health said the mat was read while its messages were refused")

        def read_again() -> bool:
            return any(w[0] == "ack" and int(w[2]) >= next_seq for w in self.journal_lines())

        if self.wait(read_again, 15, "the table to read the mat again after the disk had room"):
            self.result.recoveries_s.append(time.monotonic() - freed)
        else:
            self.result.problems.append("the table did not read the mat again within 15 s of space returning")

    def link_refusals(self) -> int:
        """Times the daemon's journal refused the board's messages (its log says so each time)."""
        return (
            self.daemon_log.read_text(errors="replace").count("could not keep")
            if self.daemon_log.exists()
            else 0
        )

    # -- the run ----------------------------------------------------------------------------------------
    def mount_small_disk(self) -> None:
        # A full disk needs a filesystem of its own: a small tmpfs (root only; the run says if it had none).
        size = "6m"
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "smartmat-faults", str(self.data_dir)],
            capture_output=True,
        )
        self.mounted = done.returncode == 0

    def run(self, play_s: float = 4.0, spread_s: float = 2.0) -> RunResult:
        """Play into the battle, then before each fault play on for 0.5 s to ``spread_s`` (so faults land
        at random points of the game), and ``play_s`` after the last one; then check."""
        started = time.monotonic()
        try:
            if "disk_full" in self.plan:
                self.mount_small_disk()
            self.broker = start_mosquitto(self.workdir / "broker")
            self.recorder = Recorder(self.broker, self.table.table)
            self.sim = SimulatedTable(self.table, self.broker.url(), seed=self.seed, pace=PACE).start()
            self.start_daemon()
            if self.wait(
                lambda: (self.last_state() or {}).get("phase") == "battle" and self.sim.flicks >= 1,
                60,
                "the first flick of the battle",
            ):
                for fault in self.plan:
                    time.sleep(self.rng.uniform(0.5, max(0.5, spread_s)))
                    getattr(self, f"fault_{fault}")()
                    self.result.faults[fault] += 1
                time.sleep(play_s)
            self.finish()
        except Exception as exc:  # a harness fault is a failed run, with its reason
            self.result.problems.append(f"run aborted: {type(exc).__name__}: {exc}")
        finally:
            self.tear_down()
        self.result.flicks = self.sim.flicks if self.sim else 0
        self.result.seconds = time.monotonic() - started
        return self.result

    def finish(self) -> None:
        """Stop play, let the daemon settle, check what phones and trackers hold, then kill it and check
        the log."""
        assert self.sim is not None and self.broker is not None
        if self.daemon is not None and self.daemon.poll() is not None:
            self.start_daemon()
        # The people stop playing (the board keeps scanning and the daemon keeps running).
        self.sim.stop_playing(timeout_s=30)
        # A flick still rolling or being attributed closes within the segmenter's motion timeout (8 s).
        self.wait(lambda: not self.open_shot_at_end(), 12, "the last shot to close")
        converged = self.wait(self.converged, 30, "phones and trackers to match the log")
        if not converged:
            self.result.problems.extend(self.convergence_problems())
        self.kill_daemon()
        self.check_log()

    def replay(self, records: list[Any]) -> dict[str, Any]:
        return TableSession.replay(records, binder=self.binder).snapshot()

    def read_log(self) -> list[Any]:
        with SqliteEventLog(self.db) as log:
            return log.records()

    def journaled_impacts(self) -> set[tuple[int, int]]:
        """(sensor, t_us) of every impact the daemon kept in the log's device journal."""
        with SqliteEventLog(self.db) as log:
            return {
                (e["message"]["sensor_id"], e["message"]["t_us"])
                for e in log.device_journal()
                if e["type"] == "Impact"
            }

    def convergence_problems(self) -> list[str]:
        assert self.broker is not None
        problems: list[str] = []
        try:
            records = self.read_log()
        except Exception as exc:
            return [f"the log does not open while the daemon runs: {exc}"]
        replayed = self.replay(records)
        prefix = f"smartmat/{self.table.table}/"
        held = retained(self.broker, prefix + "#", settle_s=0.8)
        state_bytes = held.get(prefix + "state")
        if not state_bytes:
            return ["no retained state on the broker"]
        state = json.loads(state_bytes)
        if state.get("seq") != len(records):
            problems.append(f"retained state is at seq {state.get('seq')}, the log at {len(records)}")
        for key in COMPARED:
            if state.get(key) != replayed.get(key):
                problems.append(f"retained state differs from the replay in {key!r}")
        health = {c["id"]: c["health"] for c in replayed.get("characters", [])}
        trackers = {
            topic[len(prefix) + len("tracker/") : -len("/health")]: payload
            for topic, payload in held.items()
            if topic.startswith(prefix + "tracker/") and payload
        }
        for character, payload in trackers.items():
            if character not in health:
                problems.append(f"tracker {character} still shows {payload.decode()} but is not in the game")
            elif payload.decode() != str(health[character]):
                problems.append(
                    f"tracker {character} shows {payload.decode()}, the log says {health[character]}"
                )
        for character in health:
            if character not in trackers:
                problems.append(f"no retained tracker for {character}")
        # The per-character topics the pages read, and the table's presence.
        characters = {c["id"]: c for c in replayed.get("characters", [])}
        for topic, payload in held.items():
            if not topic.startswith(prefix + "character/") or not payload:
                continue
            shown = {k: v for k, v in json.loads(payload).items() if k != "seq"}
            if shown != characters.get(topic[len(prefix) + len("character/") :]):
                problems.append(f"retained {topic[len(prefix) :]} differs from the replay")
        if held.get(prefix + "status") != b"online":
            problems.append(f"retained status is {held.get(prefix + 'status')!r}, the daemon is running")
        return problems

    def converged(self) -> bool:
        return not self.convergence_problems()

    def check_log(self) -> None:
        from service.cli import main as smartmat

        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = smartmat(["eventlog", "check", str(self.db)])
        if code != 0:
            self.result.problems.append(f"smartmat eventlog check failed: {out.getvalue().strip()}")
            return
        records = self.read_log()
        by_seq = {r.seq: r for r in records}
        self.result.records = len(records)
        if sorted(by_seq) != list(range(1, len(records) + 1)):
            self.result.problems.append("the log's records are not numbered 1..N")
        lines = self.journal_lines()
        for words in lines:
            if words[0] == "append":
                seq, kind, by, digest = int(words[1]), words[2], words[3], words[4]
                record = by_seq.get(seq)
                if record is None:
                    self.result.problems.append(
                        f"append {seq} ({kind} by {by}) returned but is not in the log"
                    )
                elif (record.kind, record.by, payload_digest(record.payload)) != (kind, by, digest):
                    self.result.problems.append(f"record {seq} is not the one whose append returned")
            elif words[0] == "ack":
                self.result.acks += 1
                self.result.boots.add(int(words[1]))
                if int(words[3]) > len(records):
                    self.result.problems.append(
                        f"device event {words[1]}/{words[2]} acknowledged after record {words[3]}, "
                        "which is not in the log"
                    )
            elif words[0] == "answer":
                self.result.answers += 1
                if words[2] == "1" and words[3] != "-" and int(words[3]) not in by_seq:
                    self.result.problems.append(
                        f"command {words[1]} answered ok with seq {words[3]}, not in the log"
                    )
        assert self.recorder is not None
        requests = self.recorder.requests()
        for response in self.recorder.responses():
            if response.get("ok") and response.get("seq") is not None:
                record = by_seq.get(response["seq"])
                actor = requests.get(response["txn"], {}).get("actor")
                if record is None:
                    self.result.problems.append(
                        f"answered ok with seq {response['seq']}, which is not in the log"
                    )
                elif actor is not None and record.by != actor:
                    self.result.problems.append(
                        f"record {record.seq} is by {record.by}, the command by {actor}"
                    )
        # Every state anyone was shown is the replay of the log up to it.
        session = TableSession(binder=self.binder)
        shown: dict[int, list[dict[str, Any]]] = {}
        for state in self.recorder.states():
            shown.setdefault(int(state["seq"]), []).append(state)
        if 0 in shown:
            del shown[0]
        for record in records:
            session.apply(record)
            for state in shown.pop(record.seq, []):
                self.result.states_checked += 1
                snapshot = session.snapshot()
                for key in COMPARED:
                    if state.get(key) != snapshot.get(key):
                        self.result.problems.append(f"state published at seq {record.seq} differs in {key!r}")
        for seq in shown:
            self.result.problems.append(
                f"a state at seq {seq} was published but the log ends at {len(records)}"
            )
        self.check_impacts(records, lines)
        self.check_device_journal(lines)

    def check_device_journal(self, lines: list[list[str]]) -> None:
        """Every board message an acknowledgement covered (acks are cumulative) is in the device journal."""
        assert self.sim is not None
        acked: dict[int, int] = {}
        for words in lines:
            if words[0] == "ack":
                boot, seq = int(words[1]), int(words[2])
                acked[boot] = max(acked.get(boot, -1), seq)
        with SqliteEventLog(self.db) as log:
            kept = {(e["boot_id"], e["seq"]) for e in log.device_journal()}
        covered = [e for e in self.sim.board.sent if e.seq <= acked.get(e.boot_id, -1)]
        if any(e.seq > 0xF000 for e in self.sim.board.sent):
            self.result.notes.append("device journal check skipped: the board's seq came near wrapping")
            return
        missing = [e for e in covered if (e.boot_id, e.seq) not in kept]
        self.result.journal_checked += len(covered)
        if missing:
            first = missing[0]
            self.result.problems.append(
                f"{len(missing)} acknowledged board message(s) are not in the device journal "
                f"(first: boot {first.boot_id:#x} seq {first.seq}, {type(first.message).__name__})"
            )

    def unlogged_impacts(self, records: list[Any], lines: list[list[str]]) -> list[tuple[Any, int]]:
        """Impacts the daemon acknowledged that no shot record holds, each with its acknowledging line."""
        assert self.sim is not None
        logged = {
            (i["sensor_id"], i["t_us"])
            for r in records
            if r.kind == "shot"
            for i in (r.payload.get("trace") or {}).get("impacts", [])
        }
        acks = [(n, int(w[1]), int(w[2])) for n, w in enumerate(lines) if w[0] == "ack"]
        found = []
        for event in self.sim.board.sent:
            if not isinstance(event.message, Impact):
                continue
            if (event.message.sensor_id, event.message.t_us) in logged:
                continue
            acked_at = next((n for n, boot, seq in acks if boot == event.boot_id and seq >= event.seq), None)
            if acked_at is not None:
                found.append((event, acked_at))
        return found

    def classify_unlogged(self, records: list[Any], lines: list[list[str]]) -> Counter[str]:
        """Why each acknowledged impact is in no shot record (the kinds are explained in check_impacts)."""
        starts = [n for n, words in enumerate(lines) if words[0] == "start"] + [len(lines)]
        kinds: Counter[str] = Counter()
        for event, acked_at in self.unlogged_impacts(records, lines):
            life_end = next(n for n in starts if n > acked_at)
            after = lines[acked_at:life_end]
            mark = f"{event.message.sensor_id}:{event.message.t_us}"
            observed = next((k for k, w in enumerate(after) if w[0] == "observed" and mark in w[1:]), None)
            if observed is not None:
                refused = any(w[0] == "append-failed" for w in after[observed:])
                kinds["full_disk" if refused else "set_aside"] += 1
            elif any(w[0] == "ack" and int(w[1]) != event.boot_id for w in after):
                kinds["board_reboot"] += 1
            elif life_end < len(lines):
                kinds["killed"] += 1
            else:
                kinds["open"] += 1
        return kinds

    def open_shot_at_end(self) -> bool:
        """Whether the daemon acknowledged impacts it has closed no shot over yet (it is still segmenting)."""
        try:
            records = self.read_log()
        except Exception:
            return False
        return self.classify_unlogged(records, self.journal_lines())["open"] > 0

    def check_impacts(self, records: list[Any], lines: list[list[str]]) -> None:
        """Device truth: every impact the host acknowledged is on disk, in a shot record or the journal.

        The daemon keeps each board message in the log's device journal, then feeds it to the shot
        segmenter and acknowledges it; the shot's record is appended when the shot ends (two agreeing scans
        later). An acknowledged impact in the journal but in no record had its shot still open as the daemon
        was killed (``killed``), or as the board rebooted (``board_reboot``), had its shot's record refused
        by a full disk (``full_disk``), or was set aside by the table's rules (``set_aside``: no shot
        expected, the game paused, a shot waiting for the referee). One in neither fails the run.
        """
        # The daemon keeps every board message in the device journal before acknowledging it: an
        # acknowledged impact that is neither in a shot record nor in the journal is lost.
        journaled = self.journaled_impacts()
        lost = [
            e
            for e, _ in self.unlogged_impacts(records, lines)
            if (e.message.sensor_id, e.message.t_us) not in journaled
        ]
        if lost:
            self.result.problems.append(
                f"{len(lost)} acknowledged impact(s) in neither a shot record nor the device journal"
            )
        kinds = self.classify_unlogged(records, lines)
        self.result.impacts_in_flight_at_kill = kinds["killed"]
        self.result.impacts_cut_by_reboot = kinds["board_reboot"]
        self.result.impacts_refused_by_full_disk = kinds["full_disk"]
        self.result.impacts_set_aside = kinds["set_aside"]
        # Kept in the journal but in no record: the flick was cut short by a kill, a reboot or a full disk,
        # or set aside by the table's rules; counted above, lost only if missing from the journal too.

    def tear_down(self) -> None:
        with contextlib.suppress(Exception):
            if self.daemon is not None and self.daemon.poll() is None:
                self.daemon.kill()
                self.daemon.wait(10)
        if self.sim is not None:
            with contextlib.suppress(Exception):
                self.sim.stop()
        if self.recorder is not None:
            with contextlib.suppress(Exception):
                self.recorder.close()
        if self.broker is not None:
            with contextlib.suppress(Exception):
                if self.broker.pid is not None:
                    os.kill(self.broker.pid, signal.SIGCONT)
                self.broker.stop()
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.data_dir)], capture_output=True)
            self.mounted = False
