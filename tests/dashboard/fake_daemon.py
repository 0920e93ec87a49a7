"""A stand-in daemon on a real broker: answers ``cmd/request`` and publishes state, board, events and shots.

It plays the scripted room of :mod:`tests.dashboard.table_game` through the project's real
:class:`~service.publish.publisher.TablePublisher`, so the dashboard sees exactly the traffic the daemon
would send. Its "rules" are a few lines per command — enough to drive the pages, not the game.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from service.publish.commands import Command, CommandResult
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from tests.dashboard.table_game import RULES_CARDS, doubtful_shot, opening_board, opening_state


class FakeDaemon:
    def __init__(self, broker_url: str, table: str = "t1") -> None:
        self.state = opening_state()
        self.board = opening_board()
        self.seq = 3
        self.history: list[dict[str, Any]] = []
        self.received: list[Command] = []
        self._lock = threading.Lock()
        self.publisher = TablePublisher(table, PahoTransport(broker_url, f"fake-daemon-{table}"), self.handle)
        self.publisher.publish_state(self.state, self.seq)
        self.publisher.publish_board(self.board, self.seq)
        self.publisher.start()

    def stop(self) -> None:
        self.publisher.stop()

    # -- commands ---------------------------------------------------------------------------------------
    def handle(self, command: Command) -> CommandResult:
        with self._lock:
            self.received.append(command)
            method = getattr(self, f"_{command.command}", None)
            if method is None:
                return CommandResult.refused(f"{command.command} is not supported by this table")
            before = copy.deepcopy(self.state)
            try:
                events = method(command.args, command.actor)
            except (KeyError, ValueError) as exc:
                self.state = before
                return CommandResult.refused(str(exc))
            if command.command != "undo":
                self.history.append(before)
            self.seq += 1
            for event in events:
                self.publisher.publish_event(event, self.seq)
            self.publisher.publish_state(self.state, self.seq)
            return CommandResult.accepted(self.seq)

    def _character(self, cid: str) -> dict[str, Any]:
        for c in self.state["characters"]:
            if c["id"] == cid:
                return c  # type: ignore[no-any-return]
        raise KeyError(f"no character {cid!r} at this table")

    def _declare(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        if self.state["turn"].get("declared"):
            raise ValueError("an action was already declared this turn")
        who = self._character(args["character"])
        shots = copy.deepcopy(RULES_CARDS[who["id"]])
        self.state["turn"] = {
            "side": "heroes",
            "character": who["id"],
            "declared": {"action": "rules-card", "label": "Rules card", "shots": shots},
        }
        alternatives = [s for s in shots if s.get("connector") in (None, "or")]
        if len(alternatives) > 1 and args.get("alternative") is None:
            self.state["pending"] = {
                "id": "d1",
                "kind": "choose_alternative",
                "character": who["id"],
                "prompt": "Melee or rush?",
                "options": [{"id": str(i), "label": s["shot"]} for i, s in enumerate(alternatives)],
            }
        else:
            self._expect(0)
        return [{"type": "declared", "text": f"{who['name']} plays the Rules card"}]

    def _expect(self, index: int) -> None:
        shots = self.state["turn"]["declared"]["shots"]
        who = self.state["turn"]["character"]
        self.state["expected_shot"] = {
            "character": who,
            "piece": who,
            "shot": shots[index]["shot"],
            "index": index,
        }
        shots[index]["status"] = "next"

    def _answer(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        pending = self.state["pending"]
        if not pending or pending["id"] != args["decision"]:
            raise ValueError("no such decision is pending")
        chosen = self.state["turn"]["declared"]["shots"][int(args["option"])]
        self.state["turn"]["declared"]["shots"] = [{"shot": chosen["shot"]}]
        self.state["pending"] = None
        self._expect(0)
        # The mat "sees" the flick at once; the reconstruction is unsure, so it waits for the referee.
        shot_seq = self.seq + 1
        self.publisher.publish_shot({**doubtful_shot(), "shot_seq": shot_seq}, shot_seq)
        # As the daemon does: the snapshot says a shot waits for the referee (docs/state.md).
        self.state["table"] = {
            "pending_shot": {
                "seq": shot_seq,
                "character": "hero-xoric",
                "shot": "melee",
                "candidates": doubtful_shot()["candidates"],
            },
            "can_undo": True,
        }
        return [
            {
                "type": "chose",
                "text": f"{self._character(pending['character'])['name']} chooses {chosen['shot']}",
            }
        ]

    def _confirm_hits(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        shot = doubtful_shot()
        hits = args["direct_hits"]
        events = []
        shooter = self._character(shot["declaration"]["flicked"])["name"]
        for target in hits:
            victim = self._character(target)
            victim["health"] = max(0, victim["health"] - 1)
            victim["alive"] = victim["health"] > 0
            events.append(
                {
                    "type": "damaged",
                    "text": f"{shooter}'s melee hits the {victim['name']} (1 damage)",
                    "character": target,
                    "amount": 1,
                    "health": victim["health"],
                }
            )
        self.state["expected_shot"] = None
        self.state["turn"]["declared"]["shots"][0]["status"] = "done"
        waiting = (self.state.get("table") or {}).get("pending_shot")
        if not waiting:
            raise ValueError("no shot is waiting for the referee")
        self.state["table"] = {"pending_shot": None, "can_undo": True}
        resolved = {"resolved": True, "chosen": int(args["candidate"]), "resolved_seq": self.seq + 1}
        self.publisher.publish_shot({**shot, "shot_seq": waiting["seq"], **resolved}, self.seq + 1)
        return events

    def _correct(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        who = self._character(args["target"])
        if args["field"] == "health" and int(args["value"]) > who["max_health"]:
            raise ValueError(
                f"{who['name']} starts with {who['max_health']} health; a correction cannot give more "
                "(catacombs-3e-reference.txt: Tracking Health)"
            )
        who[args["field"]] = args["value"]
        name = actor.split(":", 1)[1]
        change = f"{who['name']}'s {args['field']} to {args['value']}"
        return [{"type": "correction", "text": f"Referee {name} set {change} ({args['reason']})"}]

    def _undo(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        if not self.history:
            raise ValueError("nothing to undo")
        self.state = self.history.pop()
        return [{"type": "undo", "text": f"Undone: the last action ({args['reason']})"}]

    def _pause(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        self.state["paused"] = True
        return [{"type": "paused", "text": "The referee paused the game"}]

    def _resume(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        self.state["paused"] = False
        return [{"type": "resumed", "text": "The game goes on"}]

    def _end_turn(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        self.state["turn"] = {"side": "heroes", "character": "hero-elyra", "declared": None}
        self.state["expected_shot"] = None
        return [{"type": "turn", "text": "Elyra the Elf's turn"}]

    def _rescan(self, args: dict[str, Any], actor: str) -> list[dict[str, Any]]:
        return [{"type": "rescan", "text": "The mat was scanned again"}]
