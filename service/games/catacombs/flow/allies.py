"""Allies (catacombs-3e-reference.txt: Advanced Concepts: Allies): a hero recruited at the Amaranth Inn
joins as an ally of the hero who paid, with the Ability cards (and a Spell Caster's Spell cards) the
rules give it, chosen one by one."""

from __future__ import annotations

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import table_draws
from service.games.catacombs.flow.cards import UnknownCardError
from service.games.catacombs.flow.state import Character, Option, Pending
from service.games.catacombs.flow.table_draws import unused_heroes
from service.games.catacombs.flow.tx import FlowRules, Tx
from service.rules import rng
from service.rules.evolve import evolve


def recruit_ally(rules: FlowRules, tx: Tx, hero: Character) -> None:
    """Amaranth Inn: draw an unused Hero Portrait at random; that hero joins as an ally (Advanced Concepts:
    Allies: health four, one Ability card fewer (minimum one), no Items)."""
    pool = unused_heroes(rules, tx.state)

    def seeded() -> str:
        state, index = rng.below(tx.state.rng, len(pool))
        tx.state = evolve(tx.state, rng=state)
        return pool[index]

    join_as_ally(rules, tx, hero, table_draws.take(tx, "allies", pool, seeded))


def join_as_ally(rules: FlowRules, tx: Tx, hero: Character, card_id: str) -> None:
    """The hero of ``card_id`` joins ``hero``'s side as an ally (Advanced Concepts: Allies: health four, no
    Items; its Ability cards are chosen next)."""
    card = rules.content.hero(card_id)
    ally = Character(
        id="ally-" + rules.hero_character_id(card.name).removeprefix("hero-"),
        name=card.name,
        side=hero.side,
        kind="ally",
        card=card.id,
        health=4,
        max_health=4,
        shot_sequences=card.shot_sequences,
        nullifies=card.nullifies,
        reflects=card.reflects,
        abilities=(),
        spell_caster=card.spell_caster,
        owner=hero.id,
    )
    tx.state = evolve(tx.state, characters=(*tx.state.characters, ally))
    tx.emit(E.AllyRecruited(f"{card.name} joins {hero.name} as an ally", ally.id, hero.id))
    next_ally_choice(rules, tx, ally.id)


# Allies: "Spell Casters may take any two Spell cards of their choice."
ALLY_SPELLS = 2


def ally_ability_count(rules: FlowRules, ally: Character) -> int:
    """Allies: "Allies start with one less of their total Ability cards (minimum one)"."""
    total = len(rules.content.hero(ally.card).abilities)
    return max(1, total - 1) if total else 0


def ally_ability_pool(rules: FlowRules, ally: Character) -> list[str]:
    """The hero card's Ability cards (one entry per copy) the ally has not taken yet."""
    pool = list(rules.content.hero(ally.card).abilities)
    for taken in ally.abilities:
        pool.remove(taken)
    return pool


def next_ally_choice(rules: FlowRules, tx: Tx, ally_id: str) -> None:
    """The recruiter chooses the ally's Ability cards one at a time ("The player recruiting the ally chooses
    which Ability card(s) the ally will use"), then a Spell Caster's two Spell cards. When every card left
    is a copy of the same one, there is nothing to choose and the ally takes it."""
    ally = tx.char(ally_id)
    wanted = ally_ability_count(rules, ally) - len(ally.abilities)
    while wanted > 0:
        pool = ally_ability_pool(rules, ally)
        distinct = list(dict.fromkeys(pool))
        if len(distinct) > 1:
            recruiter = tx.char(ally.owner or "")
            tx.ask(
                "choose_ally_ability",
                recruiter.id,
                f"Which Ability card does {ally.name} take ({wanted} more)?",
                tuple(Option(a, _ability_name(rules, a)) for a in distinct),
                context=(ally.id,),
            )
            return
        ally = _take_ability(rules, tx, ally, distinct[0])
        wanted -= 1
    if ally.spell_caster:
        ask_ally_spell(rules, tx, ally.id, ALLY_SPELLS - len(ally.spells))


def _ability_name(rules: FlowRules, ability: str) -> str:
    try:
        return rules.content.card("ability", ability).name
    except UnknownCardError:
        return ability


def _take_ability(rules: FlowRules, tx: Tx, ally: Character, ability: str) -> Character:
    ally = evolve(ally, abilities=(*ally.abilities, ability))
    tx.update(ally)
    tx.emit(
        E.CardTaken(f"{ally.name} takes the {_ability_name(rules, ability)} Ability card", ally.id, ability)
    )
    return ally


def decide_ally_ability(rules: FlowRules, tx: Tx, pending: Pending, option: str) -> None:
    ally = tx.char(pending.context[0])
    _take_ability(rules, tx, ally, option)
    next_ally_choice(rules, tx, ally.id)


def ask_ally_spell(rules: FlowRules, tx: Tx, ally_id: str, remaining: int) -> None:
    ally = tx.char(ally_id)
    options = tuple(
        Option(c.id, c.name)
        for c in rules.content.cards("spell")
        if c.id not in ally.spells and rules.expansion.why_not_cast(ally, c) is None
    )
    if remaining > 0 and options:
        tx.ask(
            "choose_ally_spell",
            ally.id,
            f"Which Spell card does {ally.name} take?",
            options,
            context=(ally.id, str(remaining)),
        )


def decide_ally_spell(rules: FlowRules, tx: Tx, pending: Pending, option: str) -> None:
    ally = tx.char(pending.context[0])
    tx.update(evolve(ally, spells=(*ally.spells, option)))
    ask_ally_spell(rules, tx, ally.id, int(pending.context[1]) - 1)
