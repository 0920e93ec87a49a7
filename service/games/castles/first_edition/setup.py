"""A Catacombs & Castles 1E game from its setup record: Team Mode or Boss Mode as first published.

catacombs-and-castles-1e-manual.txt: Setting Up The Game; Team Mode Setup; Setting Up The Obstacles; Boss Mode
Setup; Ability Cards in Boss Mode; Armour Tokens. Setup record fields are listed in docs/game-log.md
("Catacombs & Castles 1E").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from service.games.castles.core.cards import CastlesCards
from service.games.castles.core.state import FULL_ARMOUR, CastlesState, Fighter, Obstacle, Side
from service.games.castles.second_edition.setup import SetupRefused
from service.rules import rng

MANUAL_1E = "catacombs-and-castles-1e-manual.txt"
MODES_1E = ("team", "boss")
TEAM_HEALTH = 8  # Team Mode Setup: "eight Team Castle Health Tokens ... eight Team Catacomb Health Tokens"
BOSS_HERO_HEALTH = 24  # Boss Mode Setup: "Players start with twenty-four Health Tokens"
REINFORCEMENT_TOKENS = 2  # Boss Mode Setup: "two Reinforcement Tokens by default"
TEAMS = ("castle", "catacomb")
# Components: "Cube Obstacles x2, Slab Obstacles x2, Cylinder Obstacles x2".
OBSTACLES_IN_BOX = {"cube": 2, "slab": 2, "cylinder": 2}
QUADRANTS = (1, 2, 3, 4)
ORIENTATIONS = ("vertical", "horizontal")
OBSTACLES = "catacombs-and-castles-1e-manual.txt: Setting Up The Obstacles"


def cite1e(section: str) -> str:
    return f"{MANUAL_1E}: {section}"


def new_game_1e(cards: CastlesCards, setup: Mapping[str, Any], ruleset: str) -> CastlesState:
    mode = setup.get("mode", "team")
    if mode not in MODES_1E:
        raise SetupRefused(
            f"mode must be one of {list(MODES_1E)} (the first edition has Team and Boss Mode), got {mode!r}",
            cite1e("Game Overview"),
        )
    raw_sides = setup.get("sides")
    if (
        not isinstance(raw_sides, list)
        or len(raw_sides) != 2
        or not all(isinstance(r, dict) for r in raw_sides)
    ):
        raise SetupRefused(
            "the setup needs 'sides': a list of the two sides (objects)", cite1e("Team Mode Setup")
        )
    armour = setup.get("armour_tokens", True)
    if not isinstance(armour, bool):
        raise SetupRefused(f"'armour_tokens' is true or false, got {armour!r}", cite1e("Team Mode Setup"))
    sides: list[Side] = []
    characters: list[Fighter] = []
    for index, raw in enumerate(raw_sides):
        if mode == "boss" and "boss" in raw:
            side, members = _lord_side(cards, raw, index)
        else:
            side, members = _hero_side(cards, mode, raw, index, setup, armour)
        sides.append(side)
        characters.extend(members)
    _check(mode, sides, characters)
    board = setup.get("board_side", "castle")
    if board not in TEAMS:
        raise SetupRefused(
            f"'board_side' is 'castle' or 'catacomb', got {board!r}", cite1e("Team Mode Setup")
        )
    state_rng = rng.seed_state(int(setup.get("seed", 0)))
    return CastlesState(
        ruleset=ruleset,
        mode=mode,
        phase="battle",
        sides=(sides[0], sides[1]),
        characters=tuple(characters),
        side_to_move=_first(mode, sides, setup),
        first_side=_first(mode, sides, setup),
        first_strike=False,  # the first edition has no First Strike Rule
        charging=mode != "boss",  # Ability Cards in Boss Mode: "they do not need to be charged up"
        rng=state_rng,
        obstacles=obstacles_from_setup(setup.get("obstacles"), str(board)),
    )


def _first(mode: str, sides: list[Side], setup: Mapping[str, Any]) -> str:
    if mode == "boss":
        # Boss Mode Setup: "In Boss Mode, it is the Overseer's turn first."
        return next(s.id for s in sides if s.controls == "boss")
    board = setup.get("board_side", "castle")
    if board not in TEAMS:
        raise SetupRefused(
            f"'board_side' is 'castle' or 'catacomb', got {board!r}", cite1e("Team Mode Setup")
        )
    # Placing The Heroes: "The opposite team to the side of the board being played goes first."
    return next(s.id for s in sides if s.team != board)


def _team(raw: Mapping[str, Any], index: int) -> str:
    team = raw.get("team")
    if team not in TEAMS:
        raise SetupRefused(
            f"sides[{index}].team must be 'castle' or 'catacomb', got {team!r}", cite1e("Team Mode Setup")
        )
    return str(team)


def _count(value: Any, what: str, rule: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SetupRefused(f"{what} must be a whole number of at least {minimum}, got {value!r}", rule)
    return value


def _hero_side(
    cards: CastlesCards,
    mode: str,
    raw: Mapping[str, Any],
    index: int,
    setup: Mapping[str, Any],
    armour: bool,
) -> tuple[Side, list[Fighter]]:
    team = _team(raw, index)
    heroes = raw.get("heroes")
    rule = cite1e("Team Mode Setup")
    if not isinstance(heroes, list) or not heroes or len(set(map(str, heroes))) != len(heroes):
        raise SetupRefused(f"sides[{index}].heroes must list different hero ids, got {heroes!r}", rule)
    chosen = raw.get("abilities", {})
    if not isinstance(chosen, dict):
        raise SetupRefused(f"sides[{index}].abilities maps a hero to its two Ability cards", rule)
    members = [_hero(cards, str(h), team, team, index, chosen.get(h), armour) for h in heroes]
    held = [card for m in members for card, _ in m.charges]
    doubled = sorted({card for card in held if held.count(card) > 1})
    if doubled:
        raise SetupRefused(f"sides[{index}]: each Ability card goes to one hero, got {doubled} twice", rule)
    unknown = sorted(set(chosen) - set(map(str, heroes)))
    if unknown:
        raise SetupRefused(f"sides[{index}].abilities names heroes not on the side: {unknown}", rule)
    default = TEAM_HEALTH if mode == "team" else BOSS_HERO_HEALTH
    health = _count(raw.get("health_tokens", setup.get("health_tokens", default)), "health_tokens", rule)
    warriors = _warriors(cards, team, team, [w.id for w in cards.warriors.values() if w.team == team])
    return Side(team, team, "heroes", health, health), members + [evolve_off(w) for w in warriors]


def evolve_off(w: Fighter) -> Fighter:
    return Fighter(**{**w.__dict__, "on_mat": False})


def _hero(
    cards: CastlesCards, hero_id: str, side_id: str, team: str, index: int, chosen: Any, armour: bool
) -> Fighter:
    card = cards.hero(hero_id)
    rule = cite1e("Team Mode Setup")
    if card.team != team:
        raise SetupRefused(f"{card.name} plays for Team {card.team.title()}, not sides[{index}]'s", rule)
    picked = card.abilities if chosen is None else chosen
    if not isinstance(picked, (list, tuple)) or len(picked) != 2 or len(set(picked)) != 2:
        raise SetupRefused(
            f"{card.name} takes two different Ability cards (Ability Cards), got {list(picked)!r}"
            + ("" if chosen is not None else ": the content recommends none, name them in 'abilities'"),
            cite1e("Team Mode Setup"),
        )
    for card_id in picked:
        ability = cards.ability_card(str(card_id))
        if ability.team != team:
            raise SetupRefused(f"{ability.name} is not a Team {team.title()} Ability card", rule)
    return Fighter(
        id=f"hero-{card.id}",
        name=card.name,
        side=side_id,
        kind="hero",
        card=card.id,
        # Armour Tokens: "assigned to each hero at the beginning of the game" (Team Mode Setup: one each).
        armour=(FULL_ARMOUR,) if armour else (),
        charges=tuple(sorted((str(a), 0) for a in picked)),
    )


def _warriors(cards: CastlesCards, side_id: str, team: str, chosen: Sequence[str]) -> list[Fighter]:
    out: list[Fighter] = []
    for warrior_id in chosen:
        card = cards.warrior(warrior_id)
        for n in range(1, card.pieces + 1):
            out.append(
                Fighter(
                    id=f"warrior-{card.id}-{n}",
                    name=f"{card.name} {n}",
                    side=side_id,
                    kind="warrior",
                    card=card.id,
                    on_mat=n
                    == 1,  # Boss Mode Setup: the Lord starts "along with his three starting Warriors"
                    health=card.health,
                )
            )
    return out


def _lord_side(cards: CastlesCards, raw: Mapping[str, Any], index: int) -> tuple[Side, list[Fighter]]:
    team = _team(raw, index)
    rule = cite1e("Boss Mode Setup")
    boss = cards.boss(str(raw.get("boss")))
    if boss.team != team:
        raise SetupRefused(f"{boss.name} is the Team {boss.team.title()} Lord", rule)
    chosen = raw.get("warriors")
    if not isinstance(chosen, list) or len(chosen) != 3 or len(set(chosen)) != 3:
        raise SetupRefused(
            f"sides[{index}]: the Overseer chooses three different Warriors, got {chosen!r}", rule
        )
    for warrior_id in chosen:
        if cards.warrior(str(warrior_id)).team != team:
            raise SetupRefused(f"{warrior_id} is not a Team {team.title()} Warrior", cite1e("The Warriors"))
    printed = cards.boss_health.get(boss.id)
    if "health_tokens" not in raw and printed is None:
        raise SetupRefused(
            f"sides[{index}]: state the Lord's health_tokens (printed on his Rules card)", rule
        )
    health = _count(raw.get("health_tokens", printed), "health_tokens", rule)
    reinforcements = _count(
        raw.get("reinforcement_tokens", REINFORCEMENT_TOKENS), "reinforcement_tokens", rule, minimum=0
    )
    lord = Fighter(
        id=f"boss-{boss.id}",
        name=boss.name,
        side=team,
        kind="boss",
        card=boss.id,
        # "The Castle Lord starts with an Armour Token, the Catacomb Lord does not."
        armour=(FULL_ARMOUR,) * boss.armour_tokens,
        form=boss.forms[0][0] if boss.forms else None,
    )
    warriors = _warriors(cards, team, team, [str(w) for w in chosen])
    return Side(team, team, "boss", health, health, reinforcements), [lord, *warriors]


def _check(mode: str, sides: list[Side], characters: list[Fighter]) -> None:
    if sides[0].team == sides[1].team:
        rule = cite1e("Boss Mode Overview" if mode == "boss" else "Team Mode Setup")
        raise SetupRefused("one side is Team Castle, the other Team Catacomb", rule)
    heroes = {s.id: [c for c in characters if c.side == s.id and c.kind == "hero"] for s in sides}
    if mode == "team":
        sizes = {len(h) for h in heroes.values()}
        if len(sizes) != 1 or sizes.pop() not in (2, 3, 4):
            raise SetupRefused("Team Mode is played 2 vs 2, 3 vs 3 or 4 vs 4", cite1e("Setting Up The Game"))
        if sides[0].starting_health != sides[1].starting_health:
            raise SetupRefused(
                "both teams start with an equal number of Health Tokens", cite1e("Health and Damage Tokens")
            )
        return
    if sorted(s.controls for s in sides) != ["boss", "heroes"]:
        raise SetupRefused(
            "Boss Mode is a team of heroes against the Overseer's Lord", cite1e("Boss Mode Overview")
        )
    hero_side = next(s for s in sides if s.controls == "heroes")
    if len(heroes[hero_side.id]) != 3:
        raise SetupRefused("in Boss Mode the players choose three heroes", cite1e("Boss Mode Setup"))


def obstacles_from_setup(raw: Any, board_side: str) -> tuple[Obstacle, ...]:
    """The setup record's ``obstacles``, in the order they were placed; () when the record has none."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(o, dict) for o in raw):
        raise SetupRefused("'obstacles' lists the obstacles placed, in order (objects)", OBSTACLES)
    placed: list[Obstacle] = []
    for index, entry in enumerate(raw):
        # "When playing on the Castle side of the board, Team Castle chooses and places an obstacle first
        # (the opposite is true if playing on the Team Catacomb side)"; then the teams take turns.
        team = board_side if index % 2 == 0 else next(t for t in TEAMS if t != board_side)
        placed.append(_obstacle(entry, index, team, placed))
    counts = Counter(o.piece for o in placed)
    if counts != Counter(OBSTACLES_IN_BOX):
        raise SetupRefused(
            f"the teams place the box's six obstacles (two cubes, slabs and cylinders), got {dict(counts)}",
            OBSTACLES,
        )
    return tuple(placed)


def _obstacle(entry: Mapping[str, Any], index: int, team: str, placed: list[Obstacle]) -> Obstacle:
    where = f"obstacles[{index}]"
    piece = entry.get("piece")
    if piece not in OBSTACLES_IN_BOX:
        raise SetupRefused(f"{where}.piece is cube, slab or cylinder, got {piece!r}", OBSTACLES)
    if entry.get("team", team) != team:
        raise SetupRefused(
            f"{where} is Team {team.title()}'s to place: the teams take turns, the board side's team first",
            OBSTACLES,
        )
    orientation = entry.get("orientation", "vertical")
    if orientation not in ORIENTATIONS:
        raise SetupRefused(f"{where}.orientation is vertical or horizontal, got {orientation!r}", OBSTACLES)
    if piece == "cylinder" and orientation != "vertical":
        raise SetupRefused(f"{where}: cylinders must be placed upright on their base", OBSTACLES)
    quadrant = entry.get("quadrant")
    if isinstance(quadrant, bool) or quadrant not in QUADRANTS:
        raise SetupRefused(f"{where}.quadrant is 1, 2, 3 or 4, got {quadrant!r}", OBSTACLES)
    held = Counter(o.quadrant for o in placed)
    if held[quadrant] >= 2:
        raise SetupRefused(
            f"{where}: quadrant {quadrant} has two obstacles; no more than two may be placed in a quadrant",
            OBSTACLES,
        )
    if held[quadrant] == 1 and any(held[q] == 0 for q in QUADRANTS):
        empty = [q for q in QUADRANTS if held[q] == 0]
        raise SetupRefused(
            f"{where}: quadrant {quadrant} already contains an obstacle and quadrant(s) {empty} have none",
            OBSTACLES,
        )
    return Obstacle(str(piece), int(quadrant), team, str(orientation))
