"""The referee's set-up pages (docs/setup.md): the set-up wizard, enrolling discs and the guided
calibration of the mat.

Kept apart from the console (its own blueprint, templates and scripts): the pages read the table's state from
the dashboard's view and send the ``setup_game``, ``rescan``, ``enrol_*`` and ``calibrate_*``
commands.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request

from service.content import load_content
from service.games.castles.content import load_castles_content
from service.table.setup_game import WIZARD_CASTLES_RULESETS
from web_dashboard.security import referee_required
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("setup_console", __name__, url_prefix="/referee/setup")

# The games the wizard cannot set up from a choice: each is set up from its table file, in words why.
FROM_THE_TABLE_FILE = {
    "catacombs-1e": "A First Edition Catacombs game is set up from the table file: its heroes, Lord and "
    "rooms are the file's game section (smartmat run --ruleset catacombs-1e, or --table with your own file).",
    "catacombs-and-castles-1e": "A First Edition Catacombs & Castles game is set up from the table file: its "
    "modes, heroes, abilities and board sides are the file's game section (smartmat run --mode picks the "
    "mode).",
}


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
    if ruleset in WIZARD_CASTLES_RULESETS:
        return jsonify(_castles_choices(ruleset))
    if ruleset in FROM_THE_TABLE_FILE:
        # The wizard offers no choice for these games yet: the page says so instead of showing empty lists.
        return jsonify({"ruleset": ruleset, "from_table_file": FROM_THE_TABLE_FILE[ruleset]})
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
            **({"castles_heroes": _castles_heroes(set(content.heroes))} if ruleset == "catacombs-3e" else {}),
        }
    )


def _castles_heroes(known: set[str]) -> list[dict[str, str]]:
    """The Castles heroes a 3E game may add with the ``castles`` expansion, offered when the referee ticks it
    (catacombs-and-castles-2e-manual.md: Catacombs 3E Integration)."""
    with_castles = load_content("catacombs-3e", expansions=("castles",))
    return [{"id": k, "name": v.name} for k, v in sorted(with_castles.heroes.items()) if k not in known]


def _castles_choices(ruleset: str) -> dict[str, object]:
    """The modes, heroes, bosses and warriors of a Catacombs & Castles rule set, each hero, boss and warrior
    with its team (the page offers a side only its own team's)."""
    content = load_castles_content(ruleset)

    def listed(records: object, *fields: str) -> list[dict[str, object]]:
        return [
            {"id": k, "name": v.name, **{f: getattr(v, f) for f in fields}}
            for k, v in sorted(records.items())  # type: ignore[attr-defined]
        ]

    return {
        "ruleset": ruleset,
        "modes": listed(content.modes),
        "heroes": listed(content.heroes, "team", "role"),
        "bosses": listed(content.bosses, "team"),
        "warriors": listed(content.warriors, "team"),
    }
