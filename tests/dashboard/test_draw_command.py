"""The referee console tells the table which card was drawn (physical decks): the ``draw`` command."""

from __future__ import annotations

from tests.dashboard.conftest import Referee
from web_dashboard.table.fake_feed import FakeCommandChannel


def test_the_referee_names_the_cards_the_table_drew(referee: Referee, commands: FakeCommandChannel) -> None:
    """docs/mqtt.md (draw); docs/game-log.md ("Physical decks")."""
    referee.command("draw", deck="poison", cards=["3"])
    referee.command("draw", deck="rooms", cards=["the-barracks"])
    assert [(c["command"], c["args"]) for c in commands.sent] == [
        ("draw", {"deck": "poison", "cards": ["3"]}),
        ("draw", {"deck": "rooms", "cards": ["the-barracks"]}),
    ]


def test_a_draw_without_its_cards_is_refused_before_anything_is_sent(
    referee: Referee, commands: FakeCommandChannel
) -> None:
    """docs/mqtt.md (draw: deck, cards)."""
    for args in ({"deck": "poison"}, {"deck": "poison", "cards": []}, {"deck": "poison", "cards": "3"}):
        answer = referee.command("draw", **args)
        assert answer.status_code == 400 and "'cards'" in answer.get_json()["error"]
    assert commands.sent == []


def test_the_console_has_the_card_drawn_form(referee: Referee) -> None:
    page = referee.client.get("/referee/console").get_data(as_text=True)
    assert 'id="draw-form"' in page and 'value="monster_metre"' in page


def test_the_turn_controller_has_the_card_drawn_form_for_physical_decks(referee: Referee) -> None:
    """The form is shown when the snapshot says ``"decks": "physical"`` (docs/state.md)."""
    page = referee.client.get("/referee/turn").get_data(as_text=True)
    assert 'id="draw-card" hidden' in page and 'id="draw-form"' in page
