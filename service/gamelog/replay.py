"""A log's state is the replay of its records, with undo and corrections folded in (never rewritten)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from service.gamelog.context import context_differences
from service.gamelog.records import RULES_KINDS, TABLE_KINDS, LogFormatError, Record
from service.games import DEFAULT_RULESET, SetupContentError, content_loader, rulesets
from service.games.loading import SetupError as SetupError
from service.rules import actions as A
from service.rules.codec import DecodeError, decode_dataclass
from service.rules.errors import IllegalActionError
from service.rules.events import Event
from service.rules.ruleset import RuleSet
from service.rules.settings import RuleSettings

log = logging.getLogger(__name__)


@dataclass
class Replay:
    rules: RuleSet[Any, Any]
    state: Any  # the rule set's own state: GameState (3E), CastlesState (Castles 2E)
    events: list[tuple[int, Event]] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (seq, why) for actions refused on replay
    applied: int = 0
    last_seq: int = 0
    # How this machine differs from the software, rule set and cards the log was played with (its setup's
    # context): a dispute replayed with other cards may not be the game that was played.
    context_differences: list[str] = field(default_factory=list)


# Card sets a setup may name besides "shipped". The service ships none: a test suite registers its hand-made
# cards (tests/conftest.py: "sample") so that the logs played with them replay, and a real table, where
# nothing is registered, refuses such a setup.
_FIXTURE_CONTENT: dict[str, Callable[[], Any]] = {}


def register_fixture_content(name: str, load: Callable[[], Any]) -> None:
    """Lets setups naming ``content: <name>`` play with the cards ``load`` makes (test fixtures only)."""
    if name == "shipped":
        raise ValueError("'shipped' names the cards in content/; a fixture needs a name of its own")
    _FIXTURE_CONTENT[name] = load


def load_content(setup: dict[str, Any]) -> Any:
    """The cards the setup's rule set plays with, from the game's own loader (its ``GameDefinition.content``):
    shipped (with an organiser's overlay), or a registered fixture set."""
    name = setup.get("ruleset", DEFAULT_RULESET)
    try:
        return content_loader(name)(setup, _FIXTURE_CONTENT)
    except SetupContentError as exc:
        raise SetupError(str(exc)) from exc


def new_game_from_setup(setup: dict[str, Any], content: Any = None) -> tuple[RuleSet[Any, Any], Any]:
    name = setup.get("ruleset", DEFAULT_RULESET)
    ruleset = rulesets().get(name) if isinstance(name, str) else None
    if ruleset is None:
        raise SetupError(f"unknown rule set {name!r}; known: {sorted(rulesets())}")
    settings = _settings(ruleset.settings_type, setup.get("settings", {}))
    for key in ("items", "spells"):
        if not isinstance(setup.get(key) or {}, dict):
            raise SetupError(f"setup {key!r} must map hero card ids to card ids, got {setup[key]!r}")
    rules = ruleset(content if content is not None else load_content(setup), settings)
    try:
        state = rules.new_game_from_setup(setup)
    except KeyError as exc:
        raise SetupError(f"setup needs {exc}") from exc
    except (IllegalActionError, LookupError, TypeError, ValueError, OverflowError) as exc:
        raise SetupError(f"cannot start the game: {exc}") from exc
    return rules, state


def _settings(settings_type: type[RuleSettings], raw: Any) -> RuleSettings:
    """The table's settings as the rule set's own ``settings_type``, each of its own type: "yes please" is
    not a true, nor "2" a number."""
    if not isinstance(raw, dict):
        raise SetupError(f"bad settings: expected an object, got {raw!r}")
    try:
        return decode_dataclass(settings_type, raw, "settings")
    except DecodeError as exc:
        raise SetupError(f"bad settings: {exc}") from exc


def fold(records: Iterable[Record]) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The setup payload and the effective actions after undo and corrections, in order."""
    setup: dict[str, Any] | None = None
    effective: list[tuple[int, dict[str, Any]]] = []
    for record in records:
        if record.kind == "new_game":
            # The table started another game in the same log: the state is the newest game's.
            setup, effective = None, []
            continue
        if record.kind not in RULES_KINDS:
            if record.kind not in TABLE_KINDS:
                # Kept and passed over (a newer daemon may write kinds this one does not know), but said.
                log.warning(
                    "seq %d: record kind %r is unknown to this version; passed over", record.seq, record.kind
                )
            continue  # the table's own records (docs/game-log.md)
        if record.kind == "setup":
            if setup is not None:
                raise LogFormatError(f"seq {record.seq}: a log holds one game; a second setup record")
            setup = record.payload
            continue
        if setup is None:
            raise LogFormatError(f"seq {record.seq}: the first record must be the setup")
        if record.kind == "action":
            effective.append((record.seq, record.payload))
        elif record.kind == "undo":
            target = record.payload.get("seq")
            index = _find(effective, target) if target is not None else len(effective) - 1
            if index < 0:
                log.warning(
                    "seq %s: undo of %s, which is not an effective action; ignored", record.seq, target
                )
                continue
            del effective[index]
        else:  # correction
            action = record.payload.get("action")
            replaces = record.payload.get("replaces")
            if replaces is None:
                if action is None:
                    raise LogFormatError(f"seq {record.seq}: a correction needs 'action' or 'replaces'")
                effective.append((record.seq, action))
                continue
            index = _find(effective, replaces)
            if index < 0:
                log.warning(
                    "seq %s: correction of %s, which is not an effective action; ignored",
                    record.seq,
                    replaces,
                )
            elif action is None:
                del effective[index]
            else:
                effective[index] = (replaces, action)
    if setup is None:
        raise LogFormatError("the log has no setup record")
    return setup, effective


def _find(effective: list[tuple[int, dict[str, Any]]], seq: Any) -> int:
    for i, (s, _) in enumerate(effective):
        if s == seq:
            return i
    return -1


def replay(records: Iterable[Record], content: Any = None) -> Replay:
    """Replays a log. Actions the rules refuse are reported in ``rejected`` and skipped; nothing is lost."""
    records = list(records)
    setup, effective = fold(records)
    rules, state = new_game_from_setup(setup, content)
    result = Replay(rules, state, last_seq=records[-1].seq if records else 0)
    if content is None:
        result.context_differences = context_differences(setup)
        for difference in result.context_differences:
            log.warning("the log's context differs from this machine: %s", difference)
    for seq, payload in effective:
        try:
            action = A.action_from_json(payload)
            state, events = rules.apply(state, action)
        except (A.MalformedActionError, IllegalActionError) as exc:
            log.warning("seq %s: %s", seq, exc)
            result.rejected.append((seq, str(exc)))
            continue
        result.applied += 1
        result.events.extend((seq, e) for e in events)
    result.state = state
    return result
