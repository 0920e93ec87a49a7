"""Whatever arrives on cmd/request, the parser either returns a Command or says precisely what is wrong."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from service.publish import Command, MalformedCommandError, parse_command
from service.table.commands import CATALOGUE

COMMANDS = tuple(CATALOGUE)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(deadline=None)  # a shared machine can be slow; correctness, not speed, is tested
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash_the_parser(payload: bytes) -> None:
    try:
        parse_command(payload)
    except MalformedCommandError as exc:
        assert str(exc)


@settings(deadline=None)  # a shared machine can be slow; correctness, not speed, is tested
@given(st.dictionaries(st.sampled_from(["txn", "actor", "command", "args", "extra"]), json_values))
def test_arbitrary_objects_are_accepted_only_when_the_envelope_is_right(data: dict[str, object]) -> None:
    try:
        command = parse_command(json.dumps(data).encode())
    except MalformedCommandError as exc:
        txn = data.get("txn")
        if isinstance(txn, str) and 0 < len(txn) <= 128:
            assert exc.txn == txn, "a usable txn is always recovered for the answer"
        else:
            assert exc.txn is None
        return
    assert set(data) == {"txn", "actor", "command", "args"}
    assert command == Command(data["txn"], data["actor"], data["command"], data["args"])  # type: ignore[arg-type]
    assert command.command in COMMANDS and isinstance(command.args, dict)


@settings(deadline=None)  # a shared machine can be slow; correctness, not speed, is tested
@given(st.sampled_from(COMMANDS), st.dictionaries(st.text(max_size=8), json_values, max_size=3))
def test_every_documented_command_passes_with_any_args_object(name: str, args: dict[str, object]) -> None:
    request = {"txn": "t-1", "actor": "referee:anna", "command": name, "args": args}
    assert parse_command(json.dumps(request).encode()) == Command("t-1", "referee:anna", name, args)
