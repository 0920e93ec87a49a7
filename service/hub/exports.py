"""Standings and results as CSV and JSON, and the Swiss as a FIDE Tournament Report File (TRF16).

TRF16 (FIDE Handbook C.04 Annex 2, "TRF16") is the exchange format of Swiss tools: Swiss-Manager, Vega and
the JaVaFo and bbpPairings engines read it, with JaVaFo's ``XXR`` line for the number of rounds. A game's
sides are its colours: the entrant on the first side of the game's setup is white (the sides the table
recorded, else the pairing's). A bye is ``0000 - U`` (a pairing-allocated bye, one point), a draw ``=``, a
withdrawn entrant's unpaired round ``0000 - Z``. A game not yet signed off has no result yet, so its round
is left out for both players, as a round being paired is.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from service.hub import swiss
from service.hub.model import DRAW, Tournament


def results_rows(tournament: Tournament) -> list[dict[str, Any]]:
    rows = []
    for (round_number, table), result in sorted(tournament.results.items()):
        match = tournament.match_at(round_number, table)
        last = result.corrections[-1] if result.corrections else None
        rows.append(
            {
                "round": round_number,
                "table": table,
                "a": match.a if match else None,
                "b": match.b if match else None,
                "winner": result.winner,
                "stopped_at_time": result.stopped_at_time,
                "sides": list(result.sides) or None,
                "rooms_cleared": result.rooms_cleared,
                "gold": result.gold,
                "outcome": result.outcome,
                "game": result.game,
                "game_start": result.game_start,
                "final_seq": result.final_seq,
                "game_log": f"/hub/games/{result.game}/log.jsonl?upto={result.final_seq}",
                "signed_by": result.signed_by,
                "signed_at": result.signed_at,
                "corrected_by": last.by if last else None,
                "correction_reason": last.reason if last else None,
            }
        )
    return rows


def to_json(tournament: Tournament, standings: list[dict[str, Any]]) -> str:
    return json.dumps(
        {
            "event": tournament.name,
            "format": tournament.format,
            "standings": standings,
            "results": results_rows(tournament),
        },
        indent=2,
        ensure_ascii=False,
    )


def to_csv(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    flat = [{k: (json.dumps(v) if isinstance(v, dict | list) else v) for k, v in row.items()} for row in rows]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(flat[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat)
    return out.getvalue()


def to_trf(tournament: Tournament) -> str:
    """The Swiss as TRF16: a header, one ``001`` line per entrant with every round's game, then ``XXR``."""
    if tournament.is_campaign:
        raise ValueError("a campaign leaderboard has no pairings to write as TRF; export CSV or JSON")
    table = {s.entrant: s for s in swiss.standings(tournament)}
    number = {e.id: e.seed for e in tournament.entrants.values()}
    colours = _colours_by_round(tournament)
    format_ = tournament.format_of()
    teams = format_ is not None and format_.teams
    lines = [
        f"012 {tournament.name}",
        f"062 {len(tournament.entrants)}",
        "092 Team: Swiss-System" if teams else "092 Individual: Swiss-System",
    ]
    for entrant in sorted(tournament.entrants.values(), key=lambda e: e.seed):
        standing = table[entrant.id]
        line = list(f"001 {entrant.seed:4d}".ljust(89))
        _put(line, 15, entrant.name[:33].ljust(33))
        _put(line, 81, f"{float(standing.points):4.1f}")
        _put(line, 86, f"{standing.rank:4d}")
        text = "".join(line)
        for round_number, matches in enumerate(tournament.rounds, start=1):
            text += _round_cell(tournament, matches, entrant.id, round_number, number, colours)
        lines.append(text.rstrip())
    lines.append(f"XXR {max(len(tournament.rounds), 1)}")
    return "\r\n".join(lines) + "\r\n"


def _colours_by_round(tournament: Tournament) -> dict[tuple[int, str], str]:
    """(round, entrant) → "w" or "b": the side each played, as swiss.colour_history reads it."""
    history = swiss.colour_history(tournament)
    taken = {entrant: iter(sides) for entrant, sides in history.items()}
    colours = {}
    for round_number, matches in enumerate(tournament.rounds, start=1):
        for match in matches:
            if match.b is not None:
                for entrant in (match.a, match.b):
                    colours[(round_number, entrant)] = next(taken[entrant])
    return colours


def _put(line: list[str], column: int, text: str) -> None:
    """Write ``text`` starting at the 1-based ``column``, as the TRF tables count."""
    for offset, char in enumerate(text):
        line[column - 1 + offset] = char


def _round_cell(
    tournament: Tournament,
    matches: list[Any],
    entrant: str,
    round_number: int,
    number: dict[str, int],
    colours: dict[tuple[int, str], str],
) -> str:
    match = next((m for m in matches if entrant in (m.a, m.b)), None)
    if match is None:
        return "  0000 - Z"  # not paired (withdrawn): a zero-point bye
    if match.b is None:
        return "  0000 - U"
    result = tournament.results.get((round_number, match.table))
    if result is None:
        return ""  # not signed off yet: no result to report
    opponent = match.b if match.a == entrant else match.a
    if result.winner == DRAW:
        mark = "="
    else:
        mark = "1" if result.winner == entrant else "0"
    return f"  {number[opponent]:4d} {colours[(round_number, entrant)]} {mark}"
