"""The cards a Catacombs setup plays with: 3E's shipped cards (with an organiser's overlay and the
expansions the setup names, the Castles heroes among them) or a registered fixture set, and 1E's shipped
cards."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.loading import SetupContentError, overlay_of, shipped_only

# The content modules (YAML, JSON Schema) are imported when a setup is loaded, not with the registry.


def third_edition_content(setup: Mapping[str, Any], fixtures: Mapping[str, Callable[[], Any]]) -> Any:
    source = setup.get("content", "shipped")
    if isinstance(source, str) and source in fixtures:
        return fixtures[source]()
    if source != "shipped":
        known = " or ".join(repr(name) for name in ("shipped", *sorted(fixtures)))
        raise SetupContentError(f"setup 'content' must be {known}, got {source!r}")
    from service.content import ContentError
    from service.games.catacombs.adapter import rules_content
    from service.games.catacombs.content import load_content as load_shipped
    from service.games.catacombs.integration_adapter import integrated_content

    overlay = overlay_of(setup)
    expansions = setup.get("expansions", [])
    if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
        raise SetupContentError(
            f"setup 'expansions' must list expansion names (soloth, castles), got {expansions!r}"
        )
    try:
        loaded = load_shipped(setup.get("ruleset", "catacombs-3e"), overlay, tuple(expansions))
        if "castles" in expansions:
            # The Castles heroes, Dark Spells and playmat in a 3E game (integration_adapter.py).
            return integrated_content(loaded)
        return rules_content(loaded)
    except ContentError as exc:  # a log naming an overlay that is gone or broken on this machine
        raise SetupContentError(f"the setup's content cannot be loaded: {exc}") from exc


def first_edition_content(setup: Mapping[str, Any], fixtures: Mapping[str, Callable[[], Any]]) -> Any:
    from service.content import ContentError
    from service.games.catacombs.content.first_edition import load_catacombs1e_content

    shipped_only(setup)
    overlay = overlay_of(setup)
    try:
        return load_catacombs1e_content(overlay)
    except ContentError as exc:
        raise SetupContentError(f"the setup's content cannot be loaded: {exc}") from exc


# A Monster card's printed disc size → the piece class of content/pieces.yaml its discs are.
DISC_SIZE_CLASSES = {
    "small": "monster-extra-small",
    "medium": "monster-medium",
    "large": "monster-large",
    "cube": "gelatinous-cube",
}


def third_edition_monster_sizes() -> Callable[[str], str | None]:
    """Monster card id → piece class, from the disc sizes printed on 3E's shipped Monster cards."""
    from service.games.catacombs.content import load_content

    monsters = load_content("catacombs-3e").monsters

    def size_of(card: str) -> str | None:
        monster = monsters.get(card)
        return DISC_SIZE_CLASSES.get(monster.disc_size or "") if monster else None

    return size_of
