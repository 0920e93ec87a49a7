"""What the set-up wizard offers at a Catacombs & Castles table: the modes, and each team's heroes, bosses and
warriors, from the shipped cards (each hero, boss and warrior with its team: the page offers a side only its
own team's).

The First Edition adds the side of the board played (catacombs-and-castles-1e-manual.txt: Team Mode Setup,
"Placing The Heroes": the team opposite the board's side goes first, so there is no choice of who starts) and
whether the heroes take Armour Tokens (Armour Tokens); each hero takes the Ability cards its content
recommends.
"""

from __future__ import annotations

from typing import Any

from service.games.castles.content import load_castles_content

BOARD_SIDES = [{"id": "castle", "name": "the Castle side"}, {"id": "catacomb", "name": "the Catacomb side"}]


def _listed(records: Any, *fields: str) -> list[dict[str, Any]]:
    return [
        {"id": k, "name": v.name, **{f: getattr(v, f) for f in fields}} for k, v in sorted(records.items())
    ]


def choices_of(ruleset: str) -> dict[str, Any]:
    content = load_castles_content(ruleset)
    return {
        "modes": _listed(content.modes),
        "heroes": _listed(content.heroes, "team", "role"),
        "bosses": _listed(content.bosses, "team"),
        "warriors": _listed(content.warriors, "team"),
    }


def second_edition_choices() -> dict[str, Any]:
    return choices_of("catacombs-and-castles-2e")


def first_edition_choices() -> dict[str, Any]:
    return {**choices_of("catacombs-and-castles-1e"), "board_sides": BOARD_SIDES, "armour_tokens": True}
