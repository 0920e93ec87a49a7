"""What the set-up wizard offers at a Catacombs table: the heroes, Catacomb Lords and rooms of the shipped
cards.

- Third Edition: any four heroes, a Lord and optionally the rooms in order; the Castles heroes join the choice
  when the referee adds the ``castles`` expansion (catacombs-and-castles-2e-manual.md: Catacombs 3E
  Integration).
- First Edition: the game is played with all four heroes (catacombs-1e-rules-italian.txt: Preparazione del
  gioco), so the wizard shows them chosen; the referee picks the Lord (Scegliere un Signore della Catacomba).
  The Room deck is dealt as Configurare la Catacomba says, so no rooms are offered. Cards are printed in
  Italian: each choice reads "English (Italiano)".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.content.reading import read_ruleset
from service.games.catacombs.content import load_content
from service.games.catacombs.content.first_edition import FILES as FIRST_EDITION_FILES
from service.games.catacombs.content.first_edition import RULESET as FIRST_EDITION
from service.games.choice import ID, SetupRefused, ids
from service.games.definition import TableFile

THIRD_EDITION = "catacombs-3e"


def third_edition_choices() -> dict[str, Any]:
    content = load_content(THIRD_EDITION)
    with_castles = load_content(THIRD_EDITION, expansions=("castles",))
    return {
        "heroes": [{"id": k, "name": v.name} for k, v in sorted(content.heroes.items())],
        "lords": [{"id": k, "name": v.name} for k, v in sorted(content.lords.items())],
        "rooms": [{"id": k, "name": v.name} for k, v in sorted(content.rooms.items())],
        "castles_heroes": [
            {"id": k, "name": v.name}
            for k, v in sorted(with_castles.heroes.items())
            if k not in content.heroes
        ],
    }


def first_edition_choices() -> dict[str, Any]:
    records = read_ruleset(FIRST_EDITION, FIRST_EDITION_FILES, None)

    def named(key: str) -> list[dict[str, str]]:
        return [{"id": rid, "name": _in_english(raw)} for rid, raw in records.data(key)]

    return {"heroes": named("heroes"), "lords": named("lords"), "rooms": [], "all_heroes": True}


def _in_english(raw: dict[str, Any]) -> str:
    printed = str(raw.get("name", ""))
    english = raw.get("english_name")
    return f"{english} ({printed})" if english and english != printed else printed


def catacombs_setup(args: Mapping[str, Any], table: TableFile, games_so_far: int) -> dict[str, Any]:
    """The setup record for the wizard's choice: the heroes, the Lord, a fixed room deck if chosen, and the
    table file's seed, content, settings and expansions (a choice may name its own expansions: castles puts
    Castles heroes in the party)."""
    heroes = ids(args, "heroes", 1, 4)
    lord = args.get("lord")
    if not isinstance(lord, str) or not ID.match(lord):
        raise SetupRefused(f"lord: expected a Catacomb Lord's id like 'vasesak-the-sorcerer', got {lord!r}")
    rooms = ids(args, "rooms", 1, 12) if args.get("rooms") else []
    # The table's expansions unless the choice names its own (castles: the Castles heroes in the party).
    expansions = ids(args, "expansions", 0, 4) if "expansions" in args else list(table.game.expansions)
    return {
        "ruleset": table.ruleset,
        "heroes": heroes,
        "lord": lord,
        "rooms": rooms,
        "seed": table.game.seed + games_so_far,
        "content": table.game.content,
        **({"settings": dict(table.game.settings)} if table.game.settings else {}),
        **({"expansions": expansions} if expansions else {}),
    }
