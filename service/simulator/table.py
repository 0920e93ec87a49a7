"""A whole simulated table: the mat's physics and sensors behind the emulated board, and the people around it.

The people play the way people at a real smartmat table do. They read the published game (MQTT ``state``),
send what they decide through the same command channel as the turn controller (``cmd/request``), and act on
the mat with their hands: they put discs down, flick them, pick up destroyed monsters and spent ranged pieces,
and put back a disc that flew off the mat. The referee among them answers a doubtful shot by looking at the
table, which here means the ground truth of the last flick. The daemon sees none of this but the serial
port.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.emulator.board import EmulatedMat
from service.games import definition_of, game_names
from service.mat.geometry import load_mat, load_sensor_config
from service.publish import topics
from service.publish.broker_url import BrokerUrl
from service.simulator.hands import HandsOnTheMat
from service.simulator.players import (
    SimulatedPlayer,
)
from service.simulator.sensors import SensorModel
from service.simulator.source_physics import PhysicsSensorSource
from service.simulator.world import ShotRecord, World
from service.table.config import TableConfig
from service.table.games import piece_classes

log = logging.getLogger(__name__)


@dataclass
class Pace:
    think_s: float = 0.6  # between seeing the game change and acting on it
    shot_timeout_s: float = 20.0  # a flick the daemon never resolves is skipped after this long
    scan_period_s: float = 1.0  # the board scans on its own this often (and whenever asked)


class SimulatedTable(HandsOnTheMat):
    def __init__(
        self,
        table: TableConfig,
        broker: str | BrokerUrl,
        *,
        seed: int = 1,
        pace: Pace | None = None,
        port_dir: str | None = None,
        actor: str = "referee:simulated-table",
        play: bool = True,
    ) -> None:
        self.table = table
        self.broker = broker if isinstance(broker, BrokerUrl) else BrokerUrl.parse(broker)
        self.pace = pace or Pace()
        self.rng = random.Random(seed)
        self.actor = actor
        self.play = play
        self.mat = load_mat()
        self.classes = piece_classes(table.ruleset)
        # The table file's playmat (walls with gaps, fixed obstacles such as the Castles scenery), which the
        # daemon's attribution is told as well.
        self.world = World(self.mat, seed=seed, walls=table.walls, obstacles=table.obstacles)
        self.sensors = SensorModel(load_sensor_config(table.sensors), self.mat, seed=seed + 1)
        self.source = PhysicsSensorSource(
            self.world, self.sensors, scan_period_us=int(self.pace.scan_period_s * 1e6)
        )
        self.board = EmulatedMat(self.source, port_dir=port_dir)
        self.player = SimulatedPlayer(random.Random(seed + 2))
        self._state: dict[str, Any] | None = None
        self._state_changed = threading.Condition()
        self._responses: dict[str, dict[str, Any]] = {}
        self._client: mqtt.Client | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_shot: ShotRecord | None = None
        self.camera: Any = None  # a SimulatedCamera (sim_camera.py) filming each flick, when there is one
        self.flicks = 0
        # A shield piece flicked this turn -> the disc of the character whose sequence used it.
        self.shield_owners: dict[str, str] = {}
        self._target_token: str | None = None  # the character the Target Token was put on for the last flick
        self._visited: set[Any] = set()  # special rooms (by index) whose services the party has used
        self._check_tags()

    @property
    def port(self) -> str:
        return str(self.board.path)

    # -- life cycle -----------------------------------------------------------------------------------
    def start(self) -> SimulatedTable:
        self.board.start()
        if self.play:
            self._connect()
            self._thread = threading.Thread(target=self._play, name="simulated players", daemon=True)
            self._thread.start()
        return self

    def stop_playing(self, timeout_s: float = 10.0) -> None:
        """The people stop playing (their thread returns); the board keeps scanning until ``stop``."""
        self._stop.set()
        with self._state_changed:
            self._state_changed.notify_all()
        if self._thread:
            self._thread.join(timeout=timeout_s)

    def stop(self) -> None:
        self.stop_playing()
        if self._client:
            self._client.loop_stop()
            self._client.disconnect()
        self.board.stop()

    def __enter__(self) -> SimulatedTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- MQTT: what the people read and say --------------------------------------------------------------
    def _connect(self) -> None:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"smartmat-sim-{uuid.uuid4().hex[:8]}",
            protocol=mqtt.MQTTv311,
        )
        if self.broker.username is not None:
            client.username_pw_set(self.broker.username, self.broker.password)
        state_topic = topics.topic(self.table.table, topics.STATE)
        response_topic = topics.topic(self.table.table, topics.CMD_RESPONSE)

        def on_connect(c: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
            c.subscribe([(state_topic, 1), (response_topic, 1)])

        def on_message(c: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
            try:
                body = json.loads(message.payload)
            except ValueError:
                return
            with self._state_changed:
                if message.topic == state_topic:
                    self._state = body
                elif isinstance(body, dict) and "txn" in body:
                    self._responses[str(body["txn"])] = body
                self._state_changed.notify_all()

        client.on_connect = on_connect
        client.on_message = on_message
        client.connect(self.broker.host, self.broker.port)
        client.loop_start()
        self._client = client

    def say(self, command: str, timeout_s: float = 10.0, **args: Any) -> dict[str, Any]:
        """Send a command as the table's referee and wait for the daemon's answer."""
        assert self._client is not None
        txn = uuid.uuid4().hex
        body = {"txn": txn, "actor": self.actor, "command": command, "args": args}
        self._client.publish(topics.topic(self.table.table, topics.CMD_REQUEST), json.dumps(body), qos=1)
        deadline = time.monotonic() + timeout_s
        with self._state_changed:
            while txn not in self._responses and not self._stop.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return {"txn": txn, "ok": False, "error": "no answer from the daemon"}
                self._state_changed.wait(remaining)
            answer = self._responses.pop(txn, {"ok": False, "error": "stopped"})
        if not answer.get("ok"):
            log.info("the daemon refused %s %s: %s", command, args, answer.get("error"))
        return answer

    def _wait_for_change(self, seq: int, timeout_s: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout_s
        with self._state_changed:
            while not self._stop.is_set():
                if self._state is not None and self._state.get("seq", -1) > seq:
                    return self._state
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._state_changed.wait(remaining)
        return None

    # -- hands on the mat, for a person (or a test) playing alongside ------------------------------------
    def put_pieces_down(self, state: dict[str, Any]) -> None:
        """Put down the disc of every character of ``state`` that is not on the mat yet, and step back."""
        with self.source.hands():
            placed = self._set_up_room(state)
        if placed:
            self._let_the_board_see()

    def flick_at(self, piece: str, target: str) -> ShotRecord:
        """Flick ``piece`` at ``target`` with a player's aim; returns what really happened."""
        with self.source.hands():
            plan = self.player.plan_character_shot(self.world, piece, [target])
        self.last_shot = self.source.flick(plan.piece, plan.angle_rad, plan.speed_mm_s)
        self._film(self.last_shot)
        self.flicks += 1
        return self.last_shot

    def film_with(self, camera: Any) -> None:
        """Film every flick from now on with this camera (sim_camera.py)."""
        self.world.frame_period_s = 1 / 1000  # the world keeps every piece's place each millisecond
        self.camera = camera

    def _film(self, record: ShotRecord) -> None:
        if self.camera is not None:
            self.camera.film(record, self.source.rest_at_us - round(record.duration_s * 1e6))

    # -- the people ---------------------------------------------------------------------------------------
    def _play(self) -> None:
        seen = -1
        while not self._stop.is_set():
            state = self._wait_for_change(seen, timeout_s=5.0)
            if state is None:
                state = self._state  # nothing happened for a while: look at the table again
                if state is None:
                    continue
            time.sleep(self.pace.think_s)
            with self._state_changed:
                state = self._state or state  # act on the table as it is now, not as it was
            seen = state.get("seq", seen)
            try:
                with self.source.hands():  # hands on the mat: the board must not scan half a move
                    touched = self.tidy_the_mat(state)
                if touched:
                    self._let_the_board_see()
                self.act(state)
            except Exception:  # people make mistakes; the table goes on
                log.exception("a simulated player got confused")

    def sees(self, state: dict[str, Any]) -> None:
        """A state the table published, as the people read it (what arrives on its state topic)."""
        with self._state_changed:
            self._state = state
            self._state_changed.notify_all()

    def act(self, state: dict[str, Any]) -> None:
        """The people's next move on this state: what their loop does each time the table changes."""
        phase = state.get("phase")
        table = state.get("table") or {}
        if state.get("outcome") or phase == "game_over":
            return
        if table.get("paused") or table.get("attributing"):
            return  # (the mat is still reading the last flick: its reading comes in a new state)
        if table.get("pending_shot"):
            self.referee_confirms(table["pending_shot"])
            return
        if state.get("pending"):
            pending = state["pending"]
            self.say("answer", decision=pending["id"], option=self.rng.choice(pending["options"])["id"])
            return
        if phase == "setup" and state.get("room"):
            with self.source.hands():
                placed = self._set_up_room(state)
            if placed:
                self._let_the_board_see()
            self.say("start_battle")
            return
        if phase == "special_room":
            self._visit_special_room(state)
        if phase in ("setup", "resolution", "special_room"):
            self.say("enter_room")
            return
        if phase != "battle":
            return
        expected = state.get("expected_shot")
        if expected:
            self.flick(state, expected)
            return
        turn = state.get("turn") or {}
        if turn.get("character") is None and state.get("sides"):
            self._declare_castles(state)
            return
        if turn.get("character") is None:
            actor = self._next_actor(state)
            if actor is not None:
                # The first thing the table offers it (a stunned hero's lone rush names no alternative).
                offered = [a for a in state.get("actions") or () if a.get("character") == actor["id"]]
                self.say(
                    "declare", character=actor["id"], alternative=offered[0]["alternative"] if offered else 0
                )

    def _declare_castles(self, state: dict[str, Any]) -> None:
        """Catacombs & Castles: a player of the side to move picks from what the table offers, performing a
        fully charged card when there is one (players like to spend their tokens) and otherwise a shot
        sequence, as the turn controller sends it."""
        offered = list(state.get("actions") or ())
        if not offered:
            return
        cards = [a for a in offered if "card" in a]
        choice = cards[0] if cards else self.rng.choice(offered)
        if "card" in choice:
            self.say("declare", character=choice["character"], action=choice["id"])
        else:
            self.say("declare", character=choice["character"], alternative=choice["alternative"])

    def _visit_special_room(self, state: dict[str, Any]) -> None:
        """Catacombs 1E, Carte Stanze Speciali: at the Merchant each hero with gold buys the first item on
        offer it may use; at the Healer a wounded hero pays for a Restoring Touch and a dead one is brought
        back (Il mercante; Il guaritore). The rules refuse what a hero cannot afford or use, and the party
        walks on."""
        room = state.get("room") or {}
        ruleset = str(state.get("ruleset"))
        if ruleset not in game_names() or not definition_of(ruleset).room_services:
            return
        if room.get("index") in self._visited:
            return
        self._visited.add(room.get("index"))
        heroes = [c for c in state.get("characters", []) if c["kind"] == "hero"]
        if room.get("kind") == "merchant":
            for hero in heroes:
                for item in list(dict.fromkeys(state.get("market") or ())):
                    if hero["alive"] and hero.get("gold", 0) > 0:
                        if self.say("use_service", service="buy", target=hero["id"], item=item).get("ok"):
                            break
        elif room.get("kind") == "healer":
            for hero in heroes:
                if not hero["alive"]:
                    self.say("use_service", service="resurrection", target=hero["id"])
                elif hero["health"] < hero["max_health"]:
                    self.say("use_service", service="restoring_touch", target=hero["id"])

    def _next_actor(self, state: dict[str, Any]) -> dict[str, Any] | None:
        turn = state.get("turn") or {}
        side = turn.get("side")
        acted = set(turn.get("acted") or ())
        # Only those the table offers an action (Catacombs 1E, Incapacità: an incapacitated hero takes none).
        able = {a.get("character") for a in state.get("actions") or ()}
        characters: list[dict[str, Any]] = state.get("characters", [])
        for character in characters:
            if able and character["id"] not in able:
                continue
            if character["side"] == side and character.get("on_mat") and character["id"] not in acted:
                # Allies act too (Catacombs 1E, Alleati: the familiar, the summoned skeleton): the turn waits
                # for every character the table offers an action, so passing one over stalls the battle.
                if character["kind"] in ("hero", "monster", "lord") or character["id"] in able:
                    return character
        return None

    def _let_the_board_see(self) -> None:
        """People step back after putting discs down; the board scans before anyone flicks."""
        time.sleep(self.pace.scan_period_s * 2.5)

    def flick(self, state: dict[str, Any], expected: dict[str, Any]) -> None:
        """The expected shot flicked by whoever performs it, at the pieces it may hit."""
        by_id = {c["id"]: c for c in state.get("characters", [])}
        # The actor, not the turn's character: a monster's retaliation (Catacombs 1E, Rappresaglia) comes in
        # a hero's turn, and it aims at the heroes.
        shooter = by_id.get(expected.get("actor") or expected["character"])
        if shooter is None or expected.get("suppressed") or expected.get("unavailable"):
            self.say("skip_shot")  # a suppressed shot, or a summon with no piece left in the Monster Pool
            return
        if expected.get("placed"):
            # A special shot (Move To Rune, Open Portal): the piece is placed, not flicked; the referee enters
            # it with no hits (a simulated player leaves its piece where it is).
            self.say("manual_shot", direct_hits=[])
            return
        enemies = [
            c["piece"]
            for c in state["characters"]
            if c.get("piece")
            and c.get("on_mat")
            and c["side"] not in (shooter["side"], "neutral")
            and c["piece"] in self.world.pieces
        ]
        flicked_character = by_id.get(expected.get("piece")) or shooter
        own_piece = flicked_character.get("piece")
        if not own_piece or own_piece not in self.world.pieces:
            self.say("skip_shot")
            return
        shield = self._shield_on_mat(expected)
        if expected.get("shield"):
            placed_shield = shield or self._free_ranged_piece(expected)
            if placed_shield is not None:
                self.shield_owners[placed_shield] = own_piece
        if shield is not None:
            # Shield Shots: a shield piece already on the playmat is flicked from where it lies.
            plan = self.player.plan_character_shot(self.world, shield, enemies)
        elif expected.get("ranged") or expected.get("shield"):
            ranged = self._free_ranged_piece(expected)
            if ranged is None:
                self.say("skip_shot")
                return
            ranged_class = self.classes[self.table.registry.entry(ranged).piece_class]
            with self.source.hands():
                plan = self.player.plan_ranged_shot(
                    self.world, own_piece, ranged, ranged_class, enemies, side=shooter["side"]
                )
            time.sleep(self.pace.scan_period_s * 2.2)  # let the board see the piece put down before the flick
        else:
            plan = self.player.plan_character_shot(self.world, own_piece, enemies)
        seq = state["seq"]
        # Catacombs & Castles target shots: the Target Token goes on the enemy aimed at before the flick, and
        # the referee names it when settling the shot (the mat cannot see a token).
        self._target_token = None
        if str(expected.get("shot", "")).startswith("target") and plan.target is not None:
            self._target_token = next(
                (c["id"] for c in state["characters"] if c.get("piece") == plan.target), None
            )
        self.last_shot = self.source.flick(plan.piece, plan.angle_rad, plan.speed_mm_s)
        self._film(self.last_shot)
        self.flicks += 1
        log.info(
            "flick %d: %s at %s, really hit %s",
            self.flicks,
            plan.piece,
            plan.target,
            sorted(self.last_shot.direct_hits),
        )
        if self._wait_for_change(seq, self.pace.shot_timeout_s) is None:
            log.warning("the daemon did not resolve flick %d in time; skipping the shot", self.flicks)
            self.say("skip_shot")

    def referee_confirms(self, pending: dict[str, Any]) -> None:
        """The referee watched the flick: pick the candidate that matches what really happened."""
        truth = self.last_shot
        if truth is None:
            self.say("dismiss_shot")
            return
        of_piece = {
            c.get("piece"): c["id"] for c in (self._state or {}).get("characters", []) if c.get("piece")
        }
        if self._target_token is not None:
            self.say(
                "confirm_hits",
                direct_hits=[of_piece[p] for p in sorted(truth.direct_hits) if p in of_piece],
                pushed_off_mat=[of_piece[p] for p in sorted(truth.left_mat) if p in of_piece],
                target=self._target_token,
            )
            return
        for index, candidate in enumerate(pending.get("candidates", [])):
            if set(candidate.get("direct_hits", [])) == set(truth.direct_hits):
                self.say("confirm_hits", candidate=index)
                return
        self.say(
            "confirm_hits",
            direct_hits=[of_piece[p] for p in sorted(truth.direct_hits) if p in of_piece],
            pushed_off_mat=[of_piece[p] for p in sorted(truth.left_mat) if p in of_piece],
        )

    def _check_tags(self) -> None:
        from service.simulator.sensors import tag_uid

        for entry in self.table.registry.pieces:
            if tag_uid(entry.piece) != entry.uid:
                raise ValueError(
                    f"{self.table.path}: disc {entry.piece} has uid {entry.uid.hex()}, but the simulated mat "
                    f"tags it {tag_uid(entry.piece).hex()}; simulate only tables generated for it"
                )
