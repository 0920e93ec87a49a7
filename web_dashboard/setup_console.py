"""The referee's set-up pages: the guided calibration of the mat (docs/setup.md, "Calibrating the mat").

Kept apart from the console (its own blueprint, templates and script): the pages read the table's state
(its ``calibration`` block) from the dashboard's view and send the ``calibrate_*`` commands.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from web_dashboard.resources import current_dashboard
from web_dashboard.security import referee_required

bp = Blueprint("setup_console", __name__, url_prefix="/referee/setup")


@bp.get("/calibrate")
@referee_required
def calibrate() -> str:
    return render_template("setup_calibrate.html", table=current_dashboard().table)
