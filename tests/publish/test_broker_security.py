"""The shipped Mosquitto configuration (deploy/mosquitto/) enforces the roles, against a real Mosquitto."""

from __future__ import annotations

import getpass
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.publish import PahoTransport, TablePublisher, topics
from tests.helpers.broker import MosquittoBroker, free_port
from tests.helpers.mqtt_probe import MqttProbe
from tests.publish.game_snapshots import barracks

pytestmark = pytest.mark.broker
DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto"
T = "smartmat/table-1"
PASSWORDS = {
    "daemon": "d-pw",
    "referee": "r-pw",
    "dashboard": "f-pw",
    "spectator": "s-pw",
    "tracker": "t-pw",
    "wled-bridge": "b-pw",
    "camera": "c-pw",
    "board-1": "1-pw",
    "board-2": "2-pw",
}
DEVICES = ("board-1", "board-2")
REQUEST = {"txn": "t1", "actor": "referee:anna", "command": "undo", "args": {}}


def make_password_file(
    target: Path, passwords: dict[str, str], devices: tuple[str, ...] = DEVICES
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **{f"SMARTMAT_MQTT_{role.upper().replace('-', '_')}_PASSWORD": pw for role, pw in passwords.items()},
    }
    return subprocess.run(
        [str(DEPLOY / "make-passwords.sh"), str(target), *devices],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )


def production_config(tmp_path: Path, port: int) -> Path:
    """The shipped smartmat.conf with only the port and file locations changed for the test."""
    password_file = tmp_path / "passwords"
    make_password_file(password_file, PASSWORDS)
    lines = []
    for line in (DEPLOY / "smartmat.conf").read_text().splitlines():
        if line.startswith("listener "):
            line = f"listener {port} 127.0.0.1"
        elif line.startswith("password_file "):
            line = f"password_file {password_file}"
        elif line.startswith("acl_file "):
            line = f"acl_file {DEPLOY / 'acl'}"
        lines.append(line)
    lines += ["persistence false", f"user {getpass.getuser()}"]
    config = tmp_path / "smartmat.conf"
    config.write_text("\n".join(lines) + "\n")
    return config


@pytest.fixture
def secured_broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    port = free_port()
    broker = MosquittoBroker("127.0.0.1", port, production_config(tmp_path, port), tmp_path / "mosquitto.log")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def login(broker: MosquittoBroker, role: str) -> MqttProbe:
    return MqttProbe(broker.host, broker.port, role, PASSWORDS[role], client_id=f"test-{role}")


def test_strangers_and_wrong_passwords_are_turned_away(secured_broker: MosquittoBroker) -> None:
    with pytest.raises(PermissionError):
        MqttProbe(secured_broker.host, secured_broker.port)
    with pytest.raises(PermissionError):
        MqttProbe(secured_broker.host, secured_broker.port, "referee", "guess")


def test_only_the_referee_can_command_the_table(secured_broker: MosquittoBroker) -> None:
    with (
        login(secured_broker, "daemon") as daemon,
        login(secured_broker, "spectator") as spectator,
        login(secured_broker, "tracker") as tracker,
        login(secured_broker, "referee") as referee,
    ):
        daemon.subscribe(f"{T}/cmd/request")
        # Each publish is acknowledged only after the broker has routed it, so anything allowed through would
        # reach the daemon before the referee's own request does.
        spectator.publish(f"{T}/cmd/request", {**REQUEST, "txn": "from-spectator"})
        tracker.publish(f"{T}/cmd/request", {**REQUEST, "txn": "from-tracker"})
        referee.publish(f"{T}/cmd/request", {**REQUEST, "txn": "from-referee"})
        seen = daemon.wait_for(lambda seen: any(s.json()["txn"] == "from-referee" for s in seen))
        assert [s.json()["txn"] for s in seen] == ["from-referee"]


def test_the_daemons_game_reaches_each_role_as_allowed(secured_broker: MosquittoBroker) -> None:
    with (
        login(secured_broker, "spectator") as spectator,
        login(secured_broker, "tracker") as tracker,
        login(secured_broker, "referee") as referee,
    ):
        spectator.subscribe(f"{T}/#")
        tracker.subscribe(f"{T}/#")
        referee.subscribe(f"{T}/#")
        transport = PahoTransport(secured_broker.url("daemon", PASSWORDS["daemon"]), "smartmat-table-1")
        table = TablePublisher("table-1", transport)
        table.start()
        try:
            assert transport.wait_connected(5)
            table.publish_state(barracks(), seq=12)
            table.publish_event({"type": "damage", "text": "The Troll hits Xoric (2 damage)"}, seq=13)
            last = f"{T}/event"
            for role in (spectator, referee):
                role.wait_for(lambda seen: any(s.topic == last for s in seen))
                assert role.latest(f"{T}/state").json()["seq"] == 12  # type: ignore[union-attr]
                assert role.latest(f"{T}/tracker/troll/health").payload == b"3"  # type: ignore[union-attr]
            tracker.wait_for(
                lambda seen: (
                    {f"{T}/tracker/{c}/health" for c in ("hero-xoric", "troll")} <= {s.topic for s in seen}
                )
            )
            heard = {s.topic for s in tracker.seen}
            assert f"{T}/state" not in heard and last not in heard, "trackers read no snapshot and no events"
            assert tracker.latest(f"{T}/status").payload == b"online"  # type: ignore[union-attr]
        finally:
            table.stop()


def test_a_restarted_daemon_may_clear_the_stale_characters_it_finds(secured_broker: MosquittoBroker) -> None:
    with login(secured_broker, "daemon") as crashed_run:
        crashed_run.publish(f"{T}/character/goblin-1", {"id": "goblin-1", "health": 1}, retain=True)
        crashed_run.publish(f"{T}/tracker/goblin-1/health", "1", retain=True)
    with login(secured_broker, "spectator") as spectator:
        spectator.subscribe(f"{T}/#")
        table = TablePublisher.connect_to("table-1", secured_broker.url("daemon", PASSWORDS["daemon"]))
        try:
            table.publish_state(barracks(goblin=False), seq=14)
            spectator.wait_for(
                lambda seen: [s.payload for s in seen if "goblin-1" in s.topic][-2:] == [b"", b""]
            )
        finally:
            table.stop()


def test_no_one_but_the_daemon_can_forge_the_game(secured_broker: MosquittoBroker) -> None:
    with login(secured_broker, "spectator") as spectator, login(secured_broker, "referee") as referee:
        spectator.subscribe(f"{T}/#")
        spectator.publish(f"{T}/state", {"seq": 999, "phase": "game_over"}, retain=True)
        referee.publish(f"{T}/tracker/hero-xoric/health", "0", retain=True)
        referee.publish(f"{T}/cmd/request", REQUEST)  # allowed, but spectators do not read commands
        daemon = login(secured_broker, "daemon")
        try:
            daemon.publish(f"{T}/status", "online", retain=True)
        finally:
            daemon.close()
        seen = spectator.wait_for(lambda seen: any(s.topic == f"{T}/status" for s in seen))
        assert [s.topic for s in seen] == [f"{T}/status"]
    with login(secured_broker, "referee") as late_referee:
        late_referee.subscribe(f"{T}/#")
        seen = late_referee.wait_for(lambda seen: bool(seen))
        assert [s.topic for s in seen] == [f"{T}/status"], "no forged retained state was kept"


def test_the_password_script_generates_what_is_not_given(tmp_path: Path) -> None:
    result = make_password_file(tmp_path / "etc" / "passwords", {"referee": "chosen"}, devices=("board-7",))
    generated = dict(line.split(": ", 1) for line in result.stdout.splitlines() if "(generated;" in line)
    assert sorted(generated) == [
        "board-7",
        "camera",
        "daemon",
        "dashboard",
        "spectator",
        "tracker",
        "wled-bridge",
    ]
    assert "SMARTMAT_MQTT_WLED_BRIDGE_PASSWORD" in generated["wled-bridge"]
    entries = dict(line.split(":", 1) for line in (tmp_path / "etc" / "passwords").read_text().splitlines())
    assert sorted(entries) == [
        "board-7",
        "camera",
        "daemon",
        "dashboard",
        "referee",
        "spectator",
        "tracker",
        "wled-bridge",
    ]
    assert all(hashed.startswith("$7$") for hashed in entries.values()), "stored hashed, never in clear"
    assert "chosen" not in (tmp_path / "etc" / "passwords").read_text()
    assert (tmp_path / "etc" / "passwords").stat().st_mode & 0o007 == 0, "not world-readable"
    assert list((tmp_path / "etc").iterdir()) == [tmp_path / "etc" / "passwords"], "no plain-text leftovers"


def acl_rules() -> dict[str, set[tuple[str, str]]]:
    """Each user's topic rules; the patterns (which apply to every account) under the key "pattern"."""
    rules: dict[str, set[tuple[str, str]]] = {"pattern": set()}
    user = ""
    for line in (DEPLOY / "acl").read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "user":
            user = words[1]
            rules[user] = set()
        elif words[0] == "topic":
            rules[user].add((words[1], words[2]))
        elif words[0] == "pattern":
            rules["pattern"].add((words[1], words[2]))
    return rules


def test_the_acl_grants_exactly_what_the_topic_contract_says() -> None:
    def granted(access: str, kinds: tuple[str, ...]) -> set[tuple[str, str]]:
        return {(access, topics.kind_filter(kind)) for kind in kinds}

    own_tree = f"{topics.WLED_ROOT}/%u"
    assert acl_rules() == {
        "pattern": granted("read", topics.TRACKER_READS)
        | {("read", own_tree), ("read", f"{own_tree}/#"), ("read", topics.WLED_GROUP)}
        | {("write", f"{own_tree}/{report}") for report in topics.WLED_DEVICE_REPORTS},
        "daemon": granted("write", topics.DAEMON_PUBLISHES) | granted("read", topics.DAEMON_READS),
        "referee": granted("write", topics.REFEREE_PUBLISHES) | {("read", "smartmat/#")},
        "dashboard": granted("read", topics.SPECTATOR_READS),
        "spectator": granted("read", topics.SPECTATOR_READS),
        "tracker": granted("read", topics.TRACKER_READS),
        "camera": granted("write", topics.CAMERA_PUBLISHES) | granted("read", topics.CAMERA_READS),
        "wled-bridge": granted("read", topics.TRACKER_READS)
        | granted("write", topics.WLED_BRIDGE_PUBLISHES)
        | {("read", f"{topics.WLED_ROOT}/+/status"), ("write", f"{topics.WLED_ROOT}/+/api")},
    }
    assert not any(
        access != "read" for access, topic in acl_rules()["pattern"] if topic.startswith("smartmat/")
    )


def test_no_account_can_knock_the_daemon_off_the_broker(secured_broker: MosquittoBroker) -> None:
    """Every account connecting over and over with the daemon's id (or the daemon's account name as its id)
    leaves the daemon connected: the broker names each client after its account."""
    with login(secured_broker, "referee") as watcher:
        watcher.subscribe(f"{T}/status")
        daemon_id = "smartmat-daemon-table-1"  # a fixed id, as a stranger would guess it
        transport = PahoTransport(secured_broker.url("daemon", PASSWORDS["daemon"]), daemon_id)
        table = TablePublisher("table-1", transport)
        table.start()
        try:
            assert transport.wait_connected(5)
            watcher.wait_for(lambda seen: any(s.payload == b"online" for s in seen))
            for _ in range(3):
                for role in ("spectator", "tracker", "dashboard", "wled-bridge", "board-1", "referee"):
                    for stolen in (daemon_id, "daemon"):
                        intruder = MqttProbe(
                            secured_broker.host, secured_broker.port, role, PASSWORDS[role], client_id=stolen
                        )
                        intruder.close()
                        assert transport.connected, f"{role} with client id {stolen!r} knocked the daemon off"
            table.publish_state(barracks(), seq=3)
            watcher.wait_for(lambda seen: seen[-1].payload == b"online")
            assert [s.payload for s in watcher.on(f"{T}/status")].count(b"offline") == 0
        finally:
            table.stop()


def test_trackers_are_read_only_and_each_device_writes_only_its_own_reports(
    secured_broker: MosquittoBroker,
) -> None:
    with (
        login(secured_broker, "board-1") as device,
        login(secured_broker, "wled-bridge") as bridge,
        login(secured_broker, "tracker") as tracker,
        login(secured_broker, "board-2") as other_device,
        login(secured_broker, "spectator") as spectator,
    ):
        device.subscribe("wled/board-1/#")
        bridge.subscribe("wled/+/status")
        spectator.subscribe(f"{T}/#")
        tracker.publish("wled/board-1/api", {"on": False, "from": "tracker"})
        tracker.publish(f"{T}/tracker/hero-xoric/health", "0")
        other_device.publish("wled/board-1/api", {"on": False, "from": "board-2"})
        other_device.publish("wled/board-1/status", "offline")  # another device's report: refused
        device.publish(
            "wled/board-1/api", {"on": False, "from": "board-1"}
        )  # its own picture: only the bridge
        device.publish("wled/board-1/status", "online")  # its own report: allowed
        bridge.publish("wled/board-1/api", {"on": True, "from": "wled-bridge"})
        seen = device.wait_for(lambda seen: any(s.topic == "wled/board-1/api" for s in seen))
        assert [s.json()["from"] for s in seen if s.topic == "wled/board-1/api"] == ["wled-bridge"]
        statuses = bridge.wait_for(lambda seen: bool(seen))
        assert [(s.topic, s.payload) for s in statuses] == [("wled/board-1/status", b"online")]
        assert spectator.on(f"{T}/tracker/hero-xoric/health") == []


def test_only_the_camera_process_feeds_the_table_its_camera(secured_broker: MosquittoBroker) -> None:
    """A stranger with any other account can neither blind the table's camera (a false "offline") nor show it
    false discs: only the camera account writes the camera's topics (docs/camera.md, docs/mqtt.md)."""
    frames, status = f"{T}/{topics.CAMERA_FRAMES}", f"{T}/{topics.CAMERA_STATUS}"
    with login(secured_broker, "daemon") as daemon:
        daemon.subscribe(f"{T}/camera/#")
        for role in ("spectator", "tracker", "dashboard", "wled-bridge", "board-1", "referee"):
            with login(secured_broker, role) as stranger:
                stranger.publish(frames, {"from": role})
                stranger.publish(status, {"from": role})
        with login(secured_broker, "camera") as camera:
            camera.publish(frames, {"from": "camera"})
        seen = daemon.wait_for(lambda seen: any(s.topic == frames for s in seen))
        assert [(s.topic, s.json()["from"]) for s in seen] == [(frames, "camera")]


def test_only_the_referee_asks_for_the_camera_view_and_spectators_never_see_it(
    secured_broker: MosquittoBroker,
) -> None:
    """The calibrate page's picture (docs/camera.md, "The camera step"): only the referee's channel may ask
    the camera for it, only the camera may answer, and no spectator account receives it."""
    ask, view = f"{T}/{topics.CAMERA_VIEW_ASK}", f"{T}/{topics.CAMERA_VIEW}"
    with (
        login(secured_broker, "camera") as camera,
        login(secured_broker, "referee") as referee,
        login(secured_broker, "spectator") as spectator,
        login(secured_broker, "dashboard") as dashboard,
    ):
        camera.subscribe(ask)
        referee.subscribe(view)
        spectator.subscribe(f"{T}/#")
        dashboard.subscribe(f"{T}/#")
        for role in ("spectator", "dashboard", "daemon", "tracker"):
            with login(secured_broker, role) as stranger:
                stranger.publish(ask, {"from": role})
                stranger.publish(view, {"from": role})
        referee.publish(ask, {"from": "referee"})
        asked = camera.wait_for(lambda seen: any(s.topic == ask for s in seen))
        assert [(s.topic, s.json()["from"]) for s in asked] == [(ask, "referee")]
        camera.publish(view, {"from": "camera"})
        answered = referee.wait_for(lambda seen: any(s.topic == view for s in seen))
        assert [(s.topic, s.json()["from"]) for s in answered] == [(view, "camera")]
        assert spectator.on(view) == [] and spectator.on(ask) == []
        assert dashboard.on(view) == []
