"""Whether a charged card may be performed now (catacombs-and-castles-2e-manual.md: Hero Abilities, Team
Actions, Reinforcements and Boss Action Cards): charged, its alternative named, a Boss Action at the start
of the turn with a Reinforcement Token left, the Horn of Heroes' helper, the Team Action's order."""

from __future__ import annotations

from collections.abc import Callable

from service.games.castles.core import actions as A
from service.games.castles.core.cards import ChargedCard
from service.games.castles.core.state import CastlesState, Fighter
from service.games.castles.second_edition.setup import cite2e
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    NoSuchAlternativeError,
    NotYourTurnError,
)

ACTIONS = cite2e("Hero Actions")
SEQUENCES = cite2e("Shot Sequences")


def check_ready(
    state: CastlesState,
    c: Fighter,
    card: ChargedCard,
    action: A.PerformCard,
    team_action_heroes: Callable[[CastlesState, Fighter], tuple[Fighter, ...]],
) -> None:
    """Raises the refusal naming the rule when ``c`` may not perform ``card`` as ``action`` asks."""
    if card.charge is None or not card.sequences:
        raise CardNotPlayableError(
            f"{card.name}'s charge or shots are not known (add them with a content overlay)", ACTIONS
        )
    if c.tokens_on(card.id) < card.charge:
        raise CardNotPlayableError(
            f"{card.name} holds {c.tokens_on(card.id)} of the {card.charge} Health Tokens it needs",
            cite2e("Hero Abilities"),
        )
    if action.alternative is not None and not 0 <= action.alternative < len(card.sequences):
        raise NoSuchAlternativeError(f"{card.name} has {len(card.sequences)} alternative(s)", SEQUENCES)
    if card.kind == "boss_action":
        rule = cite2e("Reinforcements and Boss Action Cards")
        if state.side_turn_acted:
            raise NotYourTurnError(
                "a Boss Action card is performed at the beginning of the player's turn", rule
            )
        if card.reinforcement:
            if state.side(c.side).reinforcements < 1:
                raise CardNotPlayableError("no Reinforcement Token is left", rule)
            if all(w.on_mat for w in state.members(c.side, "warrior")):
                raise CardNotPlayableError("no warrior is left in reserve to summon", rule)
            if len(card.sequences) > 1 and action.alternative is None:
                raise NoSuchAlternativeError(
                    f"{card.name}: name the alternative to perform ('alternative')", rule
                )
    if card.horn_from is not None and state.mode != "one-versus-one":
        helper = state.find(action.helper or "")
        if helper is None or helper.side != c.side or helper.kind != "hero" or helper.id == c.id:
            raise IllegalActionError(
                "the Horn of Heroes: choose one friendly hero ('helper') to perform the shots after it",
                cite2e("Hero Abilities"),
            )
    if card.kind == "team_action" and action.order:
        friends = {h.id for h in team_action_heroes(state, c)}
        if set(action.order) != friends or len(action.order) != len(friends):
            raise IllegalActionError(
                f"the Team Action's order must name every friendly hero able to take part: {sorted(friends)}",
                cite2e("Team Actions"),
            )
