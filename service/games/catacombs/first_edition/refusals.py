"""Catacombs 1E refusals cite the first edition's own rule (catacombs-1e-rules-italian.txt, by its headings).

The Catacombs flow the first edition shares with the third cites the third edition's sections; ``rule_1e``
names the 1E section that holds the same rule, and ``why_cannot_act`` refuses a character who cannot act for
the first edition's own reason (incapacitated, turned to stone, dead, eliminated) before the shared flow would
say only whose turn it is.
"""

from __future__ import annotations

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.state import HEROES, GameState
from service.rules.errors import CardNotPlayableError, CharacterCannotActError

MANUAL = "catacombs-1e-rules-italian.txt"
INCAPACITATED = "incapacitated"
PETRIFIED = "petrified"
HERO_SIDE = ("hero", "ally", "familiar")

# The shared flow's sections (catacombs-3e-reference.txt, RULINGS.md) -> the 1E section of the same rule.
SECTIONS_1E = {
    "Battle Phase: Turn Order": "3. La Fase Combattimento",
    "Battle Phase: Shot Sequences and Connectors": "Attacchi in Sequenza",
    "Then connector": "Attacchi in Sequenza",  # RULINGS.md 2: the printed order ("immediatamente dopo")
    "Game Phases: The Setup Phase": "2: La Fase di Preparazione",
    "Game Phases: The Battle Phase": "3. La Fase Combattimento",
    "Game Phases: Exploring The Catacomb": "1: La Fase Esplorazione",
    "Game Phases: Winning the Game": "Condizioni di Vittoria",
    "Battle Phase: Taking Damage": "Colpi e danni",
    "Battle Phase: Tracking Health": "Colpi e danni",
    # An action is the basic melee or one special action, "concessa da una carta o direttamente descritta
    # sulla scheda dell'eroe", a limited number of times a room.
    "Playing Spell, Ability, or Item Cards": "3. La Fase Combattimento",
    "Battle Phase: Playing Spell, Ability, or Item Cards": "3. La Fase Combattimento",
    "Shot Modifiers": "Gli Attacchi Modificati",
    "Item Cards": "Equipaggiamento",
    "Item Cards: Usage Restrictions": "Equipaggiamento",
    "Advanced Concepts: Allies": "Alleati",
    "The Overseer, Heroes, and Catacomb Lords: Hero Player Boards": "Preparazione degli eroi",
    "Components": "Componenti",
    "Item Cards: Frequency Conditions": "Equipaggiamento",
    "Item Cards: Combo Items": "Equipaggiamento",
    "Defensive Properties: Reflecting Shots": "Equipaggiamento",
    "Defensive Properties: Nullifying Shots": "Equipaggiamento",
    "Item Cards: Familiars": "Alleati",
    "Stun Shot Modifier": "Incapacità",
    "Chain Shot": "Colpi in sequenza",
    "Battle Phase: Shield Shots": "Panoramica dei componenti",  # the Wizard's shield disc
    # Punti importanti 2: "se nella riserva non è presente un certo tipo di mostro ... non potrà usare"
    "Advanced Shots: Summon Shot": "Punti importanti",
    "Catacomb Lord's Lair": "La Battaglia Finale: Il Signore della Catacomba",
    "Room Cards: Special Room Cards": "Carte Stanze Speciali",
    "Room Cards: Izchak the Merchant": "Il mercante",
    "The Overseer, Heroes, and Catacomb Lords: The Hero Players": "Preparazione del gioco",
    "The Overseer, Heroes, and Catacomb Lords: The Overseer Player": "Punti importanti",  # the Keeper decides
    # The pooled payment of a special room (special_rooms.payers): the heroes may pass gold to one another.
    "Special Room Cards: Izchak the Merchant": "Il mercante",
    "Special Room Cards: Althea The Healer": "Il guaritore",
}

# The rule behind each decision the first edition may wait for.
PENDING_1E = {
    "choose_alternative": "Attacchi in Sequenza",
    "choose_modifier_target": "Gli Attacchi Modificati",
    "choose_heal_target": "Equipaggiamento",
    "choose_ally_controller": "Alleati",
    "regeneration": "Abilità dei mostri",
}


def cite1(section: str) -> str:
    return f"{MANUAL}: {section}"


def rule_1e(section: str) -> str:
    """The 1E rule for a shared-flow section (the summary of the rules if the flow ever cites another)."""
    return cite1(SECTIONS_1E.get(section, "Riassunto delle regole"))


def pending_rule(kind: str) -> str:
    return cite1(PENDING_1E.get(kind, "3. La Fase Combattimento"))


def why_cannot_act(state: GameState, character: str, playing: A.PlayCard | None = None) -> None:
    """A character of the side whose turn it is, refused for the first edition's own reason."""
    c = state.find(character)
    if c is None or state.phase != "battle" or state.turn is not None:
        return
    ours = c.kind in HERO_SIDE if state.side == HEROES else c.kind in ("monster", "lord")
    if not ours or not c.in_room:
        return
    if c.kind == "hero" and not c.alive:
        raise CharacterCannotActError(f"{c.name} is dead", cite1("Morte di un eroe"))
    if c.kind in ("monster", "lord") and not c.alive:
        raise CharacterCannotActError(f"{c.name} has been eliminated", cite1("Colpi e danni"))
    if c.has(PETRIFIED):
        raise CharacterCannotActError(
            f"{c.name} is stone until the battle ends",
            cite1("La Battaglia Finale: Il Signore della Catacomba"),
        )
    if c.has(INCAPACITATED):
        if playing is not None and playing.card in c.items:
            # Equipaggiamento: "L'effetto di un oggetto cessa di funzionare quando l'eroe è incapacitato".
            raise CardNotPlayableError(f"{c.name} is incapacitated: no item works", cite1("Equipaggiamento"))
        raise CharacterCannotActError(f"{c.name} is incapacitated: no action this round", cite1("Incapacità"))
