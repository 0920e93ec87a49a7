"""The tournament as a fold of the hub's records: pure, no I/O, every change checked before it is applied.

Records (``kind`` and ``payload``):

- ``event``     ``{"name", "format"}`` first and once; the format one a registered game offers
                (``service.games.tournament_formats``: its kind, Swiss or campaign, and its mode)
- ``entrant``   ``{"id", "name", "members"?, "table"?}`` a player, a team (``members``) or, in a
                campaign, a party and the table it plays at
- ``withdraw``  ``{"entrant", "reason"}`` no longer paired
- ``referee``   ``{"name", "role": "table"|"head", "tables": [...], "pin_hash"}`` a newer record replaces
- ``round``     ``{"number", "matches": [{"table", "a", "b"}]}`` ``b`` null is a bye
- ``signoff``   ``{"round", "table", "game", "game_start", "final_seq", "winner"? | "rooms_cleared"?/"gold"?,
                "outcome", "sides"?: [first side's entrant, second's], "stopped_at_time"?, "health"?}``
                by the table's referee: the result takes effect
- ``correction`` ``{"round", "table", "winner"? | "rooms_cleared"?/"gold"?, "reason"}`` by a head referee
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from service.games import CAMPAIGN, SWISS, TournamentFormat, tournament_formats
from service.hub.records import TournamentRecord

DRAW = "draw"
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


class TournamentError(ValueError):
    """A change the tournament refuses; the message says what was wrong."""


class NotAllowedError(TournamentError):
    """The referee named may not make this change."""


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str
    seed: int
    members: tuple[str, ...] = ()
    table: str | None = None
    withdrawn: bool = False


@dataclass(frozen=True)
class Referee:
    name: str
    role: str
    tables: tuple[str, ...]
    pin_hash: str


@dataclass(frozen=True)
class Match:
    round: int
    table: str
    a: str
    b: str | None  # None: a bye for ``a``


@dataclass(frozen=True)
class Correction:
    seq: int
    by: str
    at: str
    reason: str
    changes: dict[str, Any]


@dataclass(frozen=True)
class Result:
    round: int
    table: str
    game: str
    final_seq: int
    signed_by: str
    signed_at: str
    signoff_seq: int
    outcome: str | None
    game_start: int = 1  # the game's setup record: a log may hold several games
    winner: str | None = None  # an entrant id or DRAW (Swiss formats)
    rooms_cleared: int | None = None  # campaign
    gold: int | None = None  # campaign
    corrections: tuple[Correction, ...] = ()
    sides: tuple[str, ...] = ()  # the entrants in the order of the game's setup sides (first side first)
    stopped_at_time: bool = False  # the game did not end by its rules: the referee gave the result


@dataclass
class Tournament:
    name: str = ""
    format: str = ""
    entrants: dict[str, Entrant] = field(default_factory=dict)
    referees: dict[str, Referee] = field(default_factory=dict)
    rounds: list[list[Match]] = field(default_factory=list)
    results: dict[tuple[int, str], Result] = field(default_factory=dict)
    last_seq: int = 0

    # ---- reading -----------------------------------------------------------------------------------
    def format_of(self) -> TournamentFormat | None:
        """The format as the game offering it declares it; None before the event, or for a format that no
        game of this build offers (its records still fold; it pairs and scores nothing)."""
        return tournament_formats().get(self.format) if self.format else None

    @property
    def is_swiss(self) -> bool:
        """Paired rounds, a winner or a draw a match."""
        format_ = self.format_of()
        return format_ is not None and format_.kind == SWISS

    @property
    def is_campaign(self) -> bool:
        """One party per table, scored by the rooms it cleared and its gold."""
        format_ = self.format_of()
        return format_ is not None and format_.kind == CAMPAIGN

    def match_at(self, round_number: int, table: str) -> Match | None:
        if not 1 <= round_number <= len(self.rounds):
            return None
        return next((m for m in self.rounds[round_number - 1] if m.table == table), None)

    def current_round(self) -> int:
        return len(self.rounds)

    def round_complete(self, round_number: int) -> bool:
        matches = self.rounds[round_number - 1]
        return all(m.b is None or (round_number, m.table) in self.results for m in matches)

    def referee_for(self, by: str) -> Referee | None:
        name = by.removeprefix("referee:")
        return self.referees.get(name) if by.startswith("referee:") else None

    # ---- checking and applying ------------------------------------------------------------------------
    def check(self, kind: str, payload: dict[str, Any], by: str) -> None:
        handler = _CHECKS.get(kind)
        if handler is None:
            raise TournamentError(f"unknown tournament record kind {kind!r}; known: {', '.join(_CHECKS)}")
        if kind != "event" and not self.format:
            raise TournamentError("the tournament has no event yet: create it first (smartmat hub new)")
        handler(self, payload, by)

    def apply(self, record: TournamentRecord) -> None:
        _APPLY[record.kind](self, record)
        self.last_seq = record.seq


def fold(records: list[TournamentRecord]) -> Tournament:
    tournament = Tournament()
    for record in records:
        tournament.apply(record)
    return tournament


# ---- checks ----------------------------------------------------------------------------------------------
def _text(payload: dict[str, Any], key: str, what: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value.strip():
        raise TournamentError(f"{what}: '{key}' must be non-empty text, got {value!r}")
    return value


def _ident(payload: dict[str, Any], key: str, what: str) -> str:
    value = _text(payload, key, what)
    if not _ID.match(value):
        raise TournamentError(f"{what}: '{key}' {value!r} must be lower-case letters, digits and '-'")
    return value


def _check_event(t: Tournament, p: dict[str, Any], by: str) -> None:
    if t.format:
        raise TournamentError(f"the tournament {t.name!r} already exists")
    _text(p, "name", "event")
    formats = tournament_formats()
    if p.get("format") not in formats:
        raise TournamentError(f"event: 'format' must be one of {', '.join(formats)}, got {p.get('format')!r}")


def _check_entrant(t: Tournament, p: dict[str, Any], by: str) -> None:
    entrant = _ident(p, "id", "entrant")
    _text(p, "name", f"entrant {entrant}")
    if entrant in t.entrants:
        raise TournamentError(f"entrant {entrant!r} is already registered")
    members = p.get("members", [])
    if not isinstance(members, list) or not all(isinstance(m, str) and m.strip() for m in members):
        raise TournamentError(f"entrant {entrant}: 'members' must be a list of names")
    format_ = t.format_of()
    if format_ is not None and format_.teams and not members:
        raise TournamentError(f"entrant {entrant}: a team needs its 'members'")
    if t.is_campaign:
        table = _ident(p, "table", f"party {entrant}")
        if any(e.table == table for e in t.entrants.values()):
            raise TournamentError(f"party {entrant}: table {table!r} already has a party")
    elif t.rounds:
        raise TournamentError(f"entrant {entrant}: registration closed when round 1 was paired")


def _check_withdraw(t: Tournament, p: dict[str, Any], by: str) -> None:
    entrant = _text(p, "entrant", "withdraw")
    if entrant not in t.entrants or t.entrants[entrant].withdrawn:
        raise TournamentError(f"withdraw: {entrant!r} is not an active entrant")
    _text(p, "reason", "withdraw")


def _check_referee(t: Tournament, p: dict[str, Any], by: str) -> None:
    _ident(p, "name", "referee")
    if p.get("role") not in ("table", "head"):
        raise TournamentError(f"referee {p.get('name')}: 'role' must be 'table' or 'head'")
    tables = p.get("tables", [])
    if not isinstance(tables, list) or not all(isinstance(x, str) and _ID.match(x) for x in tables):
        raise TournamentError(f"referee {p.get('name')}: 'tables' must be a list of table ids")
    if p.get("role") == "table" and not tables:
        raise TournamentError(f"referee {p.get('name')}: a table referee needs the tables they referee")
    _text(p, "pin_hash", f"referee {p.get('name')}")


def _check_round(t: Tournament, p: dict[str, Any], by: str) -> None:
    if not t.is_swiss:
        raise TournamentError(f"a {t.format} tournament has no paired rounds")
    if p.get("number") != len(t.rounds) + 1:
        raise TournamentError(f"round: 'number' must be {len(t.rounds) + 1}, got {p.get('number')!r}")
    if t.rounds and not t.round_complete(len(t.rounds)):
        raise TournamentError(f"round {len(t.rounds)} still has games without a signed-off result")
    matches = p.get("matches")
    if not isinstance(matches, list) or not matches:
        raise TournamentError("round: 'matches' must be a non-empty list")
    seen: set[str] = set()
    tables: set[str] = set()
    for match in matches:
        if not isinstance(match, dict):
            raise TournamentError("round: each match is an object {table, a, b}")
        table = _ident(match, "table", "match")
        if table in tables:
            raise TournamentError(f"round: table {table!r} has two matches")
        tables.add(table)
        for key in ("a", "b"):
            who = match.get(key)
            if who is None and key == "b":
                continue
            if who not in t.entrants or t.entrants[who].withdrawn:
                raise TournamentError(f"round: {key} {who!r} at {table} is not an active entrant")
            if who in seen:
                raise TournamentError(f"round: {who!r} is paired twice")
            seen.add(who)


def _check_signoff(t: Tournament, p: dict[str, Any], by: str) -> None:
    referee = t.referee_for(by)
    table = _ident(p, "table", "sign-off")
    if referee is None:
        raise NotAllowedError(f"sign-off: {by!r} is not a referee of this tournament")
    if referee.role != "head" and table not in referee.tables:
        raise NotAllowedError(f"sign-off: referee {referee.name} does not referee table {table}")
    round_number = p.get("round")
    if not isinstance(round_number, int):
        raise TournamentError("sign-off: 'round' must be a round number")
    if (round_number, table) in t.results:
        raise TournamentError(
            f"round {round_number} at {table} is already signed off; a head referee corrects it"
        )
    _text(p, "game", "sign-off")
    if not isinstance(p.get("final_seq"), int) or not isinstance(p.get("game_start", 1), int):
        raise TournamentError("sign-off: 'final_seq' and 'game_start' must be seqs of the game's log")
    if t.is_campaign:
        party = next((e for e in t.entrants.values() if e.table == table), None)
        if party is None:
            raise TournamentError(f"sign-off: no party plays at table {table}")
        _check_campaign_numbers(p, "sign-off")
        return
    match = t.match_at(round_number, table)
    if match is None or match.b is None:
        raise TournamentError(f"sign-off: round {round_number} has no match at table {table}")
    if p.get("winner") not in (match.a, match.b, DRAW):
        raise TournamentError(
            f"sign-off: 'winner' must be {match.a}, {match.b} or draw, got {p.get('winner')!r}"
        )
    sides = p.get("sides", [match.a, match.b])
    if not isinstance(sides, list) or sorted(sides) != sorted([match.a, match.b]):
        raise TournamentError(f"sign-off: 'sides' must name {match.a} and {match.b} in the game's order")


def _check_campaign_numbers(p: dict[str, Any], what: str) -> None:
    for key in ("rooms_cleared", "gold"):
        value = p.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TournamentError(f"{what}: '{key}' must be a whole number ≥ 0, got {value!r}")


def _check_correction(t: Tournament, p: dict[str, Any], by: str) -> None:
    referee = t.referee_for(by)
    if referee is None or referee.role != "head":
        raise NotAllowedError(f"correction: only a head referee corrects a result, not {by!r}")
    reason = _text(p, "reason", "correction")
    if len(reason.strip()) < 3:
        raise TournamentError("correction: say why in 'reason'")
    key = (p.get("round"), p.get("table"))
    result = t.results.get(key)  # type: ignore[arg-type]
    if result is None:
        raise TournamentError(f"correction: no signed-off result for round {key[0]} at table {key[1]}")
    if t.is_campaign:
        _check_campaign_numbers(
            {"rooms_cleared": result.rooms_cleared, "gold": result.gold, **p}, "correction"
        )
        return
    match = t.match_at(result.round, result.table)
    assert match is not None
    if p.get("winner") not in (match.a, match.b, DRAW):
        raise TournamentError(f"correction: 'winner' must be {match.a}, {match.b} or draw")


_CHECKS = {
    "event": _check_event,
    "entrant": _check_entrant,
    "withdraw": _check_withdraw,
    "referee": _check_referee,
    "round": _check_round,
    "signoff": _check_signoff,
    "correction": _check_correction,
}


# ---- applying --------------------------------------------------------------------------------------------
def _apply_event(t: Tournament, r: TournamentRecord) -> None:
    t.name, t.format = r.payload["name"], r.payload["format"]


def _apply_entrant(t: Tournament, r: TournamentRecord) -> None:
    p = r.payload
    t.entrants[p["id"]] = Entrant(
        p["id"], p["name"], len(t.entrants) + 1, tuple(p.get("members", [])), p.get("table")
    )


def _apply_withdraw(t: Tournament, r: TournamentRecord) -> None:
    entrant = r.payload["entrant"]
    t.entrants[entrant] = replace(t.entrants[entrant], withdrawn=True)


def _apply_referee(t: Tournament, r: TournamentRecord) -> None:
    p = r.payload
    t.referees[p["name"]] = Referee(p["name"], p["role"], tuple(p.get("tables", [])), p["pin_hash"])


def _apply_round(t: Tournament, r: TournamentRecord) -> None:
    number = r.payload["number"]
    t.rounds.append([Match(number, m["table"], m["a"], m.get("b")) for m in r.payload["matches"]])


def _apply_signoff(t: Tournament, r: TournamentRecord) -> None:
    p = r.payload
    t.results[(p["round"], p["table"])] = Result(
        round=p["round"],
        table=p["table"],
        game=p["game"],
        final_seq=p["final_seq"],
        game_start=p.get("game_start", 1),
        signed_by=r.by,
        signed_at=r.at,
        signoff_seq=r.seq,
        outcome=p.get("outcome"),
        winner=p.get("winner"),
        rooms_cleared=p.get("rooms_cleared"),
        gold=p.get("gold"),
        sides=tuple(p.get("sides", ())),
        stopped_at_time=bool(p.get("stopped_at_time", False)),
    )


def _apply_correction(t: Tournament, r: TournamentRecord) -> None:
    p = r.payload
    key = (p["round"], p["table"])
    result = t.results[key]
    changes: dict[str, Any] = {k: p[k] for k in ("winner", "rooms_cleared", "gold") if k in p}
    correction = Correction(r.seq, r.by, r.at, p["reason"], changes)
    t.results[key] = replace(result, **changes, corrections=result.corrections + (correction,))


_APPLY = {
    "event": _apply_event,
    "entrant": _apply_entrant,
    "withdraw": _apply_withdraw,
    "referee": _apply_referee,
    "round": _apply_round,
    "signoff": _apply_signoff,
    "correction": _apply_correction,
}
