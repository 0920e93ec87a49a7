"""What the table publishes of a shot (the ``shot`` topic, docs/mqtt.md) and of the shot it waits on (the
snapshot's ``pending_shot`` and ``attributing``, docs/state.md), built from the ``shot`` and ``attribution``
records the session folds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.table.wording import Names, doubt

# A shot's status on the ``shot`` topic (docs/mqtt.md): the mat is reading it, it waits for the referee, it
# was applied (by the table or the referee), set aside unresolved, or applied and then undone.
ATTRIBUTING, WAITING, RESOLVED = "attributing", "waiting", "resolved"
SET_ASIDE, UNDONE = "set_aside", "undone"


def shot_view(seq: int, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The ``shot`` topic's payload for a ``shot`` record."""
    summary = payload.get("attribution") or {}
    flicked = payload.get("flicked") or summary.get("flicked")
    view: dict[str, Any] = {
        "shot_seq": seq,
        "character": payload.get("character"),
        "shot": payload.get("shot"),
        "declaration": {
            "flicked": flicked,
            "shot": payload.get("shot"),
            "character": payload.get("character"),
        },
        "flicked": flicked,
        # The character whose disc was flicked, when the mat knows it (not for a ranged piece).
        "flicked_character": payload.get("flicked_character") or summary.get("flicked_character"),
        "status": ATTRIBUTING if payload.get("attributing") else WAITING,
        "candidates": [],
        "reasons": [],
        "resolved": False,
    }
    if payload.get("unreadable"):
        view["unreadable"] = payload["unreadable"]
        view["reasons"] = [payload["unreadable"]]
    if payload.get("camera"):
        view["camera"] = payload["camera"]  # what the overhead camera gave this shot, in words
    if not payload.get("attributing") and "candidates" in payload:
        view.update(reading_view(payload))  # a log of before readings had records of their own
    return view


def reading_of(payload: Mapping[str, Any]) -> dict[str, Any]:
    """What a reading adds to the shot waiting for it (the referee confirms from these candidates)."""
    reading = {
        "auto": bool(payload.get("auto")),
        "candidates": list(payload.get("candidates") or []),
        "attribution": dict(payload.get("attribution") or {}),
    }
    if payload.get("unreadable"):
        reading["unreadable"] = payload["unreadable"]
    return reading


def reading_view(payload: Mapping[str, Any]) -> dict[str, Any]:
    summary = payload.get("attribution") or {}
    view = {
        key: summary[key]
        for key in ("flicked", "flicked_character", "threshold", "calibration", "rollouts", "elapsed_s")
        if key in summary
    }
    if payload.get("unreadable"):
        view["unreadable"] = payload["unreadable"]
    return {
        **view,
        "auto_apply": bool(payload.get("auto")),
        "reasons": list(summary.get("reasons", [])),
        "candidates": list(payload.get("candidates") or []),
        "status": WAITING,
    }


def needs_referee(pending: Mapping[str, Any], names: Names) -> dict[str, Any]:
    summary = pending.get("attribution") or {}
    threshold = summary.get("threshold")
    asked = {**pending, "reasons": summary.get("reasons") or []}
    text = doubt(asked, names, float(threshold) if threshold is not None else None)
    return {"type": "shot_needs_referee", "text": text, "shot_seq": pending["seq"]}


def attributing_of(pending: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The shot the mat is still reading (docs/state.md: table.attributing), or None."""
    if pending is None or not pending.get("attributing"):
        return None
    return {"seq": pending["seq"], "character": pending.get("character"), "shot": pending.get("shot")}


def shot_summary(pending: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if pending is None or pending.get("auto") or pending.get("attributing"):
        return None
    return {
        "seq": pending["seq"],
        "character": pending.get("character"),
        "shot": pending.get("shot"),
        "candidates": pending.get("candidates", []),
        # Why the referee has it, in words, when the mat could not read the shot at all (docs/state.md).
        "unreadable": pending.get("unreadable"),
    }
