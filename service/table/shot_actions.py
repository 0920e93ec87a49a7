"""From an attribution's candidates (discs) to what the rules and the referee need (characters, an action).

Pure: no I/O, no clock. :func:`read_shot` runs off the game thread (service/daemon/shot_reader.py), so all it
needs is handed in as a frozen :class:`ReadingContext` taken when the shot was observed; :func:`settle`
runs on the game thread and decides, with the rules' check, whether the table applies the top reading itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from service.attribution.infer import Attribution, AttributionConfig, Candidate
from service.mat.trace import Scan, SeenPiece, ShotTrace

CANDIDATES_KEPT = 5  # the readings the referee is shown (and the shot's record keeps)

Attribute = Callable[[ShotTrace, AttributionConfig], Attribution]


@dataclass(frozen=True)
class ReadingContext:
    """The game as it stood when the shot was observed: which disc is which character, who was frozen."""

    discs: Mapping[str, str]  # character id -> disc
    frozen: frozenset[str] = frozenset()  # characters under an ice piece (3E reference: Ice Shot)


@dataclass(frozen=True)
class Reading:
    """One shot's attribution in the table's terms: what its ``attribution`` record will hold."""

    shot_seq: int
    summary: dict[str, Any]
    candidates: list[dict[str, Any]]
    auto_apply: bool
    result: Attribution | None = None  # with the trace, for the table's self-calibration; never logged
    trace: ShotTrace | None = None
    error: str | None = None  # the attribution failed: the referee enters the shot


def read_shot(
    shot_seq: int, trace: ShotTrace, config: AttributionConfig, ctx: ReadingContext, attribute: Attribute
) -> Reading:
    result = attribute(trace, config)
    summary = attribution_summary(result)
    # The character whose disc was flicked (a teammate's, a grabbed enemy's); none for a ranged piece.
    of_piece = {piece: character for character, piece in ctx.discs.items()}
    summary["flicked_character"] = of_piece.get(trace.declaration.flicked)
    return Reading(
        shot_seq=shot_seq,
        summary=summary,
        candidates=[candidate_json(c, trace.pre, ctx) for c in result.candidates[:CANDIDATES_KEPT]],
        auto_apply=result.auto_apply,
        result=result,
        trace=trace,
    )


def candidate_json(candidate: Candidate, pre: Scan, ctx: ReadingContext) -> dict[str, Any]:
    """A candidate in characters' terms (what the rules need) as well as discs' (what the board shows)."""
    of_piece = {piece: character for character, piece in ctx.discs.items()}
    body = candidate.to_json()
    body["hit_characters"] = [of_piece[p] for p in sorted(candidate.direct_hits) if p in of_piece]
    body["off_mat_characters"] = [of_piece[p] for p in sorted(candidate.left_mat) if p in of_piece]
    # An ice piece knocked off frees the character it covered (3E reference: Ice Shot): the frozen
    # character whose disc lay under that piece before the shot.
    where = pre.by_piece()
    frozen_discs = [where[p] for c, p in ctx.discs.items() if c in ctx.frozen and p in where]
    freed = []
    for cover in sorted(candidate.covers_knocked_off):
        if cover in where and (under := _nearest(where[cover], frozen_discs)) is not None:
            freed.append(of_piece[under.piece])
    body["freed_characters"] = freed
    return body


def resolve_action(
    expected: Mapping[str, Any], candidate: Mapping[str, Any], flicked: str | None = None
) -> dict[str, Any]:
    """The ``resolve_shot`` action for a reading; ``flicked``: whose disc the mat saw flicked, if anyone's."""
    action = {
        "action": "resolve_shot",
        "character": expected["character"],
        "shot": expected["shot"],
        "direct_hits": list(candidate.get("hit_characters", [])),
        "pushed_off_mat": list(candidate.get("off_mat_characters", [])),
        "knocked_off": list(candidate.get("freed_characters", [])),
    }
    if flicked is not None:
        action["flicked"] = flicked
    return action


def settle(
    reading: Reading, shot: Mapping[str, Any] | None, refusal: Callable[[dict[str, Any]], str | None]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The ``attribution`` record's payload for a reading of ``shot`` (its ``shot`` record's payload; None
    when that shot no longer waits for it), and the ``resolve_shot`` action the table applies itself, or None
    when the referee decides.

    ``refusal`` is the rules' answer to the top reading's action: None when legal, else why not."""
    summary = dict(reading.summary)
    action = None
    unreadable = None
    if reading.error is not None:
        unreadable = f"the attribution failed ({reading.error})"
        summary["reasons"] = [*summary.get("reasons", []), unreadable]
    elif shot is not None and reading.auto_apply and reading.candidates:
        action = resolve_action(shot, reading.candidates[0], summary.get("flicked_character"))
        why = refusal(action)
        if why is not None:
            # The referee is told why a sure reading came to them (the rules' words, without a citation).
            summary["reasons"] = [
                *summary.get("reasons", []),
                f"the likeliest reading is not allowed by the rules: {why}",
            ]
            action = None
    payload = {
        "shot": reading.shot_seq,
        "auto": action is not None,
        "attribution": summary,
        "candidates": reading.candidates,
    }
    if unreadable is not None:
        payload["unreadable"] = unreadable
    return payload, action


def attribution_summary(result: Attribution) -> dict[str, Any]:
    return {
        "flicked": result.flicked,
        "probability": round(result.top.probability, 4) if result.candidates else 0.0,
        "rollouts": result.rollouts,
        "elapsed_s": round(result.elapsed_s, 3),
        "runner_up": round(result.candidates[1].probability, 4) if len(result.candidates) > 1 else 0.0,
        "calibration": result.calibration,
        "reasons": list(result.reasons),
        "threshold": result.threshold,
        "auto_apply": result.auto_apply,
    }


def _nearest(piece: SeenPiece, others: list[SeenPiece]) -> SeenPiece | None:
    return min(others, key=lambda o: math.dist((o.x_mm, o.y_mm), (piece.x_mm, piece.y_mm)), default=None)


def answered_discs(
    pending: Mapping[str, Any], args: Mapping[str, Any], discs: Mapping[str, str]
) -> frozenset[str] | None:
    """The pieces a referee's ``confirm_hits`` says the flicked disc touched directly, in the attribution's
    terms (for the table's calibration). A reading picked as shown gives its own pieces; hits entered by
    hand (characters or discs) give the pieces of the reading with exactly those characters, or else the
    characters' discs (a touch on a piece no character owns cannot be entered by hand)."""
    candidates = pending.get("candidates") or []
    index = args.get("candidate")
    if "direct_hits" not in args and isinstance(index, int) and 0 <= index < len(candidates):
        return frozenset(candidates[index].get("direct_hits", []))
    named = args.get("direct_hits")
    if not isinstance(named, list):
        return None
    of_disc = {disc: character for character, disc in discs.items()}
    characters = {of_disc.get(str(n), str(n)) for n in named}
    for candidate in candidates:
        if set(candidate.get("hit_characters", [])) == characters:
            return frozenset(candidate.get("direct_hits", []))
    return frozenset(discs.get(c, c) for c in characters)
