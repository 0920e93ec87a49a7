"""The hub: the tournament (from its records), every table as last heard, and every game's log.

MQTT messages arrive through ``service.hub.feed``; organisers and referees act through ``submit`` and the
helpers below (the pages and ``smartmat hub`` commands). Each tournament change is checked against the
tournament, appended durably, then applied. Other processes may append to the same file (the ``smartmat hub``
commands while the hub serves): ``refresh`` folds in what they wrote.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from service.eventlog import InvalidRecordError, Record
from service.gamelog.replay import replay
from service.hub import campaign, swiss
from service.hub.model import CAMPAIGN_3E, DRAW, Tournament, TournamentError, fold
from service.hub.records import TournamentRecord
from service.hub.store import HubStore

log = logging.getLogger(__name__)
REQUEST_INTERVAL_S = 2.0  # at most one catch-up request per game this often: a burst is one gap


@dataclass
class GameProgress:
    table: str
    contiguous: int = 0  # every record 1..contiguous is held
    above: set[int] = field(default_factory=set)  # held records past a gap
    head: int = 0  # the newest seq the table says it holds
    last_request: float = -1e9


@dataclass
class TableLive:
    table: str
    status: str = "unknown"  # the daemon: online / offline
    bridge: str = "unknown"  # the link to the hub: up / down
    state: dict[str, Any] | None = None
    game: str | None = None
    heard_at: float = 0.0  # monotonic time of the last message

    def to_json(self, progress: GameProgress | None) -> dict[str, Any]:
        state = self.state or {}
        turn = state.get("turn") or {}
        pending_shot = (state.get("table") or {}).get("pending_shot")
        return {
            "table": self.table,
            "status": self.status,
            "bridge": self.bridge,
            "online": self.status == "online" and self.bridge != "down",
            "ruleset": state.get("ruleset"),
            "phase": state.get("phase"),
            "round": state.get("round"),
            "turn": _turn_name(state, turn),
            "outcome": state.get("outcome"),
            "doubtful_shot": pending_shot is not None,
            "paused": bool(state.get("paused")),
            "seq": state.get("seq"),
            "game": self.game,
            "log_held": progress.contiguous if progress else 0,
            "log_head": progress.head if progress else 0,
            "rooms_cleared": campaign.rooms_cleared(state),
            "party_gold": campaign.party_gold(state),
            # Catacombs & Castles: each side's Health Pool, the live score of a match.
            "sides": [
                {"id": side.get("id"), "health": side.get("health")}
                for side in state.get("sides") or []
                if isinstance(side, dict)
            ],
        }


class Hub:
    def __init__(self, store: HubStore, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._clock = clock
        self._lock = threading.RLock()
        self.tournament: Tournament = fold(store.records())
        self.tables: dict[str, TableLive] = {}
        self.games: dict[str, GameProgress] = {}
        self._listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self.ingested = 0  # log records stored (not counting copies already held)
        for game, table, count, top in store.games():
            progress = GameProgress(table)
            held = {int(r["seq"]) for r in store.game_records(game)} if count != top else set()
            progress.contiguous = top if count == top else _contiguous(held)
            progress.above = {s for s in held if s > progress.contiguous}
            progress.head = top
            self.games[game] = progress
            self._table(table).game = game

    # ---- listeners (the pages' live stream) ----------------------------------------------------------
    def listen(self, callback: Callable[[str, dict[str, Any]], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return remove

    def _notify(self, kind: str, data: dict[str, Any]) -> None:
        for callback in list(self._listeners):
            try:
                callback(kind, data)
            except Exception:
                log.exception("a hub listener failed")

    # ---- what the tables say -------------------------------------------------------------------------
    def _table(self, table: str) -> TableLive:
        live = self.tables.get(table)
        if live is None:
            live = self.tables[table] = TableLive(table)
        return live

    def on_status(self, table: str, text: str) -> None:
        with self._lock:
            live = self._table(table)
            live.status, live.heard_at = text, self._clock()
        self._notify("table", self.table_view(table))

    def on_bridge(self, table: str, text: str) -> list[tuple[str, str | None, int]]:
        """The bridge's notification; when it comes back, ask the table for what the hub misses."""
        with self._lock:
            live = self._table(table)
            live.bridge, live.heard_at = ("up" if text == "1" else "down"), self._clock()
            requests = []
            if text == "1":
                progress = self.games.get(live.game) if live.game else None
                requests.append((table, live.game, progress.contiguous if progress else 0))
        self._notify("table", self.table_view(table))
        return requests

    def on_state(self, table: str, state: dict[str, Any]) -> None:
        # MQTT keeps one publisher's messages in order, through the bridge's queue too: the newest wins.
        with self._lock:
            live = self._table(table)
            live.state, live.heard_at = state, self._clock()
        self._notify("table", self.table_view(table))

    def on_head(self, table: str, game: str, seq: int) -> list[tuple[str, str | None, int]]:
        with self._lock:
            progress = self.games.setdefault(game, GameProgress(table))
            if progress.table != table:
                # A table may only speak of its own games: another's id here is ignored, never adopted.
                log.error("table %s named game %s, which is table %s's: ignored", table, game, progress.table)
                return []
            live = self._table(table)
            live.game, live.heard_at = game, self._clock()
            progress.head = max(progress.head, seq)
            return self._maybe_request(game, progress)

    def on_log(self, table: str, game: str, raw: dict[str, Any]) -> list[tuple[str, str | None, int]]:
        """Store one record of a table's game; returns catch-up requests for any gap it reveals."""
        try:
            record = Record.from_json(raw)
        except InvalidRecordError as exc:
            log.error("table %s sent a log record the hub cannot read: %s", table, exc)
            return []
        with self._lock:
            live = self._table(table)
            new_game = game not in self.games
            progress = self.games.setdefault(game, GameProgress(table))
            if new_game and record.seq == 1:
                live.game = game  # a table that starts a new log starts with its first record
            if progress.table != table:
                log.error(
                    "game %s is table %s's, but %s sent a record of it: ignored", game, progress.table, table
                )
                return []
            if self.store.add_game_record(game, table, record.to_json()):
                self.ingested += 1
            if live.game is None:
                live.game = game  # until the table's log/head says which game is current
            live.heard_at = self._clock()
            if record.seq > progress.contiguous:
                progress.above.add(record.seq)
                while progress.contiguous + 1 in progress.above:
                    progress.contiguous += 1
                    progress.above.discard(progress.contiguous)
            progress.head = max(progress.head, record.seq)
            return self._maybe_request(game, progress)

    def _maybe_request(self, game: str, progress: GameProgress) -> list[tuple[str, str | None, int]]:
        if progress.contiguous >= progress.head:
            return []
        live = self.tables.get(progress.table)
        if live is not None and live.game not in (None, game):
            return []  # a log the table has since replaced: it can no longer send it (docs/tournaments.md)
        now = self._clock()
        if now - progress.last_request < REQUEST_INTERVAL_S:
            return []
        progress.last_request = now
        return [(progress.table, game, progress.contiguous)]

    def pending_requests(self) -> list[tuple[str, str | None, int]]:
        """Catch-up requests due now (the feed asks every second: a lost request is asked again)."""
        with self._lock:
            requests = []
            for game, progress in self.games.items():
                requests += self._maybe_request(game, progress)
            return requests

    # ---- reading -----------------------------------------------------------------------------------
    def refresh(self) -> Tournament:
        with self._lock:
            for record in self.store.records(after_seq=self.tournament.last_seq):
                self.tournament.apply(record)
            return self.tournament

    def table_view(self, table: str) -> dict[str, Any]:
        with self._lock:
            live = self._table(table)
            return live.to_json(self.games.get(live.game) if live.game else None)

    def overview(self) -> list[dict[str, Any]]:
        with self._lock:
            tables = set(self.tables)
            for matches in self.tournament.rounds[-1:]:
                tables |= {m.table for m in matches if m.b is not None}
            tables |= {e.table for e in self.tournament.entrants.values() if e.table}
            return [self.table_view(t) for t in sorted(tables)]

    def game_log(self, game: str) -> list[Record]:
        return [Record.from_json(r) for r in self.store.game_records(game)]

    def game_summary(self, game: str) -> dict[str, Any]:
        """How a game the hub holds ended, from replaying its log (or, for a rule set this hub cannot
        replay, the table's own last state for exactly that record)."""
        with self._lock:
            progress = self.games.get(game)
            if progress is None:
                raise TournamentError(f"the hub holds no game {game!r}")
            complete = progress.contiguous >= progress.head and progress.contiguous > 0
            summary: dict[str, Any] = {
                "game": game,
                "table": progress.table,
                "final_seq": progress.contiguous,
                "complete": complete,
            }
            live = self.tables.get(progress.table)
        records = self.game_log(game)[: summary["final_seq"]]
        try:
            result = replay(records)
        except ValueError as exc:  # SetupError, or a log this hub's rules cannot read
            state = (live.state if live and live.game == game else None) or {}
            if state.get("seq") != summary["final_seq"]:
                raise TournamentError(
                    f"game {game} cannot be replayed here ({exc}) and the table's state is not at its end"
                ) from exc
            view = state
        else:
            view = result.state.public_view()
        summary.update(
            outcome=view.get("outcome"),
            phase=view.get("phase"),
            ruleset=view.get("ruleset"),
            rooms_cleared=campaign.rooms_cleared(view),
            gold=campaign.party_gold(view),
        )
        return summary

    # ---- changing the tournament ---------------------------------------------------------------------
    def submit(self, kind: str, payload: dict[str, Any], by: str) -> TournamentRecord:
        with self._lock:
            self.refresh()
            try:
                self.tournament.check(kind, payload, by)
            except TournamentError as exc:
                log.warning("tournament: %s by %s refused: %s", kind, by, exc)
                raise
            record = self.store.append(kind, payload, by)
            self.tournament.apply(record)
        log.info("tournament: %s by %s (seq %d)", kind, by, record.seq)
        self._notify("tournament", {"seq": record.seq, "kind": kind})
        return record

    def sign_off(self, by: str, table: str, winner: str | None = None) -> TournamentRecord:
        """The table's referee signs off the game now on ``table``: its result takes effect."""
        with self._lock:
            tournament = self.refresh()
            live = self.tables.get(table)
            if live is None or live.game is None:
                raise TournamentError(f"the hub has no game from table {table} yet")
            progress = self.games[live.game]
            if progress.contiguous < progress.head or progress.contiguous == 0:
                raise TournamentError(
                    f"the hub holds records 1–{progress.contiguous} of {progress.head} of {table}'s game;"
                    " wait for the rest (is the table's link up?)"
                )
            summary = self.game_summary(live.game)
            if summary["outcome"] is None:
                raise TournamentError(f"the game on {table} has not ended (phase {summary['phase']})")
            # A table may play several games in one log (the referee's new_game): each starts at a setup.
            setups = [r.seq for r in self.game_log(live.game)[: summary["final_seq"]] if r.kind == "setup"]
            start = setups[-1] if setups else 1
            if any(r.game == live.game and r.game_start == start for r in tournament.results.values()):
                raise TournamentError(f"the game on {table} is already signed off")
            payload: dict[str, Any] = {
                "table": table,
                "game": live.game,
                "game_start": start,
                "final_seq": summary["final_seq"],
                "outcome": summary["outcome"],
            }
            if tournament.format == CAMPAIGN_3E:
                done = sum(1 for (_, t) in tournament.results if t == table)
                payload.update(round=done + 1, rooms_cleared=summary["rooms_cleared"], gold=summary["gold"])
            else:
                # A Castles table whose setup names each side by its entrant's id says who won; the referee
                # then only confirms. Otherwise (or for a draw at time) the referee names the winner.
                match = tournament.match_at(tournament.current_round(), table)
                outcome = summary["outcome"]
                if match is not None and outcome in (match.a, match.b):
                    if winner not in (None, "", outcome):
                        raise TournamentError(
                            f"the game's log says {outcome} won at {table}; sign that off, and a head referee"
                            " corrects it if the log is wrong"
                        )
                    winner = outcome
                payload.update(round=tournament.current_round(), winner=winner or "")
            return self.submit("signoff", payload, by)

    def correct(
        self, by: str, round_number: Any, table: str, reason: Any, **changes: Any
    ) -> TournamentRecord:
        """A head referee's correction; the model checks every argument (they may come from a form)."""
        return self.submit(
            "correction", {"round": round_number, "table": table, "reason": reason, **changes}, by
        )

    def pair_next_round(self, by: str, tables: list[str]) -> TournamentRecord:
        with self._lock:
            tournament = self.refresh()
            matches = swiss.pair_next_round(tournament, tables)
            payload = {
                "number": tournament.current_round() + 1,
                "matches": [{"table": m.table, "a": m.a, "b": m.b} for m in matches],
            }
            return self.submit("round", payload, by)

    def standings(self) -> list[dict[str, Any]]:
        with self._lock:
            tournament = self.refresh()
            if tournament.format == CAMPAIGN_3E:
                live = {t: v.state for t, v in self.tables.items() if v.state is not None}
                return [row.to_json() for row in campaign.leaderboard(tournament, live)]
            return [row.to_json() for row in swiss.standings(tournament)]


def _turn_name(state: dict[str, Any], turn: dict[str, Any]) -> str | None:
    """Whose turn, in words: the character's printed name where the snapshot has it (docs/state.md)."""
    character = turn.get("character")
    if character:
        for entry in state.get("characters") or []:
            if isinstance(entry, dict) and entry.get("id") == character and entry.get("name"):
                return str(entry["name"])
        return str(character)
    side = turn.get("side")
    return str(side) if side else None


def _contiguous(held: set[int]) -> int:
    top = 0
    while top + 1 in held:
        top += 1
    return top


__all__ = ["DRAW", "Hub", "TableLive"]
