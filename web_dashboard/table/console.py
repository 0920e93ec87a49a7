"""The referee console: doubtful shots, manual shot entry, corrections, undo, pause / resume, re-scan."""

from __future__ import annotations

from flask import Blueprint, render_template

from web_dashboard.security import referee_required
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("console", __name__, url_prefix="/referee")


@bp.get("/console")
@referee_required
def console() -> str:
    return render_template("console.html", table=current_dashboard().table)
