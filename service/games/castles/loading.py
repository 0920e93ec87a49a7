"""The cards a Catacombs & Castles setup (either edition) plays with: the shipped cards of its edition, with
an organiser's overlay."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.loading import SetupContentError, overlay_of, shipped_only


def castles_content(setup: Mapping[str, Any], fixtures: Mapping[str, Callable[[], Any]]) -> Any:
    from service.content import ContentError
    from service.games.castles.adapter import castles_cards
    from service.games.castles.content import load_castles_content

    shipped_only(setup)
    overlay = overlay_of(setup)
    try:
        return castles_cards(load_castles_content(setup["ruleset"], overlay))
    except ContentError as exc:
        raise SetupContentError(f"the setup's content cannot be loaded: {exc}") from exc
