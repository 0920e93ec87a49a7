"""``smartmat attribute TRACE``: attribution of recorded shot traces, learning the table on the way."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any

from service.mat.trace import SeenPiece, ShotTrace, TraceFormatError, read_traces_line_by_line

from .answers import AnswerSource
from .calibration import CalibrationFileError, TableCalibration, load_calibration, save_calibration
from .infer import Attribution, AttributionConfig, attribute, shutdown_pool
from .learning import learn_from_guided_touch, learn_from_shot

log = logging.getLogger(__name__)


def register_cli(subparsers: Any) -> None:
    attr = subparsers.add_parser("attribute", help="who hit whom in recorded shot traces (JSON Lines)")
    attr.add_argument("trace", help="a shot trace file (docs/trace-format.md), one shot per line")
    attr.add_argument("--json", action="store_true", help="print one JSON object per shot")
    attr.add_argument(
        "--threshold",
        type=float,
        default=AttributionConfig.auto_apply_threshold,
        help="top probability at or above which the result is applied without the referee",
    )
    attr.add_argument("--workers", type=int, default=0, help="rollout processes (0: one per core)")
    attr.add_argument("--seed", type=int, default=0)
    attr.add_argument(
        "--table",
        metavar="CAL.json",
        help="the table's calibration file (docs/calibration.md); a missing file means wide priors. "
        "Without --table the model's built-in constants are taken as known",
    )
    attr.add_argument(
        "--learn",
        action="store_true",
        help="with --table: learn from each shot's own evidence after attributing it, in file order, "
        "and save the calibration after every shot",
    )
    attr.add_argument(
        "--referee",
        metavar="ANSWERS",
        help="with --learn: after the answer line of each shot not applied, read the referee's answer, one "
        'line {"direct_hits": [...]} or {"direct_hits": null}, from ANSWERS (a file, or - for standard '
        "input) and learn from it before the next shot (docs/attribution.md)",
    )
    attr.add_argument(
        "--guided-touches",
        action="store_true",
        help="with --referee: every shot is a guided touch flick (one disc flicked softly into another "
        "before play); an answer is read for every shot, applied or not, and learnt from without counting "
        'in the referee\'s record (docs/calibration.md, "Guided touch flicks")',
    )
    attr.set_defaults(func=_attribute)


def _attribute(args: argparse.Namespace) -> int:
    if args.learn and not args.table:
        print("error: --learn needs --table CAL.json (where the learnt calibration is kept)", file=sys.stderr)
        return 2
    if args.guided_touches and not args.referee:
        print(
            "error: --guided-touches needs --referee ANSWERS (the touched disc of each flick)",
            file=sys.stderr,
        )
        return 2
    if args.referee and not args.learn:
        print(
            "error: --referee needs --learn and --table CAL.json (answers are learnt from)", file=sys.stderr
        )
        return 2
    table = None
    if args.table:
        try:
            table = load_calibration(args.table)
        except CalibrationFileError as exc:
            log.error("cannot read %s: %s", args.table, exc)
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        lines = list(read_traces_line_by_line(args.trace))
    except OSError as exc:
        log.error("cannot read %s: %s", args.trace, exc)
        print(f"error: cannot read {args.trace}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        answers = _answer_source(args.referee)
    except OSError as exc:
        log.error("cannot read %s: %s", args.referee, exc)
        print(f"error: cannot read {args.referee}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    refused = [item for _, item in lines if isinstance(item, TraceFormatError)]
    for problem in refused:
        log.error("cannot read a trace: %s", problem)
        print(f"error: {problem}", file=sys.stderr)
    if refused and len(refused) == len(lines):
        return 2  # not a trace file at all
    last_seen: dict[str, SeenPiece] = {}  # where each disc was last seen, for a pre-scan that missed one
    try:
        for number, trace in lines:
            if not isinstance(trace, ShotTrace):
                # One answer per line all the same, so that answers still pair with lines. It is a held
                # line, so the referee's answer to it is read too; it teaches nothing (no shot to learn from).
                _print_unread(number, trace, table.digest if table is not None else "built-in", args.json)
                if answers is not None:
                    answers.next_answer(None, f"line {number}")
                continue
            config = AttributionConfig(
                auto_apply_threshold=args.threshold, workers=args.workers, seed=args.seed, table=table
            )
            result = attribute(trace, config, last_seen=last_seen.get(trace.declaration.flicked))
            last_seen.update(trace.pre.by_piece())
            last_seen.update(trace.post.by_piece())
            _print_result(result, args.json)  # flushed: a referee answering through a pipe sees it first
            answer, held = None, False
            if answers is not None and (args.guided_touches or not result.auto_apply):
                held = True
                answer = answers.next_answer(trace, f"line {number}, {result.flicked}")
            if args.learn and table is not None:
                table = _learn(table, trace, result, config, answer, held, args.guided_touches)
                save_calibration(table, args.table)
    finally:
        shutdown_pool()
    if table is not None and not args.json:
        summary = table.summary()
        print(
            f"calibration {table.digest}: {table.shots} shots, sound {summary['sound_speed_m_per_s']} m/s "
            f"(±{summary['sound_speed_uncertainty']:.1%}), "
            f"{table.referee.labelled} labelled by the referee, "
            + (
                "settled" if summary["settled"] else "not settled: " + "; ".join(summary["unsettled_because"])
            ),
            file=sys.stderr,
        )
    return 1 if refused else 0


def _learn(
    table: TableCalibration,
    trace: ShotTrace,
    result: Attribution,
    config: AttributionConfig,
    answer: frozenset[str] | None,
    held: bool,
    guided: bool,
) -> TableCalibration:
    if guided and answer is not None:
        return learn_from_guided_touch(table, trace, result, answer, config.evidence)
    return learn_from_shot(
        table, trace, result, config.evidence, answer=answer, answered_nothing=held and answer is None
    )


def _answer_source(name: str | None) -> AnswerSource | None:
    if not name:
        return None
    if name == "-":
        return AnswerSource(sys.stdin, "standard input", sys.stderr)
    return AnswerSource(open(name, encoding="utf-8"), name, sys.stderr)  # noqa: SIM115 (read to the end)


def _print_result(result: Attribution, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result.to_json()), flush=True)
        return
    verdict = "apply" if result.auto_apply else "ask the referee: " + "; ".join(result.reasons)
    print(f"{result.flicked}: {verdict} ({result.rollouts} rollouts, {result.elapsed_s:.2f} s)")
    for c in result.candidates[:5]:
        hits = ", ".join(sorted(c.direct_hits)) or "nothing"
        pushed = ", ".join(sorted(c.pushed)) or "-"
        print(f"  {c.probability:6.1%}  hit {hits}; pushed {pushed}")
    sys.stdout.flush()


def _print_unread(number: int, problem: TraceFormatError, calibration: str, as_json: bool) -> None:
    reason = f"line {number} is not a trace this reader accepts: {problem}"
    if not as_json:
        print(f"line {number}: ask the referee: {reason}")
        return
    answer = {
        "line": number,
        "error": str(problem),
        "flicked": None,
        "auto_apply": False,
        "reasons": [reason],
        "calibration": calibration,
        "candidates": [],
    }
    print(json.dumps(answer), flush=True)
