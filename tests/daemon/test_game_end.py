"""A game that ends, a result everyone can read, and the next game: from the referee, or by itself at a demo
table that runs all day (docs/dashboard.md, "The end of a game").
"""

from __future__ import annotations

from service.gamelog.replay import replay
from service.table.session import TableSession
from tests.helpers.game_script import GameScript

SHORT_DEMO = ("althea-the-healer",)  # one special room: the shortest whole game there is


def play_through_the_last_room(table: GameScript) -> None:
    assert table.send("enter_room")["ok"]
    assert table.state["phase"] == "special_room"
    assert table.state["table"]["rooms_left"] == 0
    assert table.send("enter_room")["ok"]  # moving on from the last Room card


def test_moving_on_from_the_last_room_ends_the_game_with_a_result_for_people() -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb (a shortened deck, docs/rulings.md)."""
    table = GameScript(rooms=SHORT_DEMO)
    try:
        assert table.state["result"] is None
        play_through_the_last_room(table)
        state = table.state
        assert (state["phase"], state["outcome"]) == ("game_over", "heroes")
        result = state["result"]
        assert result["winner"] == "heroes" and result["headline"] == "The heroes win"
        assert (result["rooms_cleared"], result["rooms_total"]) == (1, 1)
        assert result["gold"] == state["gold"]["party"]
        assert "cleared 1 room" in result["summary"]
        assert "The heroes have come through the last room: they win" in table.event_texts()
        # A finished game takes nothing more but corrections and the next game.
        refused = table.send("enter_room")
        assert not refused["ok"]
    finally:
        table.close()


def test_the_referee_starts_the_next_game_in_the_same_log() -> None:
    table = GameScript(rooms=SHORT_DEMO)
    try:
        play_through_the_last_room(table)
        assert table.send("new_game")["ok"]
        state = table.state
        assert (state["phase"], state["outcome"], state["result"]) == ("setup", None, None)
        assert state["table"]["game"] == 2 and state["table"]["rooms_left"] == 1
        kinds = [r.kind for r in table.eventlog.records()]
        assert kinds[-2:] == ["new_game", "setup"]
        setups = [r.payload for r in table.eventlog.records() if r.kind == "setup"]
        assert setups[1]["seed"] == setups[0]["seed"] + 1  # each game draws its own dice
        # The log's replay is the newest game, as the table shows it (after a restart too).
        assert replay(table.eventlog.records()).state.outcome is None
        restarted = TableSession.replay(table.eventlog.records(), binder=table.daemon.bind_discs)
        assert restarted.snapshot() == table.daemon.session.snapshot()
        assert table.send("enter_room")["ok"] and table.state["room"]["id"] == "althea-the-healer"
        # Undo cannot reach back into the game before.
        assert table.send("undo", reason="wrong card")["ok"]
        assert not table.send("undo", reason="once more")["ok"]
    finally:
        table.close()


def test_a_game_in_play_is_ended_early_only_with_a_reason() -> None:
    table = GameScript(rooms=SHORT_DEMO)
    try:
        refused = table.send("new_game")
        assert not refused["ok"] and "say why" in refused["error"]
        assert table.send("new_game", reason="the players had to leave")["ok"]
        assert "The referee ended this game: the players had to leave." in table.event_texts()
        assert table.state["table"]["game"] == 2
    finally:
        table.close()


def test_a_demo_table_starts_its_next_game_by_itself_after_showing_the_result() -> None:
    table = GameScript(rooms=SHORT_DEMO)
    try:
        table.daemon.options.next_game_after_s = 30.0
        play_through_the_last_room(table)
        table.advance(0.1)  # the daemon's tick sees the game over: the result goes on show
        table.advance(29.8)
        assert table.state["outcome"] == "heroes"  # the result stays on show while the pause lasts
        assert not [r for r in table.eventlog.records() if r.kind == "new_game"]
        table.advance(0.2)  # the pause has passed: the next game begins
        state = table.state
        assert (state["phase"], state["table"]["game"]) == ("setup", 2)
        demo = [r for r in table.eventlog.records() if r.kind == "new_game"]
        assert len(demo) == 1 and demo[0].by == "daemon:demo"
    finally:
        table.close()


def test_an_undone_shot_and_a_correction_read_as_words_not_record_numbers() -> None:
    table = GameScript(rooms=SHORT_DEMO)
    try:
        assert table.send("enter_room")["ok"]
        assert table.send("undo", reason="flipped too early")["ok"]
        assert table.event_texts()[-1] == "The referee took back the Room card: flipped too early."
        assert not any("record" in text for text in table.event_texts())
    finally:
        table.close()


def test_smartmat_run_loops_the_demo_but_leaves_a_real_table_to_its_referee() -> None:
    from service.app.cli import DEMO_NEXT_GAME_AFTER_S, next_game_after

    assert next_game_after(None, demo=True) == DEMO_NEXT_GAME_AFTER_S
    assert next_game_after(None, demo=False) is None
    assert next_game_after(5.0, demo=False) == 5.0
    assert next_game_after(0.0, demo=True) is None


def test_a_game_without_rooms_is_won_by_a_side_and_shows_no_rooms() -> None:
    """A rule set without Room cards (Catacombs & Castles) still gets a result for people."""
    from types import SimpleNamespace

    from service.table.game_result import game_result, rooms_left

    castle = SimpleNamespace(id="side-a", team="castle")
    catacomb = SimpleNamespace(id="side-b", team="catacomb")
    state = SimpleNamespace(outcome=None, round=4, sides=(castle, catacomb))
    assert game_result(state) is None and rooms_left(state) is None
    state.outcome = "side-b"
    result = game_result(state)
    assert result is not None
    assert (result["winner"], result["headline"]) == ("side-b", "Team Catacomb wins")
    assert result["summary"] == "Team Catacomb wins in round 4."
    assert result["gold"] is None and result["rooms_cleared"] is None


def test_a_defeat_counts_only_the_rooms_the_party_got_through() -> None:
    """catacombs-3e-reference.txt: Game Phases (the Overseer wins when no hero can act): the room the party
    fell in was not cleared."""
    from service.rules.evolve import evolve
    from service.table.game_result import game_result

    table = GameScript(rooms=("the-barracks", "althea-the-healer"))
    try:
        assert table.send("enter_room")["ok"]
        state = table.daemon.session.state
        assert state is not None
        fallen = evolve(state, outcome="overseer", phase="game_over")
        result = game_result(fallen)
        assert result is not None
        assert (result["winner"], result["headline"]) == ("overseer", "The Overseer wins")
        assert (result["rooms_cleared"], result["rooms_total"]) == (0, 2)
        fell = f"The party fell in {state.room_name} after clearing 0 rooms, with 0 gold."
        assert result["summary"] == fell
    finally:
        table.close()
