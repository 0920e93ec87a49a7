"""One table's game as the daemon keeps it: the rules state plus what only the table knows.

Everything here is a fold over event-log records, so live play, a restart after a power cut and a referee's
replay reach the same state by the same code. The rules records (``setup``, ``action``, ``undo``,
``correction``; docs/game-log.md) are folded by :mod:`service.gamelog.replay`; the table adds its own kinds,
which the rules never see:

- ``shot``    a shot the mat observed, with its trace; while ``attributing`` it waits for its reading;
              older logs hold the candidates in this record itself;
- ``attribution`` the reading of a shot (its candidates, whether the table applies the top one): applied
              only to the shot it names while that shot still waits for it. A reading that comes back after
              its shot was undone, set aside or entered by hand is kept in the log and not applied. A shot
              then waits for the referee until a ``resolve_shot`` action follows (at once when the reading
              was sure enough);
- ``dismiss`` the referee sets a waiting shot aside (a bumped table);
- ``pause`` / ``resume``;
- ``bind``    which physical disc stands for which character;
- ``new_game`` the table moves on to another game: the next record is its ``setup``;
- ``swap_tag`` a disc swapped mid-game for one with another NFC tag (a spare, a tag that died): from this
              record on, that piece is the new tag;
- ``assign_tracker`` which character an LED tracker stands beside (the set-up wizard; None: nobody).

No I/O, no clock: the daemon appends a record to the log first and then hands it to :meth:`apply`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.gamelog.replay import SetupError, fold, new_game_from_setup, replay
from service.rules import IllegalActionError, RuleSet, action_from_json
from service.rules.actions import Action, MalformedActionError
from service.table.entrants import entrants_of, name_sides
from service.table.game_result import game_result, rooms_left
from service.table.games import CharacterState, TableState, table_game
from service.table.offered import offered_actions
from service.table.shot_view import (
    RESOLVED,
    SET_ASIDE,
    WAITING,
    attributing_of,
    needs_referee,
    reading_of,
    reading_view,
    shot_summary,
    shot_view,
)
from service.table.shot_view import (
    UNDONE as UNDONE,  # the daemon names an undone shot by it (service/daemon/commands.py)
)
from service.table.wording import Names, in_words, names_from_view

log = logging.getLogger(__name__)

RULES_KINDS = ("setup", "action", "undo", "correction")
TABLE_KINDS = (
    "shot",
    "attribution",
    "dismiss",
    "pause",
    "resume",
    "bind",
    "new_game",
    "swap_tag",
    "assign_tracker",
)


class LogRecord(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any]: ...


Binder = Callable[[Any, Mapping[str, str], Mapping[str, str]], dict[str, str]]
"""(state, the referee's choices, the discs in use until now) -> character id -> disc id."""


class SessionError(ValueError):
    """A record that cannot be applied to this table (no game yet, a malformed payload, …)."""


@dataclass
class TableSession:
    rules: RuleSet[TableState, object] | None = None
    state: TableState | None = None
    seq: int = 0
    rules_records: list[LogRecord] = field(default_factory=list)
    pending_shot: dict[str, Any] | None = None
    paused: bool = False
    bindings: dict[str, str] = field(default_factory=dict)  # character id -> piece id (referee's choices)
    binder: Binder | None = None
    discs: dict[str, str] = field(default_factory=dict)  # character id -> the disc standing for it now
    tag_swaps: dict[str, str] = field(default_factory=dict)  # piece id -> the tag (hex UID) it carries now
    tracker_assignments: dict[str, str | None] = field(default_factory=dict)  # tracker id -> character id
    games: int = 0  # setups applied in this log: the first game is 1
    # The ``shot`` topic's payload: the last shot observed and its status, from the records alone, so undo
    # and a restart can never disagree with it (docs/mqtt.md: shot).
    last_shot: dict[str, Any] | None = None
    known_names: dict[str, str] = field(default_factory=dict)  # every id named so far in this game

    @classmethod
    def replay(cls, records: Iterable[LogRecord], binder: Binder | None = None) -> TableSession:
        session = cls(binder=binder)
        for record in records:
            try:
                session.apply(record)
            except (SessionError, SetupError, IllegalActionError) as exc:
                # A record accepted once fails here only if the rules changed under it: say so loudly, keep
                # going, and let the referee correct the table.
                log.error("log record %d (%s) no longer applies: %s", record.seq, record.kind, exc)
        if session.pending_shot is not None and session.pending_shot.get("auto"):
            # The log ends between a sure shot and its resolve_shot (a power cut between the two appends): the
            # shot was never applied, so it goes to the referee rather than wait unseen and block every flick.
            log.warning("shot %d was never resolved: the referee confirms it", session.pending_shot["seq"])
            session.pending_shot = {**session.pending_shot, "auto": False}
            if session.last_shot is not None and session.last_shot["shot_seq"] == session.pending_shot["seq"]:
                session.last_shot = {**session.last_shot, "auto_apply": False, "status": WAITING}
        return session

    def character_state(self) -> CharacterState | None:
        """The state, when the game on the table is played with characters (None before a game, or for a
        game without characters: nothing to bind, declare for or correct by character)."""
        return self.state if isinstance(self.state, CharacterState) else None

    # -- checking without changing --------------------------------------------------------------------
    def check(self, kind: str, payload: Mapping[str, Any]) -> None:
        """Would a record of this kind apply? Raises what :meth:`apply` would, changing nothing."""
        if kind == "setup":
            if self.state is not None:
                raise SessionError("this table already has a game; start a new log for a new game")
            new_game_from_setup(dict(payload))
        elif kind == "action":
            rules, state = self._game()
            rules.check(state, _action(payload))
        elif kind == "correction":
            rules, state = self._game()
            rules.check(state, _action(payload.get("action")))
        elif kind == "undo":
            self._game()
            if not self._effective():
                raise SessionError("there is nothing to undo")
        elif kind == "dismiss":
            if self.pending_shot is None:
                raise SessionError("no shot is waiting for the referee")
        elif kind == "attribution":
            pass  # a reading is kept whatever became of its shot (the fold decides whether it applies)
        elif kind == "new_game":
            _, state = self._game()
            if state.outcome is None and not str(payload.get("reason") or "").strip():
                raise SessionError("this game is not over: say why it is abandoned to start a new one")
        elif kind in TABLE_KINDS:
            self._game()
        else:
            raise SessionError(f"unknown record kind {kind!r}")

    # -- the fold -------------------------------------------------------------------------------------
    def apply(self, record: LogRecord) -> list[dict[str, Any]]:
        """Apply one record; returns the events (JSON objects with ``type`` and ``text``) it produced."""
        handler = getattr(self, f"_apply_{record.kind}", None)
        if handler is None:
            raise SessionError(f"record {record.seq}: unknown kind {record.kind!r}")
        events: list[dict[str, Any]] = handler(record, record.payload)
        self.seq = record.seq
        if self.binder is not None and self.state is not None:
            # Discs are handed out as the game goes, so which disc is which is part of the fold: a restart
            # reaches the same discs as live play did.
            self.discs = self.binder(self.state, self.bindings, self.discs)
        return self._in_words(events)

    def names(self) -> Names:
        """Who is who in the game on the table, for the words people read (service/table/wording.py). Names
        seen earlier in the game are kept: a monster destroyed by a shot is gone from the state its events
        are read against."""
        view = self.state.public_view() if self.state is not None else {}
        name_sides(view, self.entrants())
        now = names_from_view(view, self.discs)
        self.known_names = {**self.known_names, **now.of}
        return Names(self.known_names, now.sides)

    def _in_words(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each event keeps the rules' ``text`` (the log's and the referee's) and gains ``said``: the same in
        words for people, every id a name."""
        if not events:
            return events
        names = self.names()
        worded = []
        for event in events:
            said = str(event.get("text") or "")
            if event.get("type") == "side_to_act" and str(event.get("side")) in names.of:  # a Castles side
                said = f"{names.name(str(event['side']))} to act"
            extra = {"said": in_words(said, names)}
            if event.get("character"):  # named now: a monster destroyed leaves the next snapshot's list
                extra["name"] = names.name(str(event["character"]))
            worded.append({**event, **extra})
        return worded

    def _apply_setup(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.state is not None:
            raise SessionError(f"record {record.seq}: a second setup in one log")
        self.rules, self.state = new_game_from_setup(dict(payload))
        self.rules_records.append(record)
        self.games += 1
        return [{"type": "game_started", "text": "A new game begins.", "game": self.games}]

    def _apply_new_game(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        _, state = self._game()
        # The referee's disc choices stay (the same discs are on the table); everything of the game goes.
        self.rules, self.state, self.rules_records = None, None, []
        self.pending_shot, self.paused, self.discs, self.last_shot = None, False, {}, None
        self.known_names = {}  # a new game: its own pieces
        if state.outcome is None:
            reason = payload.get("reason") or "no reason given"
            return [{"type": "game_abandoned", "text": f"The referee ended this game: {reason}."}]
        return [{"type": "game_closed", "text": "The table is ready for the next game."}]

    def _apply_action(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        rules, state = self._game()
        action = _action(payload)
        self.state, events = rules.apply(state, action)
        self.rules_records.append(record)
        if action.name == "resolve_shot" and self.pending_shot is not None:
            self._shot_resolved(record.seq, payload)
            self.pending_shot = None
        return [e.to_json() for e in events]

    def _apply_correction(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        rules, state = self._game()
        if payload.get("replaces") is None:  # a new corrective action (set_health, set_gold, …)
            self.state, events = rules.apply(state, _action(payload.get("action")))
            self.rules_records.append(record)
            return [e.to_json() for e in events]
        self.rules_records.append(record)
        self._rebuild()
        return [
            {
                "type": "corrected",
                "text": "The referee corrected an earlier decision.",
                "record": payload["replaces"],
            }
        ]

    def _apply_undo(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        effective = self._effective()
        if not effective:
            raise SessionError(f"record {record.seq}: there is nothing to undo")
        target = payload.get("seq", effective[-1][0])
        undone = next((p for s, p in effective if s == target), None)
        if undone is None:
            raise SessionError(f"record {record.seq}: record {target} is not an action in effect")
        self.rules_records.append(record)
        self._rebuild()
        if self.pending_shot is not None:
            self._shot_status(SET_ASIDE, set_aside=True)  # a shot waiting when its turn was taken back
        elif self.last_shot is not None and self.last_shot.get("resolved_seq") == target:
            self._shot_status(UNDONE, undone=True)  # whatever the shot did is taken back
        self.pending_shot = None
        what = _UNDONE_WORDS.get(str(undone.get("action")), "the last move")
        reason = payload.get("reason") or "no reason given"
        return [
            {
                "type": "undone",
                "text": f"The referee took back {what}: {reason}.",
                "undone_seq": target,
                "action": undone.get("action"),
            }
        ]

    def _apply_shot(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._game()
        self.pending_shot = {"seq": record.seq, **payload}
        self.last_shot = shot_view(record.seq, payload)
        if payload.get("attributing") or payload.get("auto"):
            return []  # its reading follows; a sure one is applied by the resolve_shot after it
        return [needs_referee(self.pending_shot, self.names())]

    def _apply_attribution(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        pending = self.pending_shot
        if pending is None or pending["seq"] != payload.get("shot") or not pending.get("attributing"):
            # The shot was undone, set aside or entered by hand while the mat read it: the referee's word
            # stands, and the reading is kept only for the record.
            log.info("record %d: shot %s was read too late; kept, unapplied", record.seq, payload.get("shot"))
            return []
        self.pending_shot = {**pending, **reading_of(payload), "attributing": False}
        if self.last_shot is not None and self.last_shot["shot_seq"] == pending["seq"]:
            reading = reading_view(payload)
            names = self.names()
            # The console reads why the shot came to the referee with names, never disc ids.
            reading["reasons_said"] = [in_words(str(r), names) for r in reading["reasons"]]
            self.last_shot = {**self.last_shot, **reading}
        if payload.get("auto"):
            return []
        return [needs_referee(self.pending_shot, self.names())]

    def _apply_dismiss(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.pending_shot is None:
            raise SessionError(f"record {record.seq}: no shot is waiting for the referee")
        self.pending_shot = None
        self._shot_status(SET_ASIDE, set_aside=True)
        return [{"type": "shot_dismissed", "text": "The referee set the last shot aside; flick again."}]

    def _apply_pause(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        self.paused = True
        reason = payload.get("reason") or "no reason given"
        return [{"type": "paused", "text": f"Game paused by the referee: {reason}."}]

    def _apply_resume(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        self.paused = False
        return [{"type": "resumed", "text": "Game resumed."}]

    def _apply_bind(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        character, piece = str(payload.get("character", "")), str(payload.get("piece", ""))
        if not character or not piece:
            raise SessionError(f"record {record.seq}: bind needs a character and a piece")
        for other, bound in list(self.bindings.items()):
            if bound == piece:
                del self.bindings[other]
        self.bindings[character] = piece
        return [{"type": "bound", "text": f"Disc {piece} now stands for {character}."}]

    def _apply_assign_tracker(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        tracker, character = str(payload.get("tracker", "")), payload.get("character")
        if not tracker or not (character is None or isinstance(character, str)):
            raise SessionError(f"record {record.seq}: assign_tracker needs a tracker and a character or null")
        self.tracker_assignments[tracker] = character
        text = (
            f"Tracker {tracker} now stands beside {character}." if character else f"Tracker {tracker} is off."
        )
        return [{"type": "tracker_assigned", "text": text, "tracker": tracker}]

    def _apply_swap_tag(self, record: LogRecord, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        piece, new, old = (str(payload.get(k, "")) for k in ("piece", "new_uid", "old_uid"))
        if not piece or not new:
            raise SessionError(f"record {record.seq}: swap_tag needs a piece and its new tag")
        self.tag_swaps[piece] = new
        reason = payload.get("reason") or "no reason given"
        return [
            {
                "type": "tag_swapped",
                "text": f"Disc {piece} now carries tag {new} (was {old or 'unknown'}): {reason}.",
                "piece": piece,
            }
        ]

    # -- views ----------------------------------------------------------------------------------------
    def expected_shot(self) -> dict[str, Any] | None:
        """The shot the mat waits for, with what the table needs to read it (the rule set's table adapter
        adds, for Catacombs & Castles, whether a ranged or shield piece is flicked, or nothing at all)."""
        if self.rules is None or self.state is None:
            return None
        return table_game(self.rules.name).expected_shot(self.rules, self.state)

    def undo_next(self) -> dict[str, Any] | None:
        """The action one undo takes back now: ``{"seq", "what"}`` ("Royal Archer 1's rush"), or None."""
        effective = self._effective() if self.state is not None else []
        if not effective:
            return None
        seq, action = effective[-1]
        names = self.names()
        character = action.get("character")
        who = names.name(str(character)) if character else None
        if action.get("action") == "resolve_shot" and who:
            what = f"{who}'s {str(action.get('shot') or 'shot').replace('_', ' ')}"
        elif action.get("action") == "declare" and who:
            what = f"{who}'s declared action"
        else:
            what = _UNDONE_WORDS.get(str(action.get("action")), "the last move")
        return {"seq": seq, "what": what}

    def undoable(self) -> int:
        """How many actions are in effect now, i.e. how many undo records in a row would apply."""
        return len(self._effective()) if self.state is not None else 0

    def snapshot(self) -> dict[str, Any]:
        """The retained ``state`` payload: the rules' public view plus the table's own facts."""
        view: dict[str, Any] = self.state.public_view() if self.state else {"phase": "no_game"}
        view["seq"] = self.seq
        for character in view.get("characters", []):
            character["piece"] = self.discs.get(character["id"])
        view["paused"] = self.paused
        if view.get("expected_shot"):
            view["expected_shot"] = self.expected_shot()
        if view.get("expected_shot"):
            # The disc to flick, for the board's highlight (a ranged piece is whichever one is put down).
            view["expected_shot"]["disc"] = self.discs.get(view["expected_shot"]["piece"])
        view["actions"] = self._actions()
        view["table"] = {
            "paused": self.paused,
            "pending_shot": shot_summary(self.pending_shot),
            "attributing": attributing_of(self.pending_shot),
            "can_undo": bool(self.state is not None and self._effective()),
            # What one undo would take back now, in words, and its record: the console's Undo says it and
            # sends the record, so the table takes back exactly that one (docs/state.md).
            "undo_next": self.undo_next(),
            "game": self.games,
            "rooms_left": rooms_left(self.state),
            # The game's expansions, so that the set-up wizard can start the next game with the same ones.
            "expansions": self._expansions(),
        }
        view["result"] = game_result(self.state, self.entrants())
        name_sides(view, self.entrants())
        return view

    def entrants(self) -> dict[str, str]:
        """A tournament match's sides by their entrants' names (side id → name); empty for other games."""
        return entrants_of(self.rules_records)

    def _expansions(self) -> list[str]:
        setup = next((r for r in self.rules_records if r.kind == "setup"), None)
        expansions = setup.payload.get("expansions", []) if setup is not None else []
        return [str(e) for e in expansions]

    def _actions(self) -> list[dict[str, Any]]:
        """What may be declared now, one entry per character and Or-alternative, as the cards draw them."""
        if self.rules is None or self.state is None or self.paused or self.pending_shot is not None:
            return []
        return offered_actions(self.rules, self.state)

    # -- the last shot's status -----------------------------------------------------------------------
    def _shot_resolved(self, seq: int, action: Mapping[str, Any]) -> None:
        """The waiting shot's resolve_shot: by the table itself (a sure reading), else by the referee."""
        pending, view = self.pending_shot, self.last_shot
        if pending is None or view is None or view["shot_seq"] != pending["seq"]:
            return
        if pending.get("auto"):
            self.last_shot = {**view, "status": RESOLVED, "resolved_seq": seq}
            return
        hits = sorted(action.get("direct_hits", []))
        chosen = next(
            (i for i, c in enumerate(view["candidates"]) if sorted(c.get("hit_characters", [])) == hits), None
        )
        self.last_shot = {
            **view,
            "status": RESOLVED,
            "resolved": True,
            "chosen": chosen,
            "confirmed_hits": hits,
            "resolved_seq": seq,
        }

    def _shot_status(self, status: str, **flags: bool) -> None:
        if self.last_shot is not None:
            self.last_shot = {**self.last_shot, "status": status, **flags}

    # -- internals ------------------------------------------------------------------------------------
    def _game(self) -> tuple[RuleSet[Any, Any], Any]:
        if self.rules is None or self.state is None:
            raise SessionError("no game has been set up at this table yet")
        return self.rules, self.state

    def _effective(self) -> list[tuple[int, dict[str, Any]]]:
        return fold(self.rules_records)[1]  # type: ignore[arg-type]

    def _rebuild(self) -> None:
        """Undo and replacing corrections are a replay from the setup, never a patch of the state."""
        result = replay(self.rules_records, self.rules.content if self.rules else None)  # type: ignore[arg-type]
        self.rules, self.state = result.rules, result.state


# What an undone action was, in the words of the table (the action's name stays in the event for referees).
_UNDONE_WORDS = {
    "resolve_shot": "the last shot",
    "declare": "the declared action",
    "decide": "a choice",
    "skip_shot": "a skipped shot",
    "end_turn": "the end of a turn",
    "enter_room": "the Room card",
    "start_battle": "the start of the battle",
    "play_card": "a card played",
    "use_service": "a room's service",
    "gain_rage": "rage gained",
    "set_health": "a health correction",
    "set_gold": "a gold correction",
    "set_rage": "a rage correction",
    "set_pool": "a Health Tokens correction",
    "set_charge": "a correction of a card's tokens",
    "set_armour": "an Armour Token correction",
    "perform_card": "a card performed",
}


def _action(payload: Any) -> Action:
    if not isinstance(payload, Mapping):
        raise SessionError("an action must be a JSON object")
    try:
        return action_from_json(dict(payload))
    except MalformedActionError as exc:
        raise SessionError(str(exc)) from exc
