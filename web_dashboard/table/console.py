"""The referee console: doubtful shots, manual shot entry, corrections, undo, pause / resume, re-scan."""

from __future__ import annotations

from flask import Blueprint, render_template

from service.games import definitions
from web_dashboard.security import referee_required
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("console", __name__, url_prefix="/referee")


@bp.get("/console")
@referee_required
def console() -> str:
    # What each game lets the referee set by hand, by rule set: the correction form offers the game's own.
    corrections = {game.name: [list(c) for c in game.corrections] for game in definitions()}
    return render_template("console.html", table=current_dashboard().table, corrections=corrections)
