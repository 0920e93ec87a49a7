"""The referee's set-up pages (docs/setup.md): the set-up wizard, enrolling discs and the guided
calibration of the mat.

Kept apart from the console (its own blueprint, templates and scripts): the pages read the table's state from
the dashboard's view and send the ``setup_game``, ``rescan``, ``enrol_*`` and ``calibrate_*``
commands.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request

from service.content import load_content
from web_dashboard.resources import current_dashboard
from web_dashboard.security import referee_required

bp = Blueprint("setup_console", __name__, url_prefix="/referee/setup")


@bp.get("/calibrate")
@referee_required
def calibrate() -> str:
    return render_template("setup_calibrate.html", table=current_dashboard().table)


@bp.get("/")
@referee_required
def wizard() -> str:
    return render_template("setup_wizard.html", table=current_dashboard().table)


@bp.get("/enrol")
@referee_required
def enrol() -> str:
    return render_template("setup_enrol.html", table=current_dashboard().table)


@bp.get("/choices.json")
@referee_required
def choices() -> Response:
    """The heroes, Catacomb Lords and rooms the wizard offers, from the shipped cards of a rule set."""
    ruleset = request.args.get("ruleset", "catacombs-3e")
    try:
        content = load_content(ruleset)
    except (ValueError, OSError) as exc:  # ContentError is a ValueError
        abort(404, description=f"no cards for rule set {ruleset!r}: {exc}")
    return jsonify(
        {
            "ruleset": ruleset,
            "heroes": [{"id": k, "name": v.name} for k, v in sorted(content.heroes.items())],
            "lords": [{"id": k, "name": v.name} for k, v in sorted(content.lords.items())],
            "rooms": [{"id": k, "name": v.name} for k, v in sorted(content.rooms.items())],
        }
    )
