"""A referee's or a button's command, carried out on the game thread and answered.

Each command is first checked against its declaration in the catalogue (service/table/commands/catalogue.py:
its arguments' schema and who may send it), then handed to whoever the catalogue says handles it. The set-up
desks' commands (enrolment, guided calibration) and the mat's ``rescan`` change nothing in the event log; the
game's and the set-up wizard's become records (service/table/commands/), each checked against the state the
one before left, then appended. The answer goes back on the command's transaction: accepted with the last
record's seq, or refused in words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from service.attribution.learning import CalibrationKeeper
from service.daemon.mat_link import MatLink
from service.enrolment.desk import EnrolmentRefused
from service.gamelog.replay import SetupError
from service.guided.desk import CalibrationRefused
from service.publish.commands import Command, CommandResult
from service.publish.publisher import TablePublisher
from service.rules import IllegalActionError
from service.table.commands import CATALOGUE, CommandRefused, check_command, records_for
from service.table.commands.wizard import wizard_records
from service.table.config import TableConfig
from service.table.session import UNDONE, SessionError, TableSession
from service.table.shot_actions import answered_discs
from service.table.trackers import TrackerConfig

log = logging.getLogger(__name__)

Record = Callable[[str, dict[str, Any], str], int]  # (kind, payload, by) → the record's seq, applied


class CommandRunner:
    def __init__(
        self,
        table: TableConfig,
        session: TableSession,
        publisher: TablePublisher,
        link: MatLink,
        trackers: tuple[TrackerConfig, ...],
        record: Record,
        start_game: Callable[[], int],  # the table file's game set up (a new_game's second record)
        publish_state: Callable[[], None],
        calibration: CalibrationKeeper | None,  # learns from the referee's answers to shots the mat read
    ) -> None:
        self.table, self.session, self.publisher, self.link = table, session, publisher, link
        self.trackers, self.record, self.start_game = trackers, record, start_game
        self.publish_state, self.calibration = publish_state, calibration
        self.enrolment_desk, self.calibration_desk = link.enrolment_desk, link.calibration_desk

    def on_command(self, command: Command) -> None:
        try:
            seq = self.carry_out(command.command, dict(command.args), command.actor)
        except (CommandRefused, SessionError, SetupError, IllegalActionError) as exc:
            log.info("command %s from %s refused: %s", command.command, command.actor, exc)
            self.publisher.respond(command.txn, CommandResult.refused(str(exc)))
        except Exception as exc:  # a fault of ours: still answer, or the referee's page waits for nothing
            log.exception("command %s from %s failed (txn %s)", command.command, command.actor, command.txn)
            why = f"the table could not carry out {command.command}: {type(exc).__name__}: {exc}"
            self.publisher.respond(command.txn, CommandResult.refused(why))
        else:
            self.publisher.respond(command.txn, CommandResult.accepted(seq))

    def on_button(self, action: str) -> None:
        try:
            if action == "shot_done":
                if self.session.pending_shot is not None:
                    self.carry_out("confirm_hits", {"candidate": 0}, "button:confirm")
                else:
                    self.link.end_shot_now()
            else:
                reason = {"reason": "button on the mat"} if "reason" in CATALOGUE[action].takes else {}
                self.carry_out(action, reason, f"button:{action}")
        except (CommandRefused, SessionError, IllegalActionError) as exc:
            log.info("button %s: %s", action, exc)

    def carry_out(self, name: str, args: dict[str, Any], actor: str) -> int | None:
        handled_by = check_command(name, args, actor).handled_by
        if handled_by == "mat":  # rescan
            self.link.request_scan()
            return None
        if handled_by == "enrolment":  # not the game's: the set file is the record
            try:
                self.enrolment_desk.command(name, args)
            except EnrolmentRefused as exc:
                raise CommandRefused(str(exc)) from None
            self.publish_state()
            return None
        if handled_by == "calibration":  # not the game's: nothing goes into the event log
            try:
                self.calibration_desk.command(name, args)
            except CalibrationRefused as exc:
                raise CommandRefused(str(exc)) from None
            self.publish_state()
            return None
        if handled_by == "wizard":
            records = wizard_records(name, args, self.table, self.trackers, self.session)
        else:
            records = records_for(name, args, self.session, self.table.registry)
        answered = self._answered_shot(name, args)
        seq = None
        for kind, payload in records:
            seq = self._checked(kind, payload, actor)  # each checked against the state the one before left
        if answered is not None and self.calibration is not None:
            # The referee's answer to a shot the mat read is a labelled shot for the table's calibration.
            shot_seq, view = answered
            given = {"direct_hits": [], **args} if name == "manual_shot" else args  # none named: no hits
            if self.calibration.learn_answer(shot_seq, answered_discs(view, given, self.session.discs)):
                self.publish_state()  # the calibrate page shows the labelled shots
        if name == "new_game":
            seq = self.start_game()
        return seq

    def _answered_shot(self, name: str, args: Mapping[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """The shot a referee's command answers, with its readings: a held shot confirmed (a reading picked
        or the hits entered), or an applied shot the referee undid and now enters by hand. A shot set aside
        or undone and not entered again answers nothing."""
        if name == "confirm_hits" and self.session.pending_shot is not None:
            return self.session.pending_shot["seq"], self.session.pending_shot
        last = self.session.last_shot
        if (
            name == "manual_shot"
            and last is not None
            and last.get("status") == UNDONE
            and last.get("auto_apply")
            and args.get("character") in (None, last.get("character"))
        ):
            return last["shot_seq"], last
        return None

    def _checked(self, kind: str, payload: dict[str, Any], actor: str) -> int:
        self.session.check(kind, payload)
        return self.record(kind, payload, actor)
