"""Long random legal games of every rule set and mode, with the checks that must hold after every action.

``play_game`` plays one game from the shipped content (or from a random position reached in it): at every step
it lists what the rules accept now (``rules.choices`` plus the shots the mat could report for the expected
shot), picks one at random and applies it. After every action it asserts:

- *no dead end*: the game has ended, or some action is legal;
- the state round-trips through the game log (the action's JSON record, replayed) and its canonical form
  (``to_json`` / ``from_json``), and for Catacombs through the position format (docs/positions.md);
- the game's invariants: health within bounds, gold / tokens / Poison cards conserved, no piece in two places.

``tests/games/test_no_dead_ends.py`` runs a bounded number of games per rule set under hypothesis;
``benchmarks/no_dead_ends.py`` runs many more and counts them.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.gamelog.records import parse_line
from service.gamelog.replay import SetupError, new_game_from_setup
from service.gamelog.writer import LogWriter
from service.games.castles.core import actions as CA
from service.games.castles.core.state import CastlesState
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.position import PositionError, load_position, position_of
from service.games.catacombs.flow.state import GameState
from service.rules.errors import IllegalActionError

CATACOMBS_3E = "catacombs-3e"
CATACOMBS_1E = "catacombs-1e"
CASTLES_2E = "catacombs-and-castles-2e"
CASTLES_1E = "catacombs-and-castles-1e"
# The shot kinds whose action names a target (the Target Token's character, the grabbed enemy).
TARGETED = (
    "target",
    "target_melee",
    "target_ice",
    "target_fireball",
    "grapple",
    "claw",
    "net",
    "web",
    "leech",
)


class DeadEnd(AssertionError):
    """The game has not ended and no action is legal."""


@dataclass
class GameRun:
    """One random game: its setup, the actions applied, what was tried."""

    setup: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    tried: int = 0  # legal actions found (the options one was picked from), over the whole game
    ended: bool = False
    started: bool = False  # the rules accepted the setup

    def trail(self, last: int = 12) -> str:
        """The setup and the last actions, to reproduce a failure."""
        tail = "\n".join(json.dumps(a, sort_keys=True) for a in self.actions[-last:])
        return f"setup: {json.dumps(self.setup, sort_keys=True)}\n{len(self.actions)} actions, last:\n{tail}"


# == setups ==
SetupMaker = Callable[[random.Random], dict[str, Any]]


def catacombs3e_setup(expansions: tuple[str, ...] = ()) -> SetupMaker:
    from service.games.catacombs.content import load_content

    content = load_content(CATACOMBS_3E, None, expansions)
    heroes = sorted(content.heroes)
    lords = sorted(content.lords)
    items = sorted(content.items)
    spells = sorted(s for s, card in content.spells.items() if not getattr(card, "dark", False))
    layouts = ("random-standard", "random-short", "random-hard", "tutorial")

    def make(rng: random.Random) -> dict[str, Any]:
        party = rng.sample(heroes, 4)
        # Vaiel's Urn often: the Antient it summons is the piece most likely to stall a round.
        held = {h: rng.sample(items, rng.randint(0, 2)) for h in party}
        if rng.random() < 0.5:
            held[party[0]] = ["vaiels-urn"]
        setup: dict[str, Any] = {
            "ruleset": CATACOMBS_3E,
            "heroes": party,
            "lord": rng.choice(lords),
            "layout": rng.choice(layouts),
            "seed": rng.randrange(2**31),
            "items": {h: cards for h, cards in held.items() if cards},
            "spells": {h: rng.sample(spells, 2) for h in party if rng.random() < 0.5},
        }
        if expansions:
            setup["expansions"] = list(expansions)
        return setup

    return make


def catacombs1e_setup(rng: random.Random) -> dict[str, Any]:
    return {
        "ruleset": CATACOMBS_1E,
        "heroes": ["barbaro", "elfo", "ladra", "mago"],
        "lord": rng.choice(["stregone", "dragone", "gorgone", "lich"]),
        "seed": rng.randrange(2**31),
    }


def castles_setup(ruleset: str, mode: str) -> SetupMaker:
    """The modes' setups, with their heroes, first side, pool sizes and seed drawn at random."""
    castle_heroes = ["larra", "kethyst", "delilah", "randsarr"]
    catacomb_heroes = ["hakoru", "formilus", "cahreliss", "angelique"]
    first_ed = ruleset == CASTLES_1E
    castle_warriors = (
        ["royal-archer", "watch-guard", "querling"]
        if first_ed
        else ["castle-warrior-a", "castle-warrior-b", "castle-warrior-c"]
    )
    catacomb_warriors = (
        ["plunderer", "raider", "shaman"]
        if first_ed
        else ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"]
    )

    def make(rng: random.Random) -> dict[str, Any]:
        setup: dict[str, Any] = {"ruleset": ruleset, "mode": mode, "seed": rng.randrange(2**31)}
        if first_ed:
            setup["board_side"] = rng.choice(["castle", "catacomb"])
        else:
            setup["first"] = rng.choice(["castle", "catacomb"])
        if mode == "team":
            n = rng.randint(3, 3) if not first_ed else rng.randint(2, 4)
            setup["sides"] = [
                {"team": "castle", "heroes": rng.sample(castle_heroes[:3], n) if n <= 3 else castle_heroes},
                {
                    "team": "catacomb",
                    "heroes": rng.sample(catacomb_heroes[:3], n) if n <= 3 else catacomb_heroes,
                },
            ]
        elif mode == "one-versus-one":
            setup["sides"] = [
                {"team": "castle", "heroes": [rng.choice(castle_heroes[:3])]},
                {"team": "catacomb", "heroes": [rng.choice(catacomb_heroes[:3])]},
            ]
        elif mode == "boss":
            heroes_team = rng.choice(["castle", "catacomb"])
            boss_team = "catacomb" if heroes_team == "castle" else "castle"
            boss = "xaugorth" if boss_team == "catacomb" else "sothemir"
            heroes = castle_heroes[:3] if heroes_team == "castle" else catacomb_heroes[:3]
            warriors = catacomb_warriors if boss_team == "catacomb" else castle_warriors
            boss_side: dict[str, Any] = {"team": boss_team, "boss": boss, "warriors": warriors}
            if not first_ed:
                boss_side.update(health_tokens=rng.choice([10, 14]), reinforcement_tokens=rng.randint(0, 2))
            setup["sides"] = [
                {"team": heroes_team, "heroes": heroes, "health_tokens": rng.choice([12, 16])},
                boss_side,
            ]
        else:  # boss-versus-boss
            setup["game_length"] = rng.choice(["short", "average", "long"])
            setup["sides"] = [
                {"team": "castle", "boss": "sothemir", "warriors": castle_warriors},
                {"team": "catacomb", "boss": "xaugorth", "warriors": catacomb_warriors},
            ]
        return setup

    return make


# Every rule set and mode the property covers: name -> setup maker.
def scenarios() -> dict[str, SetupMaker]:
    return {
        "catacombs-3e": catacombs3e_setup(),
        "catacombs-3e+soloth": catacombs3e_setup(("soloth",)),
        "catacombs-3e+castles": catacombs3e_setup(("castles",)),
        "catacombs-1e": catacombs1e_setup,
        "castles-2e-team": castles_setup(CASTLES_2E, "team"),
        "castles-2e-one-versus-one": castles_setup(CASTLES_2E, "one-versus-one"),
        "castles-2e-boss": castles_setup(CASTLES_2E, "boss"),
        "castles-2e-boss-versus-boss": castles_setup(CASTLES_2E, "boss-versus-boss"),
        "castles-1e-team": castles_setup(CASTLES_1E, "team"),
        "castles-1e-boss": castles_setup(CASTLES_1E, "boss"),
    }


def valid_setup(make: SetupMaker, rng: random.Random) -> dict[str, Any]:
    """A drawn setup the rules accept: starting cards a hero may not hold are dropped (spells first, then the
    items other than Vaiel's Urn, then all)."""
    setup = make(rng)
    for drop in ("spells", "some items", "items"):
        try:
            new_game_from_setup(setup)
            return setup
        except SetupError:
            if drop == "some items":
                setup["items"] = {
                    h: [i for i in cards if i == "vaiels-urn"] for h, cards in setup["items"].items()
                }
            else:
                setup.pop(drop, None)
    return setup


# == what may be done now ==
def shot_actions(state: Any, rng: random.Random) -> list[A.Action]:
    """The attributions the mat could report for the expected shot: a few hit sets, targets, knock-offs."""
    shot = state.expected_shot()
    if shot is None:
        return []
    kinds = shot.get("any_of") or [shot["shot"]]
    on_mat = [c.id for c in state.characters if getattr(c, "on_mat", True) and getattr(c, "alive", True)]
    actor = state.find(shot.get("actor") or shot["character"])
    side = getattr(actor, "side", None)
    enemies = [cid for cid in on_mat if state.character(cid).side != side] or on_mat
    found: list[A.Action] = []
    for kind in kinds:
        for _ in range(3):
            pool = enemies if rng.random() < 0.8 else on_mat
            hits = tuple(rng.sample(pool, min(len(pool), rng.randint(0, 2)))) if pool else ()
            target = (
                (hits[0] if hits else (rng.choice(enemies) if enemies else None))
                if kind in TARGETED
                else None
            )
            extra: dict[str, Any] = {}
            if isinstance(state, GameState):
                if hits and rng.random() < 0.1:
                    extra["pushed_off_mat"] = (hits[0],)
                frozen = [c.id for c in state.characters if "frozen" in c.status or "trapped" in c.status]
                if frozen and rng.random() < 0.3:
                    extra["knocked_off"] = (rng.choice(frozen),)
            elif isinstance(state, CastlesState):
                trapped = [c.id for c in state.characters if c.trapped]
                if trapped and rng.random() < 0.3:
                    extra["knocked_off"] = (rng.choice(trapped),)
            if rng.random() < 0.5:
                extra["flicked"] = shot["piece"]  # the mat names the disc it saw flicked
            found.append(A.ResolveShot(shot["character"], kind, direct_hits=hits, target=target, **extra))
    return found


def legal_actions(rules: Any, state: Any, rng: random.Random) -> list[A.Action]:
    offered = [a for a in shot_actions(state, rng) if rules.is_legal(state, a)]
    return offered + list(rules.choices(state))


def pick(actions: Sequence[A.Action], rng: random.Random) -> A.Action:
    """Mostly what moves a game on (shots, declarations, decisions), now and then a skip or an early end."""
    moving = [a for a in actions if not isinstance(a, (A.SkipShot, A.EndTurn))]
    if moving and rng.random() < 0.85:
        return rng.choice(moving)
    return rng.choice(list(actions))


# == the checks after every action ==
def check_round_trips(rules: Any, state: Any, logged: Any, action: A.Action) -> Any:
    """The action's log record, written and read back, gives the same state; so does the canonical form (and a
    Catacombs position). Returns the state the log's replay reached."""
    record = parse_line(_record_line(LogWriter(), action))
    replayed_action = A.action_from_json(record.payload)
    assert replayed_action == action, (replayed_action, action)
    logged, _ = rules.apply(logged, replayed_action)
    assert logged == state, "the game log's replay differs from the live game"
    assert type(state).from_json(state.to_json()) == state, "the canonical form does not load back"
    if isinstance(state, GameState) and state.ruleset == CATACOMBS_3E:  # positions are a 3E format
        try:
            loaded = load_position(rules, json.loads(json.dumps(position_of(state))))
        except PositionError as exc:
            raise AssertionError(f"the exported position is refused: {exc}") from exc
        assert loaded == state, "the position does not give the state back"
    return logged


def _record_line(writer: LogWriter, action: A.Action) -> str:
    writer.action(action)
    return writer.lines().splitlines()[-1]


def check_invariants(state: Any, start: Any, slept: bool = False) -> None:
    if isinstance(state, GameState):
        _catacombs_invariants(state, start, slept)
    else:
        _castles_invariants(state, start)


def _catacombs_invariants(state: GameState, start: GameState, slept: bool) -> None:
    ids = [c.id for c in state.characters]
    assert len(ids) == len(set(ids)), f"a character twice: {ids}"
    for c in state.characters:
        assert c.health >= 0, f"{c.id} has negative health {c.health}"
        # Healing: never above the starting level, but a night at the Amaranth Inn (RULINGS.md 6).
        if c.kind != "hero" or not slept:
            assert c.health <= c.max_health, f"{c.id} above its starting health: {c.health}/{c.max_health}"
    # Gold: the Treasury and the characters' gold are the box's gold, whatever moves.
    gold = state.treasury + sum(c.gold for c in state.characters)
    assert gold == start.treasury + sum(c.gold for c in start.characters), f"gold not conserved: {gold}"
    # Poison cards: in the deck or held, never both, never more than the deck.
    poison = Counter(state.poison_deck) + Counter(v for c in state.characters for v in c.poison)
    assert poison <= Counter(start.poison_deck) + Counter(v for c in start.characters for v in c.poison), (
        poison
    )
    # No piece in two places: a destroyed monster's disc is on one hero's board at most, and not on the mat.
    holders: Counter[str] = Counter(m for c in state.characters for m in c.trophies)
    for disc, n in holders.items():
        held_dead = not state.character(disc).alive
        assert not held_dead or n == 1, f"{disc}'s disc on {n} boards"
    for card, n in state.monster_supply:
        assert state.pieces_out_of_pool(card) <= n, f"more {card} pieces out than the box holds"
    stunned = sum(1 for c in state.characters if "stunned" in c.status and c.alive)
    assert stunned <= 3, "more than the three Stunned! cards"


def _castles_invariants(state: CastlesState, start: CastlesState) -> None:
    ids = [c.id for c in state.characters]
    assert len(ids) == len(set(ids)), f"a character twice: {ids}"
    tokens, before = _tokens(state), _tokens(start)
    # Health Tokens move between pools and cards or are discarded: never made.
    assert tokens <= before, f"Health Tokens made: {tokens} > {before}"
    for s in state.sides:
        assert s.health >= 0, f"{s.id}'s pool is negative"
        assert s.reinforcements >= 0, f"{s.id} has negative Reinforcement Tokens"
    for c in state.characters:
        assert all(n >= 0 for _, n in c.charges), f"{c.id}: negative charge {c.charges}"
        assert all(1 <= uses <= 2 for uses in c.armour), f"{c.id}: armour {c.armour}"
        if c.health is not None:
            assert 0 <= c.health <= 1 or c.kind != "warrior", f"{c.id}: warrior health {c.health}"


def _tokens(state: CastlesState) -> int:
    """Health Tokens in the pools, on the cards, and taken by a hit whose transfer is still to be decided."""
    pending = state.pending
    in_flight = int(pending.context[2]) if pending is not None and pending.kind == "transfer" else 0
    return (
        sum(s.health for s in state.sides)
        + sum(n for c in state.characters for _, n in c.charges)
        + in_flight
    )


# == one game ==
def start(setup: dict[str, Any], rng: random.Random, from_position: bool = False) -> tuple[Any, Any]:
    """The rules and the first state: the setup's, or (``from_position``) a random position reached from it
    and perturbed (health, gold), loaded through the position format when the rule set has one."""
    rules, state = new_game_from_setup(setup)
    if not from_position:
        return rules, state
    for _ in range(rng.randint(5, 60)):
        actions = legal_actions(rules, state, rng)
        if state.outcome is not None or not actions:
            break
        state, _ = rules.apply(state, pick(actions, rng))
    corrections: list[A.Action] = []
    if isinstance(state, GameState):
        for c in state.characters:
            if c.alive and c.kind in ("hero", "monster") and rng.random() < 0.3:
                corrections.append(A.SetHealth(c.id, rng.randint(1, c.max_health), "random position"))
            if c.kind == "hero" and rng.random() < 0.3:
                corrections.append(A.SetGold(c.id, rng.randint(0, 10), "random position"))
    else:
        for s in state.sides:
            if rng.random() < 0.5:
                corrections.append(CA.SetPool(s.id, rng.randint(1, s.health + 2), "random position"))
    for correction in corrections:
        if rules.is_legal(state, correction):
            state, _ = rules.apply(state, correction)
    if isinstance(state, GameState) and state.ruleset == CATACOMBS_3E:
        state = load_position(rules, json.loads(json.dumps(position_of(state))))
    return rules, state


def play_game(
    setup: dict[str, Any], seed: int, max_actions: int = 400, from_position: bool = False
) -> GameRun:
    """Plays one random game; raises ``DeadEnd`` or ``AssertionError`` (with its trail) on a failure."""
    rng = random.Random(seed)
    run = GameRun(setup)
    try:
        rules, state = start(setup, rng, from_position)
    except (SetupError, IllegalActionError, PositionError):
        return run  # a drawn setup the rules refuse (a hero's items, say): nothing to play
    run.started = True
    first, logged, slept = state, state, False
    for _ in range(max_actions):
        if state.outcome is not None:
            run.ended = True
            return run
        actions = legal_actions(rules, state, rng)
        run.tried += len(actions)
        if not actions:
            raise DeadEnd(f"no legal action and no winner ({_where(state)})\n{run.trail()}")
        action = pick(actions, rng)
        try:
            state, _ = rules.apply(state, action)
        except IllegalActionError as exc:
            raise AssertionError(f"an offered action was refused: {action}: {exc}\n{run.trail()}") from exc
        run.actions.append(A.action_to_json(action))
        try:
            logged = check_round_trips(rules, state, logged, action)
            slept = slept or isinstance(action, A.UseService) and action.service == "sleep"
            check_invariants(state, first, slept)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{run.trail()}") from exc
    run.ended = state.outcome is not None
    return run


def _where(state: Any) -> str:
    view = state.public_view()
    return json.dumps(
        {k: view.get(k) for k in ("phase", "round", "turn", "room", "side_to_move", "pending", "antients")},
        sort_keys=True,
    )
