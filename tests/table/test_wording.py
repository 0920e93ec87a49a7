"""Game facts in words for people (service/table/wording.py): names instead of ids, sides by their team, doubt
whose words match its numbers; and the table's feed, console reasons and results speaking through it."""

from __future__ import annotations

import re
from pathlib import Path

from service.gamelog.records import Record, read_log
from service.table.session import TableSession
from service.table.wording import Names, doubt, in_words, names_from_view, side_name, side_result_headline

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
NAMES = Names({"hero-roosan": "Roosan", "dungeon-5": "Orc 2", "delilah-ability": "Delilah's Ability"})


def test_ids_in_a_sentence_become_names_and_file_names_stay() -> None:
    text = "a reading with a hit on hero-roosan and dungeon-5 fits (catacombs-3e-reference.txt: Rush)"
    assert (
        in_words(text, NAMES)
        == "a reading with a hit on Roosan and Orc 2 fits (catacombs-3e-reference.txt: Rush)"
    )


def test_an_unknown_id_is_read_as_words_and_ordinary_hyphenated_words_are_left_alone() -> None:
    assert in_words("monster-orc-3 is destroyed", Names()) == "orc 3 is destroyed"
    assert in_words("a well-placed shot", Names()) == "a well-placed shot"


def test_a_decisions_number_and_option_ids_are_not_read_out() -> None:
    assert in_words("d8: power:delilah-ability", NAMES) == "a power transfer onto Delilah's Ability"
    assert not re.search(r"\bd\d+:", in_words("d4: take", NAMES))


def test_names_come_from_the_view_and_the_discs_that_stand_for_characters() -> None:
    view = {
        "characters": [{"id": "hero-roosan", "name": "Roosan the Chicken Champion", "piece": "hero-roosan"}],
        "room": {"id": "the-barracks", "name": "The Barracks"},
        "sides": [{"id": "cy", "team": "castle"}],
    }
    names = names_from_view(view, {"hero-roosan": "dungeon-5"})
    assert names.name("dungeon-5") == "Roosan the Chicken Champion"
    assert names.name("the-barracks") == "The Barracks"
    assert in_words("cy to act", names) == "Team Castle to act"
    assert names.name("cy") == "Team Castle"


def test_a_side_is_its_player_when_it_has_one_else_its_team() -> None:
    assert side_name({"id": "a", "team": "castle", "player": "Ada"}) == "Ada (Team Castle)"
    assert side_name({"id": "b", "team": "catacomb"}) == "Team Catacomb"
    assert side_result_headline("b", [{"id": "a", "team": "castle"}, {"id": "b", "team": "catacomb"}]) == (
        "Team Catacomb wins"
    )


def test_a_likely_reading_held_back_for_another_reason_never_says_not_sure() -> None:
    pending = {
        "candidates": [{"direct_hits": ["hero-roosan", "dungeon-5"], "probability": 0.96}],
        "reasons": ["it counts 2 hits: a shot with more than one is confirmed by the referee"],
    }
    text = doubt(pending, NAMES, threshold=0.9)
    assert "not sure" not in text.lower()
    assert text.startswith("The mat reads a hit on Roosan and Orc 2 (96 %)")
    assert "more than one is confirmed" in text


def test_a_close_second_reading_is_named_with_its_share() -> None:
    pending = {
        "candidates": [
            {"direct_hits": ["hero-roosan"], "probability": 0.58},
            {"direct_hits": ["dungeon-5"], "probability": 0.37},
        ]
    }
    assert doubt(pending, NAMES, threshold=0.9) == (
        "Two readings are close: a hit on Roosan (58 %) or a hit on Orc 2 (37 %). The referee picks."
    )


def test_a_reading_below_the_bar_says_its_share_and_the_bar() -> None:
    pending = {
        "candidates": [{"direct_hits": [], "probability": 0.7}, {"direct_hits": ["x"], "probability": 0.04}]
    }
    assert doubt(pending, NAMES, threshold=0.9) == (
        "The likeliest reading, no hit, is 70 % likely; the mat acts alone from 90 %. The referee confirms."
    )


def test_the_castles_feed_names_the_team_to_act_and_the_winner_in_a_sentence() -> None:
    session = TableSession()
    said: list[str] = []
    for record in read_log(EXAMPLES / "castles-2e-team.jsonl"):
        said += [e["said"] for e in session.apply(record) if "said" in e]
    assert said, "every event the table publishes carries its words for people"
    assert "Team Castle to act" in said and "Team Catacomb to act" in said
    assert not any(re.search(r"\b(castle|catacomb|side-[ab]) to act", s) for s in said)
    result = session.snapshot()["result"]
    assert result["headline"] in ("Team Castle wins", "Team Catacomb wins")


def test_the_referee_is_told_why_in_words_that_match_the_numbers() -> None:
    session = TableSession()
    for record in read_log(EXAMPLES / "barracks-cleared.jsonl")[:4]:
        session.apply(record)
    shot = {"character": "hero-xoric", "shot": "rush", "attributing": True}
    session.apply(Record(seq=100, at="2026-11-22T10:00:00Z", by="daemon", kind="shot", payload=shot))
    reading = {
        "shot": 100,
        "auto": False,
        "attribution": {
            "threshold": 0.9,
            "reasons": ["a reading with a hit on monster-orc-2 fits nearly as well"],
        },
        "candidates": [
            {"direct_hits": ["monster-orc-1"], "probability": 0.55},
            {"direct_hits": ["monster-orc-2"], "probability": 0.4},
        ],
    }
    events = session.apply(
        Record(seq=101, at="2026-11-22T10:00:00Z", by="daemon", kind="attribution", payload=reading)
    )
    asked = next(e for e in events if e["type"] == "shot_needs_referee")
    assert (
        asked["said"]
        == "Two readings are close: a hit on Orc 1 (55 %) or a hit on Orc 2 (40 %). The referee picks."
    )
    assert session.last_shot is not None
    assert session.last_shot["reasons_said"] == ["a reading with a hit on Orc 2 fits nearly as well"]


def test_a_tournament_match_names_each_side_by_its_entrant_in_the_feed_the_snapshot_and_the_result() -> None:
    """The hub's offer names the two entrants (docs/tournaments.md); ``setup_game`` puts them in the setup
    record (service/table/setup_game.py with_match), and everything people read says
    "Ada (Team Castle)", never "Team Castle" alone for Ada nor her entrant id."""
    import dataclasses

    from service.table.setup_game import with_match

    offer = {
        "event": "spring-cup",
        "round": 1,
        "table": "castles-demo",
        "mode": "team",
        "sides": [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}],
    }
    session = TableSession()
    said: list[str] = []
    for record in read_log(EXAMPLES / "castles-2e-team.jsonl"):
        if record.kind == "setup":
            record = dataclasses.replace(record, payload=with_match(dict(record.payload), offer))
        said += [e["said"] for e in session.apply(record) if "said" in e]
    assert "Ada (Team Castle) to act" in said and "Bo (Team Catacomb) to act" in said
    assert not any(re.search(r"\b(ada|bo)\b|^Team \w+ to act", s) for s in said)
    snapshot = session.snapshot()
    assert [(s["id"], s.get("player")) for s in snapshot["sides"]] == [("ada", "Ada"), ("bo", "Bo")]
    assert snapshot["result"]["headline"] in ("Ada (Team Castle) wins", "Bo (Team Catacomb) wins")


def test_a_game_that_is_not_a_match_has_no_player_on_its_sides() -> None:
    session = TableSession()
    for record in read_log(EXAMPLES / "castles-2e-team.jsonl"):
        session.apply(record)
    assert all("player" not in s for s in session.snapshot()["sides"])
