"""A tournament built record by record, as the organiser's commands and the referees would build it."""

from __future__ import annotations

from pathlib import Path

from werkzeug.security import generate_password_hash

from service.hub.hub import Hub
from service.hub.store import HubStore

PIN = "2468"
PIN_HASH = generate_password_hash(PIN, method="pbkdf2:sha256:1000")  # fast for tests; real ones are scrypt


def new_hub(path: Path, format_: str = "castles-1v1", players: tuple[str, ...] = ()) -> Hub:
    hub = Hub(HubStore(path))
    hub.submit("event", {"name": "Test Open", "format": format_}, "organiser")
    for player in players:
        hub.submit("entrant", {"id": player, "name": player.title()}, "organiser")
    hub.submit(
        "referee",
        {"name": "rita", "role": "table", "tables": ["t1", "t2", "t3", "t4"], "pin_hash": PIN_HASH},
        "organiser",
    )
    hub.submit("referee", {"name": "hana", "role": "head", "tables": [], "pin_hash": PIN_HASH}, "organiser")
    return hub


def finish_game(
    hub: Hub,
    table: str,
    game: str,
    records: int,
    outcome: str = "heroes",
    ruleset: str = "catacombs-and-castles-2e",
) -> None:
    """A table's game as the feed hands it over: every log record, then the final state."""
    hub.on_status(table, "online")
    hub.on_log(
        table,
        game,
        {
            "v": 1,
            "seq": 1,
            "at": "2026-11-25T10:00:00Z",
            "by": "referee:x",
            "kind": "setup",
            "payload": {"ruleset": ruleset},
        },
    )
    for seq in range(2, records + 1):
        hub.on_log(
            table,
            game,
            {
                "v": 1,
                "seq": seq,
                "at": "2026-11-25T10:00:01Z",
                "by": "sensor",
                "kind": "action",
                "payload": {"action": "x"},
            },
        )
    hub.on_state(table, {"ruleset": ruleset, "phase": "game_over", "outcome": outcome, "seq": records})


def play_round(hub: Hub, winners: dict[str, str]) -> None:
    """Every match of the current round ends; ``winners`` maps a table to its winner (or draw)."""
    round_number = hub.tournament.current_round()
    for match in hub.tournament.rounds[-1]:
        if match.b is None:
            continue
        game = f"r{round_number}-{match.table}"
        finish_game(hub, match.table, game, records=3)
        hub.sign_off("referee:rita", match.table, winner=winners[match.table])
