"""The referee's set-up pages (docs/setup.md): the set-up wizard, enrolling discs and the guided
calibration of the mat.

Kept apart from the console (its own blueprint, templates and scripts): the pages read the table's state from
the dashboard's view and send the ``setup_game``, ``rescan``, ``enrol_*`` and ``calibrate_*``
commands.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request

from service.games import DEFAULT_RULESET, definition_of
from web_dashboard.security import referee_required
from web_dashboard.table.resources import current_dashboard

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
    """What the wizard offers for a rule set (its heroes, Lords, rooms or modes and teams), from the game's
    shipped cards (each game's ``wizard_choices``, service/games/)."""
    ruleset = request.args.get("ruleset", DEFAULT_RULESET)
    try:
        game = definition_of(ruleset)
    except ValueError as exc:
        abort(404, description=str(exc))
    if game.wizard_choices is None:  # the page says so instead of showing empty lists
        return jsonify({"ruleset": ruleset, "title": game.title, "from_table_file": True})
    try:
        offered = game.wizard_choices()
    except (ValueError, OSError) as exc:  # ContentError is a ValueError
        abort(404, description=f"the cards of {game.title} could not be read: {exc}")
    return jsonify({"ruleset": ruleset, "title": game.title, **offered})
