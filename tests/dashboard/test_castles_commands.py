"""The referee's Catacombs & Castles commands as the dashboard checks and publishes them."""

from __future__ import annotations

from tests.dashboard.conftest import Referee
from web_dashboard.table.fake_feed import FakeCommandChannel


def test_a_charged_card_and_a_card_s_tokens_are_sent_as_the_table_reads_them(
    referee: Referee, commands: FakeCommandChannel
) -> None:
    referee.command("declare", character="hero-hakoru", action="hero-hakoru:ability:0")
    referee.command(
        "correct", target="hero-hakoru", field="charge", card="ability", value="2", reason="token slipped"
    )
    assert [(c["command"], c["args"]) for c in commands.sent] == [
        ("declare", {"character": "hero-hakoru", "action": "hero-hakoru:ability:0"}),
        (
            "correct",
            {
                "target": "hero-hakoru",
                "field": "charge",
                "value": 2,
                "reason": "token slipped",
                "card": "ability",
            },
        ),
    ]


def test_a_charge_correction_without_its_card_is_refused_before_anything_is_sent(
    referee: Referee, commands: FakeCommandChannel
) -> None:
    answer = referee.command("correct", target="hero-hakoru", field="charge", value=2, reason="x")
    assert answer.status_code == 400 and "correct needs 'card'" in answer.get_json()["error"]
    assert commands.sent == []
