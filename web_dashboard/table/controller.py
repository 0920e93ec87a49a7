"""The turn controller: whose turn, legal actions as big buttons, shot progress, pending decisions."""

from __future__ import annotations

from flask import Blueprint, render_template

from web_dashboard.security import referee_required
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("controller", __name__, url_prefix="/referee")


@bp.get("/turn")
@referee_required
def turn() -> str:
    return render_template("controller.html", table=current_dashboard().table)
