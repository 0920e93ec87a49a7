"""Setting up a Catacombs 1E game and turning its Room cards (catacombs-1e-rules-italian.txt).

- Preparazione del gioco: who controls which hero. Five players: the Keeper and one hero each; four: two
  players with a hero each and one with two; three: two players with two heroes each; two: one player with
  all four. A setup's ``players`` maps each player's name to the hero card ids he or she controls (optional:
  without it nobody is named); the hero's ``player`` says it. Allies are controlled by their hero's player
  (Alleati: "controllati dagli eroi").
- Scegliere un Signore della Catacomba: the Keeper takes the Lord's sheet and puts its marker on the top of
  the health track when the game is set up. The Lord is in the game from then on (off the board) and his
  health is carried into the final battle.
- 1: La Fase Esplorazione: "Partendo dalla cima, il Custode gira la prima carta stanza non rivelata": the top
  card, never another. At a physical table the cards of one level were shuffled face down (Configurare la
  Catacomba), so the card the referee names must be of the top card's kind and level.
- 2: La Fase di Preparazione: the board the Room card calls for; Catacombs 3E's "not the same side twice in a
  row" is not a rule of this manual. Special rooms are not played on a board; the Lord's card names none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.games.catacombs.first_edition.services import FirstEditionRules
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import table_draws
from service.games.catacombs.flow.cards import slug
from service.games.catacombs.flow.state import OVERSEER, Character, GameState
from service.rules.errors import IllegalActionError
from service.rules.evolve import evolve

MANUAL = "catacombs-1e-rules-italian.txt"
PLAYERS = f"{MANUAL}: Preparazione del gioco"
LORD_SHEET = f"{MANUAL}: Scegliere un Signore della Catacomba"
EXPLORATION = f"{MANUAL}: 1: La Fase Esplorazione"
PREPARATION = f"{MANUAL}: 2: La Fase di Preparazione"
SPECIAL_ROOMS = f"{MANUAL}: Carte Stanze Speciali"
# Preparazione del gioco: the heroes each number of hero players controls (the Keeper is one more player).
SHARES = {4: [1, 1, 1, 1], 3: [1, 1, 2], 2: [2, 2], 1: [4]}


def controllers(raw: Any, heroes: Sequence[str]) -> dict[str, str]:
    """Hero card id -> the player who controls it, from a setup's ``players``; refused unless it is one of
    the manual's ways of sharing the four heroes out."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or not raw:
        raise IllegalActionError(f"players must map each player's name to heroes, got {raw!r}", PLAYERS)
    owner: dict[str, str] = {}
    for player, held in raw.items():
        if not isinstance(player, str) or not player.strip():
            raise IllegalActionError(f"a player needs a name, got {player!r}", PLAYERS)
        if not isinstance(held, list | tuple) or not held:
            raise IllegalActionError(f"{player} controls no hero ({held!r})", PLAYERS)
        for hero in held:
            if hero not in heroes:
                raise IllegalActionError(
                    f"{player} names {hero!r}, not one of the heroes {list(heroes)}", PLAYERS
                )
            if hero in owner:
                raise IllegalActionError(f"{hero} is controlled by {owner[hero]} and {player}", PLAYERS)
            owner[hero] = player
    missing = [h for h in heroes if h not in owner]
    if missing:
        raise IllegalActionError(f"nobody controls {missing}: every hero has a player", PLAYERS)
    shares = sorted(len(held) for held in raw.values())
    if SHARES.get(len(raw)) != shares:
        raise IllegalActionError(
            f"{len(raw)} hero player(s) share the heroes as {SHARES.get(len(raw), 'no way')}, not {shares}",
            PLAYERS,
        )
    return owner


def with_players(state: GameState, owner: Mapping[str, str]) -> GameState:
    for c in state.heroes:
        if c.card in owner:
            state = state.with_character(evolve(c, player=owner[c.card]))
    return state


def with_lord_sheet(rules: FirstEditionRules, state: GameState) -> GameState:
    """Scegliere un Signore della Catacomba: the Lord's marker on the top of his track, off the board."""
    card = rules.content.lord(state.lord)
    lord_id = "lord-" + slug(card.name.split()[0])  # as the Catacombs flow names a Lord's character
    if any(c.kind == "lord" for c in state.characters):
        return state
    lord = Character(
        id=lord_id,
        name=card.name,
        side=OVERSEER,
        kind="lord",
        card=card.id,
        health=card.starting_health,
        max_health=card.starting_health,
        shot_sequences=card.shot_sequences,
        in_room=False,
    )
    return evolve(state, characters=(*state.characters, lord))


def next_card(state: GameState) -> str | None:
    """The Room card the next exploration turns: the one the referee named, else the top of the deck."""
    named = table_draws.queued(state, "rooms")
    if named:
        return named[0]
    ahead = state.room_deck[state.room_index + 1 :]
    return ahead[0] if ahead else None


def rooms_that_can_come_next(rules: FirstEditionRules, state: GameState) -> list[str]:
    """The top card; at a physical table any face-down card of the top card's kind and level."""
    ahead = list(state.room_deck[state.room_index + 1 :])
    if not ahead:
        return []
    if not state.settings.physical_decks:
        return ahead[:1]
    top = rules.content.room(ahead[0])
    return [
        r
        for r in ahead
        if (rules.content.room(r).kind, rules.content.room(r).difficulty) == (top.kind, top.difficulty)
    ]


def check_named_rooms(rules: FirstEditionRules, state: GameState, action: A.DrawCards) -> None:
    """The Room cards the referee names are turned in the deck's order (rooms_that_can_come_next)."""
    ahead = list(state.room_deck[state.room_index + 1 :])
    for card in (*table_draws.queued(state, "rooms"), *action.cards):
        possible = rooms_that_can_come_next(rules, evolve(state, room_deck=tuple(ahead), room_index=-1))
        if card not in possible:
            raise table_draws.CardNotInDeckError(
                f"the Keeper turns the top Room card: {card!r} cannot come next; it could be {possible}",
                EXPLORATION,
            )
        ahead[ahead.index(card)] = ahead[0]  # the card turned and the top card change places
        ahead = ahead[1:]


def with_named_room_on_top(state: GameState) -> GameState:
    """A named card of the top card's level changes places with it, so each level keeps its slots."""
    named = table_draws.queued(state, "rooms")
    start = state.room_index + 1
    deck = list(state.room_deck)
    if not named or named[0] not in deck[start:] or deck[start] == named[0]:
        return state
    where = deck.index(named[0], start)
    deck[start], deck[where] = deck[where], deck[start]
    return evolve(state, room_deck=tuple(deck))


def check_board(rules: FirstEditionRules, state: GameState, action: A.EnterRoom) -> None:
    """2: La Fase di Preparazione: the board is the Room card's; naming another is refused."""
    card_id = next_card(state)
    if action.playmat is None or card_id is None:
        return
    room = rules.content.room(card_id)
    if room.kind in ("merchant", "healer"):
        raise IllegalActionError(f"{room.name} is a special room: no board is set up", SPECIAL_ROOMS)
    board = rules.content.board_of(card_id)
    if board is not None and action.playmat != board:
        raise IllegalActionError(
            f"{room.name}'s card calls for the board {board}, not {action.playmat}", PREPARATION
        )
