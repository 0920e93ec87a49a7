"""A Catacombs & Castles 2E game from its setup record: the mode's teams, pools, armour and first team.

catacombs-and-castles-2e-manual.md: Team Mode Setup; Team Mode; One versus One Mode; Boss Mode Rules; Boss vs
Boss Mode Overview. Setup record fields are listed in docs/game-log.md ("Catacombs & Castles 2E").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.games.castles.core.cards import CastlesCards, ChargedCard
from service.games.castles.core.state import BOSS_MODES, FULL_ARMOUR, MODES, CastlesState, Fighter, Side
from service.rules import rng
from service.rules.errors import IllegalActionError

MANUAL = "catacombs-and-castles-2e-manual.md"
TEAM_SIZES = (1, 2, 3, 4)


def cite2e(section: str) -> str:
    return f"{MANUAL}: {section}"


class SetupRefused(IllegalActionError):
    """The setup record does not describe a game the manual allows."""


def new_game(
    cards: CastlesCards, setup: Mapping[str, Any], ruleset: str, *, roles_exception: bool = False
) -> CastlesState:
    mode = setup.get("mode", "team")
    if mode not in MODES:
        raise SetupRefused(f"mode must be one of {list(MODES)}, got {mode!r}", cite2e("Important Concepts"))
    raw_sides = setup.get("sides")
    if not isinstance(raw_sides, list) or len(raw_sides) != 2:
        raise SetupRefused("the setup needs 'sides': a list of the two sides", cite2e("Team Mode Setup"))
    builders = {
        "team": _hero_side,
        "one-versus-one": _hero_side,
        "boss": _boss_mode_side,
        "boss-versus-boss": _boss_side,
    }
    sides: list[Side] = []
    characters: list[Fighter] = []
    ids_taken: set[str] = set()
    for index, raw in enumerate(raw_sides):
        if not isinstance(raw, dict):
            raise SetupRefused(f"sides[{index}] must be an object", cite2e("Team Mode Setup"))
        side, members = builders[mode](cards, mode, raw, index, setup, raw_sides)
        if side.id in ids_taken:
            raise SetupRefused(f"two sides are called {side.id!r}", cite2e("Team Mode Setup"))
        ids_taken.add(side.id)
        sides.append(side)
        characters.extend(members)
    _check_balance(cards, mode, sides, characters, setup, roles_exception)
    seed = int(setup.get("seed", 0))
    state_rng = rng.seed_state(seed)
    first = setup.get("first", "random")
    if first == "random":
        # First Team Rule: the giant fireball piece flipped like a coin, here the game's own generator.
        state_rng, index = rng.below(state_rng, 2)
        first = sides[index].id
    if first not in (sides[0].id, sides[1].id):
        raise SetupRefused(
            f"'first' must be 'random' or a side's id, got {first!r}", cite2e("Team Mode Turn Order")
        )
    variant = setup.get("rules_variant", "A")
    if variant not in ("A", "B"):
        raise SetupRefused(
            "'rules_variant' is 'A' or 'B' (every hero uses the same)", cite2e("Team Mode Setup")
        )
    return CastlesState(
        ruleset=ruleset,
        mode=mode,
        phase="battle",
        sides=(sides[0], sides[1]),
        characters=tuple(characters),
        side_to_move=first,
        first_side=first,
        net_variant=bool(setup.get("net_web_variant", False)),
        rules_variant=variant,
        rng=state_rng,
    )


def _team(raw: Mapping[str, Any], index: int) -> str:
    team = raw.get("team")
    if team not in ("castle", "catacomb"):
        raise SetupRefused(
            f"sides[{index}].team must be 'castle' or 'catacomb', got {team!r}", cite2e("Team Mode Setup")
        )
    return str(team)


def _side_id(raw: Mapping[str, Any], team: str, all_raw: Sequence[Any]) -> str:
    if "id" in raw:
        return str(raw["id"])
    teams = [r.get("team") for r in all_raw if isinstance(r, dict)]
    return team if teams.count(team) == 1 else f"{team}-{list(all_raw).index(raw) + 1}"


def _positive(value: Any, what: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SetupRefused(f"{what} must be a whole number of at least 1, got {value!r}", rule)
    return value


def _hero_side(
    cards: CastlesCards,
    mode: str,
    raw: Mapping[str, Any],
    index: int,
    setup: Mapping[str, Any],
    all_raw: Sequence[Any],
) -> tuple[Side, list[Fighter]]:
    team = _team(raw, index)
    side_id = _side_id(raw, team, all_raw)
    heroes = raw.get("heroes")
    if not isinstance(heroes, list) or not heroes:
        raise SetupRefused(f"sides[{index}].heroes must list hero ids", cite2e("Team Mode Setup"))
    if len(set(heroes)) != len(heroes):
        raise SetupRefused(f"sides[{index}] names a hero twice: {heroes}", cite2e("Team Mode Setup"))
    members = [_hero(cards, hero_id, side_id, team, index) for hero_id in heroes]
    if mode == "one-versus-one":
        if len(members) != 1:
            raise SetupRefused("each player chooses one hero", cite2e("One versus One Mode"))
        # One versus One Mode 1: "starts the game with one Armour Token each" (a full one: smartmat ruling).
        members = [_with_armour(m, (FULL_ARMOUR,)) for m in members]
    default = cards.health_tokens.get(mode, 12)
    health = _positive(
        raw.get("health_tokens", setup.get("health_tokens", default)),
        "health_tokens",
        cite2e("Team Mode"),
    )
    warriors = _warriors(cards, raw.get("warriors", []), side_id, team, index, on_mat=False)
    return Side(side_id, team, "heroes", health, health), members + warriors


def _hero(cards: CastlesCards, hero_id: Any, side_id: str, team: str, index: int) -> Fighter:
    card = cards.hero(str(hero_id))
    if card.team != team:
        raise SetupRefused(
            f"{card.name} plays for Team {card.team.title()}, not sides[{index}]'s Team {team.title()}",
            cite2e("Team Mode Setup"),
        )
    charges = tuple((c.id, 0) for c in (card.ability, card.team_action) if c is not None)
    return Fighter(
        id=f"hero-{card.id}",
        name=card.name,
        side=side_id,
        kind="hero",
        card=card.id,
        role=card.role,
        charges=charges,
        attributes=card.attributes,
    )


def _with_armour(f: Fighter, armour: tuple[int, ...]) -> Fighter:
    return Fighter(**{**f.__dict__, "armour": armour})


def _warriors(
    cards: CastlesCards, raw: Any, side_id: str, team: str, index: int, *, on_mat: bool
) -> list[Fighter]:
    if not isinstance(raw, list):
        raise SetupRefused(f"sides[{index}].warriors must list warrior ids", cite2e("Warriors"))
    out: list[Fighter] = []
    for warrior_id in raw:
        card = cards.warrior(str(warrior_id))
        for n in range(1, card.pieces + 1):
            out.append(
                Fighter(
                    id=f"warrior-{side_id}-{card.id}-{n}",
                    name=f"{card.name} {n}",
                    side=side_id,
                    kind="warrior",
                    card=card.id,
                    # Boss Mode Rules: "one of each warrior piece in their Start Zone"; the rest in reserve.
                    on_mat=on_mat and n == 1,
                    health=card.health,
                    attributes=card.attributes,
                )
            )
    return out


def _boss_fighter(
    cards: CastlesCards, raw: Mapping[str, Any], side_id: str, team: str, index: int
) -> Fighter:
    card = cards.boss(str(raw.get("boss")))
    if card.team != team:
        raise SetupRefused(
            f"{card.name} is a Team {card.team.title()} boss", cite2e("Castle and Catacomb Bosses")
        )
    actions: tuple[ChargedCard, ...] = cards.boss_actions.get(team, ())
    return Fighter(
        id=f"boss-{card.id}" if side_id == team else f"boss-{side_id}-{card.id}",
        name=card.name,
        side=side_id,
        kind="boss",
        card=card.id,
        armour=(FULL_ARMOUR,) * card.armour_tokens,
        charges=tuple((a.id, 0) for a in actions),
        form=card.forms[0][0] if card.forms else None,
        attributes=card.attributes,
    )


def _boss_warriors(
    cards: CastlesCards, raw: Mapping[str, Any], side_id: str, team: str, index: int, *, same_team_draft: bool
) -> list[Fighter]:
    chosen = raw.get("warriors")
    if not isinstance(chosen, list) or len(chosen) != 3 or len(set(chosen)) != 3:
        raise SetupRefused(
            f"sides[{index}] chooses three different warriors, got {chosen!r}",
            cite2e("Castle and Catacomb Bosses"),
        )
    for warrior_id in chosen:
        warrior = cards.warrior(str(warrior_id))
        if warrior.team != team and not same_team_draft:
            raise SetupRefused(
                f"{warrior.name} belongs to Team {warrior.team.title()}; "
                "the warriors must belong to the boss' team",
                cite2e("Castle and Catacomb Bosses"),
            )
    return _warriors(cards, chosen, side_id, team, index, on_mat=True)


def _boss_mode_side(
    cards: CastlesCards,
    mode: str,
    raw: Mapping[str, Any],
    index: int,
    setup: Mapping[str, Any],
    all_raw: Sequence[Any],
) -> tuple[Side, list[Fighter]]:
    if "boss" not in raw:
        if "health_tokens" not in raw:
            # The hero team's pool also depends on the team's size; the table was lost with the diagram.
            raise SetupRefused(
                f"sides[{index}] (the hero team) must state health_tokens", cite2e("Boss Mode Rules")
            )
        return _hero_side(cards, mode, raw, index, setup, all_raw)
    team = _team(raw, index)
    side_id = _side_id(raw, team, all_raw)
    rule = cite2e("Boss Mode Rules")
    # The Health and Reinforcement Token numbers of Boss Mode depend on the size of the hero team; the
    # transcription lost their table, so the setup states them (docs/rulings.md, "Boss Mode token numbers").
    if "health_tokens" not in raw or "reinforcement_tokens" not in raw:
        raise SetupRefused(
            f"sides[{index}] (the boss player) must state health_tokens and reinforcement_tokens", rule
        )
    health = _positive(raw["health_tokens"], "health_tokens", rule)
    reinforcements = _non_negative(raw["reinforcement_tokens"], "reinforcement_tokens", rule)
    boss = _boss_fighter(cards, raw, side_id, team, index)
    warriors = _boss_warriors(cards, raw, side_id, team, index, same_team_draft=False)
    return Side(side_id, team, "boss", health, health, reinforcements), [boss, *warriors]


def _boss_side(
    cards: CastlesCards,
    mode: str,
    raw: Mapping[str, Any],
    index: int,
    setup: Mapping[str, Any],
    all_raw: Sequence[Any],
) -> tuple[Side, list[Fighter]]:
    team = _team(raw, index)
    side_id = _side_id(raw, team, all_raw)
    rule = cite2e("Boss vs Boss Mode Overview")
    length = setup.get("game_length", "average")
    if length not in cards.game_lengths:
        raise SetupRefused(f"game_length must be one of {sorted(cards.game_lengths)}, got {length!r}", rule)
    health, reinforcements = cards.game_lengths[length]
    teams = [r.get("team") for r in all_raw if isinstance(r, dict)]
    same_team = teams.count(team) == 2
    boss = _boss_fighter(cards, raw, side_id, team, index)
    warriors = _boss_warriors(cards, raw, side_id, team, index, same_team_draft=same_team)
    return Side(side_id, team, "boss", health, health, reinforcements), [boss, *warriors]


def _non_negative(value: Any, what: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupRefused(f"{what} must be a whole number, got {value!r}", rule)
    return value


def _check_balance(
    cards: CastlesCards,
    mode: str,
    sides: list[Side],
    characters: list[Fighter],
    setup: Mapping[str, Any],
    roles_exception: bool,
) -> None:
    heroes = {s.id: [c for c in characters if c.side == s.id and c.kind == "hero"] for s in sides}
    if mode == "team":
        sizes = {len(h) for h in heroes.values()}
        if len(sizes) != 1:
            raise SetupRefused("each team must have the same number of heroes", cite2e("Team Mode Setup"))
        if sizes.pop() not in (2, 3, 4):
            raise SetupRefused("Team Mode is played 2 vs 2, 3 vs 3 or 4 vs 4", cite2e("Team Mode Setup"))
        if sides[0].team == sides[1].team:
            raise SetupRefused("one side is Team Castle, the other Team Catacomb", cite2e("Team Mode Setup"))
        if sides[0].starting_health != sides[1].starting_health:
            raise SetupRefused(
                "both teams must always start with the same number of Health Tokens", cite2e("Team Mode")
            )
        if not roles_exception:
            for side_id, members in heroes.items():
                roles = [m.role for m in members if m.role]
                doubled = sorted({r for r in roles if roles.count(r) > 1})
                if doubled:
                    raise SetupRefused(
                        f"{side_id} has more than one {', '.join(doubled)}: "
                        "there can only be one of each role "
                        'per team (the Quick Start team is allowed with "quick_start": true, RULINGS.md 10)',
                        cite2e("Team Mode Setup"),
                    )
    elif mode == "one-versus-one":
        if sides[0].team == sides[1].team:
            raise SetupRefused(
                "one hero from Team Castle, one from Team Catacomb", cite2e("One versus One Mode")
            )
    elif mode in BOSS_MODES:
        kinds = [s.controls for s in sides]
        wanted = ["boss", "heroes"] if mode == "boss" else ["boss", "boss"]
        if sorted(kinds) != wanted:
            raise SetupRefused(
                "Boss Mode is a hero team against one boss player"
                if mode == "boss"
                else "Boss vs Boss: each player controls one boss",
                cite2e("Boss Mode Rules" if mode == "boss" else "Boss vs Boss Mode Overview"),
            )
        if mode == "boss-versus-boss" and sides[0].team == sides[1].team:
            # Boss vs Boss Mode Overview: the players choose their warriors in turn from one set of cards.
            cards_of = [{c.card for c in characters if c.side == s.id and c.kind == "warrior"} for s in sides]
            shared = sorted(cards_of[0] & cards_of[1])
            if shared:
                raise SetupRefused(
                    f"both players chose {', '.join(shared)}: each Warrior card goes to one player",
                    cite2e("Boss vs Boss Mode Overview"),
                )
        if mode == "boss":
            hero_side = next(s for s in sides if s.controls == "heroes")
            if len(heroes[hero_side.id]) not in (2, 3, 4):
                raise SetupRefused(
                    "Boss Mode supports teams of 2, 3 and 4 heroes", cite2e("General Rule Changes")
                )
