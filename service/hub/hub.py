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
from typing import Any

from service.eventlog import InvalidRecordError, Record
from service.gamelog.replay import replay
from service.games import party_progress
from service.hub import campaign, offers, swiss
from service.hub.live import GameProgress, TableLive
from service.hub.model import DRAW, Match, Tournament, TournamentError, fold
from service.hub.records import TournamentRecord
from service.hub.segments import Segment, belongs_to, segments, sides_in_order
from service.hub.store import HubStore

log = logging.getLogger(__name__)
REQUEST_INTERVAL_S = 2.0  # at most one catch-up request per game this often: a burst is one gap
# A table's log count goes to the pages at once, then at most this often while records pour in (a catch-up
# burst); the feed sends the last count of a burst (flush_log_counts).
LOG_COUNT_INTERVAL_S = 0.05


class Hub:
    def __init__(self, store: HubStore, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._clock = clock
        self._lock = threading.RLock()
        self.tournament: Tournament = fold(store.records())
        self.tables: dict[str, TableLive] = {}
        self.games: dict[str, GameProgress] = {}
        self._listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self._count_sent: dict[str, float] = {}  # table -> when its log count last went to the pages
        self._count_due: dict[str, dict[str, Any]] = {}  # table -> a newer count not yet sent
        self._count_last: dict[str, dict[str, Any]] = {}  # table -> the count last sent
        self.ingested = 0  # log records stored (not counting copies already held)
        for game, table, count, top in store.games():
            progress = GameProgress(table)
            held = {int(r["seq"]) for r in store.game_records(game)} if count != top else set()
            progress.contiguous = top if count == top else _contiguous(held)
            progress.above = {s for s in held if s > progress.contiguous}
            progress.head = top
            self.games[game] = progress
            self._table(table).game = game
        for live in self.tables.values():
            self._read_setup(live)

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
            if live.game != game:
                live.game = game
                self._read_setup(live)
            live.heard_at = self._clock()
            progress.head = max(progress.head, seq)
            requests = self._maybe_request(game, progress)
            count = self._log_count(table, game, progress)
        if count is not None:
            self._notify("log", count)  # the overview's "log held" moves with the table's head
        return requests

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
                live.setup, live.setup_seq = None, 0
            if progress.table != table:
                log.error(
                    "game %s is table %s's, but %s sent a record of it: ignored", game, progress.table, table
                )
                return []
            if self.store.add_game_record(game, table, record.to_json()):
                self.ingested += 1
            if live.game is None:
                live.game = game  # until the table's log/head says which game is current
            if record.kind == "setup" and live.game == game and record.seq > live.setup_seq:
                live.setup, live.setup_seq = dict(record.payload), record.seq
            live.heard_at = self._clock()
            if record.seq > progress.contiguous:
                progress.above.add(record.seq)
                while progress.contiguous + 1 in progress.above:
                    progress.contiguous += 1
                    progress.above.discard(progress.contiguous)
            progress.head = max(progress.head, record.seq)
            requests = self._maybe_request(game, progress)
            count = self._log_count(table, game, progress) if live.game == game else None
        if count is not None:
            self._notify("log", count)  # the overview's "log held" moves with every record
        return requests

    def _log_count(self, table: str, game: str, progress: GameProgress) -> dict[str, Any] | None:
        """The count to send the pages now, or None while a burst is being held back (then it is due)."""
        count = {"table": table, "game": game, "log_held": progress.contiguous, "log_head": progress.head}
        if self._count_last.get(table) == count:
            return None  # the pages have it already (a head that says what the records said)
        now = self._clock()
        if now - self._count_sent.get(table, -1e9) < LOG_COUNT_INTERVAL_S:
            self._count_due[table] = count
            return None
        self._count_sent[table], self._count_last[table] = now, count
        self._count_due.pop(table, None)
        return count

    def flush_log_counts(self) -> None:
        """Send the counts held back during a burst (the feed calls this a few times a second)."""
        with self._lock:
            due, self._count_due = list(self._count_due.values()), {}
            now = self._clock()
            for count in due:
                self._count_sent[count["table"]], self._count_last[count["table"]] = now, count
        for count in due:
            self._notify("log", count)

    def _read_setup(self, live: TableLive) -> None:
        """The newest setup of the table's current log, from the records held (a restart, a new log)."""
        live.setup, live.setup_seq = None, 0
        for raw in self.store.game_records(live.game) if live.game else []:
            if raw.get("kind") == "setup":
                live.setup, live.setup_seq = dict(raw.get("payload") or {}), int(raw["seq"])

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

    def match_offers(self) -> dict[str, dict[str, Any] | None]:
        """The match each table is offered now (service/hub/offers.py)."""
        with self._lock:
            return offers.match_offers(self.refresh())

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

    def table_games(self, table: str) -> list[Segment]:
        """Every game the hub holds from ``table``, oldest first (a log may hold several)."""
        with self._lock:
            logs = [game for game, progress in self.games.items() if progress.table == table]
        found: list[Segment] = []
        for game in logs:
            found += segments(game, self.game_log(game))
        return found

    def match_game(self, table: str, match: Match | None) -> Segment:
        """The game to sign off at ``table``: the match's own (its setup names the match or its two
        entrants), wherever it is in the table's logs; else the newest game of the table's current log."""
        games = self.table_games(table)
        if match is not None:
            own = [g for g in games if belongs_to(g, match)]
            if own:
                return own[-1]
        live = self.tables.get(table)
        current = [g for g in games if live is not None and g.game == live.game]
        if not current:
            raise TournamentError(f"the hub has no game from table {table} yet")
        return current[-1]

    def game_summary(self, game: Segment | str) -> dict[str, Any]:
        """How a game the hub holds ended (or stands), from replaying its records (or, for a rule set this
        hub cannot replay, the table's own last state for exactly its last record). A log's id stands for
        the newest game in it."""
        if isinstance(game, str):
            found = segments(game, self.game_log(game))
            if not found:
                raise TournamentError(f"the hub holds no game {game!r}")
            game = found[-1]
        with self._lock:
            progress = self.games[game.game]
            end = game.end if game.end is not None else progress.head
            held = progress.contiguous >= end >= game.start
            live = self.tables.get(progress.table)
            state = (live.state if live and live.game == game.game else None) or {}
        if not held:
            raise TournamentError(
                f"the hub holds records 1–{progress.contiguous} of {progress.head} of {progress.table}'s log;"
                f" the game needs {game.start}–{end}: wait for the rest (is the table's link up?)"
            )
        records = [r for r in self.game_log(game.game) if game.start <= r.seq <= end]
        try:
            view = replay(records).state.public_view()
        except ValueError as exc:  # SetupError, or a log this hub's rules cannot read
            if state.get("seq") != end:
                raise TournamentError(
                    f"game {game.game} cannot be replayed here ({exc}) and the table's state is not at"
                    " its end"
                ) from exc
            view = state
        party = party_progress(view)
        return {
            "final_seq": end,
            "outcome": view.get("outcome"),
            "phase": view.get("phase"),
            "ruleset": view.get("ruleset"),
            "rooms_cleared": party.rooms_cleared,
            "gold": party.gold,
            "health": {
                str(side.get("id")): side.get("health")
                for side in view.get("sides") or []
                if isinstance(side, dict)
            },
        }

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

    def sign_off(
        self, by: str, table: str, winner: str | None = None, stopped_at_time: bool = False
    ) -> TournamentRecord:
        """The table's referee signs off the game of ``table``'s match: its result takes effect. A game
        stopped at time (not ended by its rules) is signed off with the referee's winner or a draw."""
        with self._lock:
            tournament = self.refresh()
            swiss_match = None
            if not tournament.is_campaign:
                swiss_match = tournament.match_at(tournament.current_round(), table)
                if swiss_match is None or swiss_match.b is None:
                    raise TournamentError(f"round {tournament.current_round()} has no match at table {table}")
            game = self.match_game(table, swiss_match)
            summary = self.game_summary(game)
            if summary["outcome"] is None and not (stopped_at_time and swiss_match is not None):
                raise TournamentError(
                    f"the game on {table} has not ended (phase {summary['phase']}); if play was stopped at"
                    " time, sign it off as stopped at time"
                )
            if any(r.game == game.game and r.game_start == game.start for r in tournament.results.values()):
                raise TournamentError(f"the game on {table} is already signed off")
            payload: dict[str, Any] = {
                "table": table,
                "game": game.game,
                "game_start": game.start,
                "final_seq": summary["final_seq"],
                "outcome": summary["outcome"],
            }
            if swiss_match is None:
                done = sum(1 for (_, t) in tournament.results if t == table)
                payload.update(round=done + 1, rooms_cleared=summary["rooms_cleared"], gold=summary["gold"])
            else:
                names = {e.id: e.name for e in tournament.entrants.values()}
                payload.update(_swiss_result(swiss_match, game, summary, winner, stopped_at_time, names))
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
            if tournament.is_campaign:
                live = {t: v.state for t, v in self.tables.items() if v.state is not None}
                return [row.to_json() for row in campaign.leaderboard(tournament, live)]
            return [row.to_json() for row in swiss.standings(tournament)]


def _swiss_result(
    match: Match,
    game: Segment,
    summary: dict[str, Any],
    winner: str | None,
    stopped_at_time: bool,
    names: dict[str, str],
) -> dict[str, Any]:
    """The Swiss fields of a sign-off: the round, the winner (or draw), the sides as the table played them.

    Where the game's log names one of the two entrants as the winner, that is the result and the referee only
    confirms it (a head referee corrects a wrong log). Otherwise — sides not named by entrant, or a game
    stopped at time — the referee names the winner or a draw; the Health Pools at the stop are recorded."""
    outcome = summary["outcome"]
    fields: dict[str, Any] = {"round": match.round}
    if outcome in (match.a, match.b) and not stopped_at_time:
        if winner not in (None, "", outcome):
            raise TournamentError(
                f"the game's log says {names.get(outcome, outcome)} won at {match.table}; sign that off,"
                " and a head referee corrects it if the log is wrong"
            )
        winner = outcome
    elif stopped_at_time:
        if outcome is not None:
            raise TournamentError(f"the game at {match.table} ended by its rules: sign off its result")
        fields.update(stopped_at_time=True, health=summary["health"])
    if winner not in (match.a, match.b, DRAW):
        a, b = match.a, match.b or ""
        raise TournamentError(
            f"name the winner at {match.table}: {names.get(a, a)}, {names.get(b, b)} or a draw"
        )
    fields["winner"] = winner
    order = sides_in_order(game, match)
    if order is not None:
        fields["sides"] = order
    return fields


def _contiguous(held: set[int]) -> int:
    top = 0
    while top + 1 in held:
        top += 1
    return top


__all__ = ["DRAW", "Hub"]
