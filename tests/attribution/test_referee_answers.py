"""Learning from a referee's answers (docs/calibration.md, "What the referee's answers teach"): answers are
checked, counted per reason a shot was held for with a conservative bound, learnt from where the sensors do
not contradict them, and kept in the calibration file (version 2; version 1 files still read)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from service.attribution.answers import AnswerError, parse_answer
from service.attribution.calibration import (
    CalibrationFileError,
    built_in_calibration,
    calibration_from_json,
    load_calibration,
    save_calibration,
    wide_priors,
)
from service.attribution.infer import Attribution, AttributionConfig, attribute
from service.attribution.learning import learn_from_guided_touch, learn_from_shot
from service.attribution.reliability import (
    RELEASABLE,
    RELEASE_LOWER_BOUND,
    RefereeRecord,
    beta_lower_bound,
    probability_band,
    reason_key,
)
from service.simulator.shot_lab import ShotLab, SimulatedShot


@pytest.fixture(scope="module")
def room() -> ShotLab:
    table = ShotLab(seed=73)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    table.place("orc-2", "monster-medium", 600, 450, side="overseer", kind="monster")
    table.place("orc-3", "monster-medium", 420, 340, side="overseer", kind="monster")
    return table


@pytest.fixture(scope="module")
def held_shot(room: ShotLab) -> tuple[SimulatedShot, Attribution]:
    """A shot the built-in constants hold only because the best reading is not sure enough."""
    shot = room.shoot("hero-xoric", 0.0, 1400)
    result = attribute(shot.trace, AttributionConfig())
    assert not result.auto_apply and [reason_key(r) for r in result.reasons] == ["unsure"]
    return shot, result


def test_an_answer_line_is_checked_against_the_shot(held_shot: tuple[SimulatedShot, Attribution]) -> None:
    trace = held_shot[0].trace
    assert parse_answer('{"direct_hits": ["orc-1", "orc-3"]}', trace) == frozenset({"orc-1", "orc-3"})
    assert parse_answer('{"direct_hits": []}', trace) == frozenset()
    assert parse_answer('{"direct_hits": null, "note": "did not see it"}', trace) is None
    for line, problem in (
        ("orc-1", "not JSON"),
        ('["orc-1"]', 'expected {"direct_hits"'),
        ('{"hits": ["orc-1"]}', 'expected {"direct_hits"'),
        ('{"direct_hits": "orc-1"}', "expected a list of piece ids or null"),
        ('{"direct_hits": [1]}', "expected a list of piece ids or null"),
        ('{"direct_hits": ["orc-1", "troll-9"]}', "no such piece in the shot: troll-9"),
        ('{"direct_hits": ["hero-xoric"]}', "hero-xoric is the flicked disc itself"),
    ):
        with pytest.raises(AnswerError) as caught:
            parse_answer(line, trace)
        assert problem in str(caught.value), line


def test_the_bound_needs_a_long_clean_record_and_one_wrong_answer_pushes_it_back() -> None:
    assert beta_lower_bound(0, 0) == pytest.approx(0.05, abs=1e-6)
    assert beta_lower_bound(20, 0) == pytest.approx(0.05 ** (1 / 21), abs=1e-6)  # Beta(21, 1): x^21
    record = RefereeRecord()
    for _ in range(97):
        record = record.with_answer({"unsure", "p 0.95-1.00"}, True, contradicted=False, learnt=True)
    assert not record.releases("unsure")  # 97 right answers do not make 97 %
    record = record.with_answer({"unsure", "p 0.95-1.00"}, True, contradicted=False, learnt=True)
    assert record.releases("unsure") and record.lower_bound("unsure") >= RELEASE_LOWER_BOUND
    assert record.lets_through({"unsure"}, "p 0.95-1.00")
    assert not record.lets_through({"unsure"}, "p 0.50-0.80")  # that band's doubt has no record yet
    assert not record.lets_through({"unsure", "near-miss"}, "p 0.95-1.00")  # every reason must clear it
    once_wrong = record.with_answer({"unsure"}, False, contradicted=False, learnt=True)
    assert not once_wrong.releases("unsure")
    calibration = replace(record.with_answer({"calibration"}, True, contradicted=False, learnt=True))
    assert "calibration" not in RELEASABLE and not calibration.releases("calibration")


def test_reasons_in_words_have_stable_keys(room: ShotLab) -> None:
    """Every reason the gates gave on a handful of shots of a new table has a key of its own."""
    table = wide_priors("keys")
    seen = set()
    for angle in (0.0, 0.1, 0.2, 3.1, 0.55):
        result = attribute(room.shoot("hero-xoric", angle, 1400).trace, AttributionConfig(table=table))
        keys = {reason_key(r): r for r in result.reasons}
        assert "other" not in keys, result.reasons
        seen |= set(keys)
    assert "calibration" in seen
    assert probability_band(0.97) == "p 0.95-1.00" and probability_band(0.3) == "p 0.00-0.50"


def test_a_record_that_clears_every_reason_lets_the_shot_through(
    held_shot: tuple[SimulatedShot, Attribution],
) -> None:
    shot, held = held_shot
    band = probability_band(held.top.probability)
    record = RefereeRecord(counts=((band, 150, 0), ("unsure", 150, 0)))
    table = replace(built_in_calibration(), referee=record)
    released = attribute(shot.trace, AttributionConfig(table=table))
    assert released.auto_apply and released.top.direct_hits == held.top.direct_hits
    assert released.to_json()["released_by_referee_record"] == list(held.reasons)
    one_wrong = replace(table, referee=replace(record, counts=((band, 150, 0), ("unsure", 150, 6))))
    assert not attribute(shot.trace, AttributionConfig(table=one_wrong)).auto_apply


def test_an_answer_teaches_the_table_and_one_the_sensors_cannot_reproduce_teaches_only_the_record(
    held_shot: tuple[SimulatedShot, Attribution],
) -> None:
    shot, held = held_shot
    table = built_in_calibration()
    answered = learn_from_shot(table, shot.trace, held, answer=held.top.direct_hits)
    assert (
        answered.referee.labelled == 1 and answered.referee.agreed == 1 and answered.referee.learnt_from == 1
    )
    assert answered.referee.counted("unsure") == (1, 0)
    # The answered reading's contacts were learnt from: the model's own reading, held, taught no loudness.
    unanswered = learn_from_shot(table, shot.trace, held, answered_nothing=True)
    assert unanswered.referee.unanswered == 1 and unanswered.referee.labelled == 0
    assert unanswered.disc_loudness == table.disc_loudness
    assert (answered.disc_loudness, answered.wall_loudness) != (table.disc_loudness, table.wall_loudness)
    # An answer no rollout reproduced: counted against the reading, nothing physical learnt from it.
    impossible = frozenset({"orc-1", "orc-2", "orc-3"})
    assert all(h.direct_hits != impossible for h in held.evidence.by_hits)  # type: ignore[union-attr]
    wrong = learn_from_shot(table, shot.trace, held, answer=impossible)
    assert wrong.referee.counted("unsure") == (0, 1) and wrong.referee.contradicted == 1
    assert wrong.referee.learnt_from == 0
    assert (wrong.disc_loudness, wrong.wall_loudness, wrong.friction) == (
        unanswered.disc_loudness,
        unanswered.wall_loudness,
        unanswered.friction,
    )


def test_a_guided_touch_flick_teaches_the_loudness_but_not_the_referee_record(
    held_shot: tuple[SimulatedShot, Attribution],
) -> None:
    """docs/calibration.md, "Guided touch flicks": the touched set is given by the routine, so it is learnt
    from like an answer, yet a staged flick never counts in the gates' record of answers to held shots."""
    shot, held = held_shot
    table = built_in_calibration()
    guided = learn_from_guided_touch(table, shot.trace, held, held.top.direct_hits)
    answered = learn_from_shot(table, shot.trace, held, answer=held.top.direct_hits)
    assert guided.referee == table.referee and answered.referee != table.referee
    assert (guided.disc_loudness, guided.wall_loudness) == (answered.disc_loudness, answered.wall_loudness)
    assert (guided.disc_loudness, guided.wall_loudness) != (table.disc_loudness, table.wall_loudness)
    # A touched set the sensors cannot reproduce teaches nothing physical, guided or not.
    impossible = frozenset({"orc-1", "orc-2", "orc-3"})
    refused = learn_from_guided_touch(table, shot.trace, held, impossible)
    assert refused.referee == table.referee
    assert refused.disc_loudness == learn_from_shot(table, shot.trace, held).disc_loudness


def test_the_calibration_file_keeps_the_record_and_reads_a_version_1_file(tmp_path: Path) -> None:
    record = RefereeRecord(labelled=3, agreed=2, unanswered=1, contradicted=1, learnt_from=2)
    record = record.with_answer({"near-miss", "p 0.80-0.90"}, False, contradicted=False, learnt=True)
    cal = replace(wide_priors("t1"), shots=4, referee=record)
    path = tmp_path / "CAL.json"
    save_calibration(cal, path)
    data = json.loads(path.read_text())
    assert data["v"] == 2 and data["summary"]["referee"]["labelled_shots"] == 4
    assert data["summary"]["referee"]["gates"]["near-miss"]["wrong"] == 1
    assert load_calibration(path).referee == record
    old = {k: v for k, v in data.items() if k != "referee"} | {"v": 1}
    assert calibration_from_json(old).referee == RefereeRecord()  # a table from before: no answers yet
    for broken, key in (
        ({**record.to_json(), "labelled": -1}, "referee.labelled"),
        ({**record.to_json(), "by_reason": [{"key": "", "right": 1, "wrong": 0}]}, "referee.by_reason[0]"),
        ({**record.to_json(), "agreed": 99}, "referee.agreed"),
    ):
        with pytest.raises(CalibrationFileError, match=key.replace("[", r"\[").replace("]", r"\]")):
            calibration_from_json(data | {"referee": broken})
    with pytest.raises(CalibrationFileError, match="unsupported calibration version 3"):
        calibration_from_json(data | {"v": 3})


def test_an_answer_places_the_held_shot_s_sounds_where_the_answered_reading_makes_its_contacts() -> None:
    # A held reading is not sure, so its sounds are kept unplaced and teach the sound speed by timing alone;
    # the referee's answer says which touches happened, and the answered reading's best rollout says where:
    # the shot's events are kept again, anchored there, as a sure reading's are (learning.py).
    lab = ShotLab(seed=5)
    lab.place("hero-xoric", "hero", 150, 300, side="heroes")
    lab.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    shot = lab.shoot("hero-xoric", 0.0, 2200)  # a hit every piezo hears
    held = attribute(shot.trace, AttributionConfig(auto_apply_threshold=0.999, workers=1))
    assert not held.auto_apply and held.top.direct_hits == {"orc-1"}
    table = built_in_calibration()
    unanswered = learn_from_shot(table, shot.trace, held, answered_nothing=True)
    assert len(unanswered.acoustic_events) == 1 and unanswered.acoustic_events[0].anchor is None
    answered = learn_from_shot(table, shot.trace, held, answer=held.top.direct_hits)
    assert [k.arrivals for k in answered.acoustic_events] == [k.arrivals for k in unanswered.acoustic_events]
    anchor = answered.acoustic_events[0].anchor
    assert anchor is not None
    (touch,) = shot.truth.contacts
    assert math.hypot(anchor[0] - touch.x_mm, anchor[1] - touch.y_mm) < 20.0  # where the hero met the orc
    # The sure reading of the same shot anchors it by itself; an answer then adds nothing to the sound.
    sure = attribute(shot.trace, AttributionConfig(workers=1))
    assert sure.evidence is not None and sure.evidence.trusted
    learnt = learn_from_shot(table, shot.trace, sure)
    assert learn_from_shot(table, shot.trace, sure, answer=sure.top.direct_hits).acoustic_events == (
        learnt.acoustic_events
    )
