"""The fuzz targets: for each input the table takes from outside, a strategy for inputs and a check.

Each ``Target`` has ``strategy`` (Hypothesis) and ``check(example)``, which raises ``AssertionError`` (a
broken promise) or lets any other exception escape (a crash). The tests in this folder run each a bounded
number of times; ``benchmarks/fuzz.py`` runs them for a time budget and counts.

- ``frames``: bytes from the serial port → ``FrameDecoder`` (COBS, CRC, header, every message body).
- ``commands``: payloads on ``cmd/request`` → the daemon (fake broker, fake mat, in-memory log).
- ``content``: an organiser's overlay directory of YAML → ``load_content``.
- ``dashboard``: HTTP requests → the dashboard app (Flask test client, fake feed and command channel).
"""

from __future__ import annotations

import json
import logging
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml
from hypothesis import strategies as st

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.errors import FrameError
from firmware_bridge.messages import MESSAGE_TYPES, Capabilities, Hello, Impact
from firmware_bridge.protocol import CRC, HEADER, FrameDecoder, crc16, decode_frame, encode_frame
from tests.bridge.strategies import any_message
from tests.fuzz.strategies import dumps, json_values, latin1_text, mutated_bytes, text


@dataclass(frozen=True)
class Target:
    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], None]


# == frames ===============================================================================================
BOOT = 0x0BADF00D
GOOD_MESSAGE = Impact(sensor_id=3, t_us=9_000_000, amplitude=700)
GOOD = encode_frame(GOOD_MESSAGE, seq=1, boot_id=BOOT)
CAPABILITIES = default_capabilities(BOOT).to_json()


def _wrap(raw: bytes) -> bytes:
    """COBS-encode with a correct CRC, so the decoder gets past framing to the header and body."""
    from cobs import cobs  # type: ignore[import-untyped]

    return bytes(cobs.encode(raw + CRC.pack(crc16(raw)))) + b"\x00"


@st.composite
def _capabilities_blob(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 5)) == 0:  # nesting as deep as a frame can hold, at the top or in a field
        depth = draw(st.integers(1, 1010))
        deep = "[" * depth + "]" * depth
        field = draw(st.sampled_from(["", "firmware", "grid", "sensors", "mat_mm"]))
        return (
            deep if not field else json.dumps({**CAPABILITIES, field: None}).replace("null", deep)
        ).encode()
    if draw(st.booleans()):
        return dumps(draw(json_values)).encode("utf-8", "surrogatepass")
    caps = json.loads(json.dumps(CAPABILITIES))
    for _ in range(draw(st.integers(1, 3))):
        where = caps
        path = draw(
            st.sampled_from(
                [
                    "firmware",
                    "boot_id",
                    "grid",
                    "grid/cols",
                    "grid/rows",
                    "grid/pitch_mm",
                    "grid/origin_mm",
                    "sensors",
                    "mat_mm",
                    "buttons",
                ]
            )
        )
        *parents, last = path.split("/")
        for parent in parents:
            where = where[parent] if isinstance(where.get(parent), dict) else where
        if draw(st.integers(0, 5)) == 0:
            where.pop(last, None)
        else:
            where[last] = draw(json_values)
    return dumps(caps).encode("utf-8", "surrogatepass")


@st.composite
def _piece(draw: st.DrawFn) -> tuple[bytes, Any]:
    """One piece of the stream and the message it must decode to (None: anything or nothing)."""
    kind = draw(st.sampled_from(["noise", "frame", "mutated", "header", "hello"]))
    if kind == "noise":
        return draw(st.binary(max_size=300)), None
    if kind == "frame":
        message = draw(any_message)
        seq, boot = draw(st.integers(0, 0xFFFF)), draw(st.integers(0, 0xFFFF_FFFF))
        return encode_frame(message, seq=seq, boot_id=boot), message
    if kind == "mutated":
        message = draw(any_message)
        return draw(mutated_bytes(encode_frame(message, seq=7, boot_id=BOOT))), None
    if kind == "header":  # a correct CRC around any header and body: the body decoders see anything
        version = draw(st.sampled_from([1, 1, 1, 0, 2, 255]))
        type_code = draw(st.one_of(st.sampled_from(sorted(MESSAGE_TYPES)), st.integers(0, 255)))
        body = draw(st.binary(max_size=40))
        return _wrap(HEADER.pack(version, type_code, draw(st.integers(0, 0xFFFF)), BOOT) + body), None
    blob = draw(_capabilities_blob())
    length = len(blob) if draw(st.integers(0, 9)) else draw(st.integers(0, 0xFFFF))
    return _wrap(HEADER.pack(1, Hello.TYPE, 0, BOOT) + length.to_bytes(2, "big") + blob), None


frame_streams = st.tuples(st.lists(_piece(), max_size=6), st.integers(1, 80))


def check_frames(example: tuple[list[tuple[bytes, Any]], int]) -> None:
    pieces, chunk = example
    stream = b""
    intact: list[Any] = []
    for data, message in pieces:
        if message is not None and (not stream or stream.endswith(b"\x00")):
            intact.append(message)  # a good frame right after a delimiter must come through
        stream += data
    stream += b"\x00" + GOOD
    errors: list[FrameError] = []
    decoder = FrameDecoder(on_error=errors.append)
    frames = []
    for start in range(0, len(stream), chunk):
        frames += decoder.feed(stream[start : start + chunk])
    messages = [f.message for f in frames]
    assert messages[-1:] == [GOOD_MESSAGE], "the good frame after a delimiter was lost"
    found = iter(messages)
    assert all(any(m == want for m in found) for want in intact), "an intact frame was lost or reordered"
    for error in errors:
        assert isinstance(error, FrameError) and str(error), error
    for frame in frames:
        assert type(frame.message) in MESSAGE_TYPES.values()
        again = decode_frame(encode_frame(frame.message, seq=frame.seq, boot_id=frame.boot_id)[:-1])
        assert again.message == frame.message, "a decoded message does not survive re-encoding"
    for data, _ in pieces:  # each piece alone, through the one-frame decoder
        for part in data.split(b"\x00"):
            if part:
                try:
                    decode_frame(part)
                except FrameError as error:
                    assert str(error)


def check_capabilities(value: Any) -> None:
    from firmware_bridge.errors import MalformedBody

    try:
        caps = Capabilities.from_json(value)
    except MalformedBody as error:
        assert str(error)
        return
    assert Capabilities.from_json(json.loads(json.dumps(caps.to_json()))) == caps


FRAMES = Target("frames", frame_streams, check_frames)
CAPABILITIES_JSON = Target(
    "hello capabilities",
    st.one_of(json_values, st.dictionaries(st.sampled_from(sorted(CAPABILITIES)), json_values)),
    check_capabilities,
)


# == MQTT commands ========================================================================================
COMMAND_ARGS = {
    "character": ["hero-xoric", "hero-elani", "hero-varesh", "hero-roosan", "monster-orc-1", "dungeon-1"],
    "alternative": [0, 1, 2],
    "action": ["fireball", "heal", "shield"],
    "card": ["fireball", "heal", "shield"],
    "decision": ["d1", "d2"],
    "option": ["0", "1"],
    "direct_hits": [[], ["monster-orc-1"], ["dungeon-1", "hero-elani"], ["dungeon-2"]],
    "pushed_off_mat": [[], ["monster-orc-2"]],
    "knocked_off": [[]],
    "candidate": [0, 1],
    "shot": ["melee", "rush", "missile"],
    "target": ["monster-orc-1", "hero-xoric", "party"],
    "field": ["health", "gold", "card", "poison"],
    "value": [0, 3, 99],
    "change": ["give", "take"],
    "reason": ["spill", ""],
    "count": [1, 2, 3],
    "piece": ["dungeon-1", "dungeon-3", "hero-xoric"],
    "playmat": ["a", "b"],
    "flicked": ["hero-xoric", "dungeon-1"],
    "service": ["heal", "rest"],
    "rush_first": [True, False],
}
COMMANDS = (
    "declare answer skip_shot end_turn confirm_hits manual_shot correct undo pause resume rescan enter_room "
    "start_battle dismiss_shot bind play_card use_service"
).split()


@st.composite
def _args(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    names = draw(st.lists(st.sampled_from(sorted(COMMAND_ARGS)), max_size=4, unique=True))
    args: dict[str, Any] = {}
    for name in names:
        args[name] = (
            draw(st.sampled_from(COMMAND_ARGS[name])) if draw(st.integers(0, 3)) else draw(json_values)
        )
    return args


@st.composite
def _request(draw: st.DrawFn, txn: str) -> bytes:
    """One payload for cmd/request: mostly a well-formed envelope with odd arguments, sometimes not."""
    kind = draw(st.sampled_from(["play", "play", "odd", "envelope", "bytes", "mutated"]))
    if kind == "play":  # the commands that move a game on, so the fuzzing reaches deep states
        command = draw(
            st.sampled_from(
                [
                    "enter_room",
                    "start_battle",
                    "declare",
                    "manual_shot",
                    "end_turn",
                    "skip_shot",
                    "undo",
                    "confirm_hits",
                    "answer",
                    "pause",
                    "resume",
                ]
            )
        )
        return dumps({"txn": txn, "actor": "referee:anna", "command": command, "args": draw(_args())}).encode(
            "utf-8", "surrogatepass"
        )
    body: dict[str, Any] = {
        "txn": txn,
        "actor": "referee:anna",
        "command": draw(st.sampled_from(COMMANDS)),
        "args": draw(_args()),
    }
    if kind == "envelope":
        for field in draw(
            st.lists(st.sampled_from(["txn", "actor", "command", "args", "extra"]), max_size=2)
        ):
            if draw(st.booleans()):
                body.pop(field, None)
            else:
                body[field] = draw(json_values)
    payload = dumps(body).encode("utf-8", "surrogatepass")
    if kind == "bytes":
        return draw(st.binary(max_size=80))
    if kind == "mutated":
        return draw(mutated_bytes(payload))
    return payload


@st.composite
def command_sessions(draw: st.DrawFn) -> tuple[str, list[bytes]]:
    opening = draw(st.sampled_from(["fresh", "battle", "doubtful"]))
    steps = []
    for i in range(draw(st.integers(1, 10))):
        txn = (
            f"t-{i}" if draw(st.integers(0, 7)) else f"t-{draw(st.integers(0, max(i - 1, 0)))}"
        )  # QoS 1 again
        steps.append(draw(_request(txn)))
    return opening, steps


class _Errors(logging.Handler):
    """ERROR records other than the documented "refused a malformed command" (which is the daemon's job)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "refused a malformed command" not in record.getMessage():
            self.records.append(record)


@contextmanager
def _errors_logged() -> Iterator[_Errors]:
    handler = _Errors()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


_OPENINGS: dict[str, list[Any]] = {}


def _opening_table(opening: str) -> Any:
    """A table whose log starts as ``opening`` says: a fresh game, a battle under way, or a doubtful shot
    waiting for the referee. Each opening's records are made once and copied into every new log."""
    from service.eventlog.memory import MemoryEventLog
    from tests.helpers.game_script import GameScript

    if opening == "fresh":
        return GameScript()
    if opening not in _OPENINGS:
        eventlog = MemoryEventLog()
        first = GameScript(eventlog=eventlog)
        first.send("enter_room")
        first.send("start_battle")
        if opening == "doubtful":
            first.declare("hero-xoric")
        first.close()
        if opening == "doubtful":
            candidate = {
                "direct_hits": ["dungeon-1"],
                "hit_characters": ["monster-orc-1"],
                "off_mat_characters": [],
                "freed_characters": [],
                "probability": 0.55,
            }
            eventlog.append(
                "shot",
                {"character": "hero-xoric", "shot": "melee", "auto": False, "candidates": [candidate]},
                "sensor",
            )
        _OPENINGS[opening] = eventlog.records()
    eventlog = MemoryEventLog()
    for record in _OPENINGS[opening]:
        eventlog.append(record.kind, record.payload, record.by, at=record.at)
    return GameScript(eventlog=eventlog)


# What the daemon adds to the published state beside the game (docs/state.md): the set-up pages' views.
DAEMON_VIEWS = ("calibration", "enrolment", "unknown_tags", "health", "trackers")


def _published_state(table: Any) -> dict[str, Any]:
    return table.state  # type: ignore[no-any-return]


def check_commands(example: tuple[str, list[bytes]]) -> None:
    from service.publish import topics
    from service.publish.commands import MalformedCommandError, parse_command
    from service.table.session import TableSession

    opening, steps = example
    with _errors_logged() as errors:
        table = _opening_table(opening)
        try:
            answered: dict[str, dict[str, Any]] = {}
            for payload in steps:
                table.referee.received.clear()
                before = (table.eventlog.last_seq(), _published_state(table))
                table.referee.publish(
                    topics.topic(table.table.table, topics.CMD_REQUEST), payload, qos=1, retain=False
                )
                table.settle()
                answers = [json.loads(m.payload) for m in table.referee.received]
                try:
                    txn: str | None = parse_command(payload).txn
                    well_formed = True
                except MalformedCommandError as exc:
                    txn, well_formed = exc.txn, False
                if txn is None:
                    assert answers == [], f"answered a request with no txn: {answers}"
                else:
                    assert len(answers) == 1 and answers[0]["txn"] == txn, f"{payload!r} answered {answers}"
                    answer = answers[0]
                    repeated = txn in answered and well_formed
                    if repeated:  # a QoS 1 duplicate: the first answer, not applied again
                        assert answer == answered[txn], "a repeated txn got another answer"
                        after = (table.eventlog.last_seq(), _published_state(table))
                        assert after == before, "a repeated txn changed the game"
                    answered.setdefault(txn, answer)
                    assert isinstance(answer["ok"], bool)
                    if not answer["ok"]:
                        assert isinstance(answer["error"], str) and answer["error"], answer
                        assert not answer["error"].startswith("the table could not carry out"), answer
                        after = (table.eventlog.last_seq(), _published_state(table))
                        assert after == before, f"refused ({answer['error']}) but the game changed"
                    elif "seq" in answer and not repeated:  # a repeat names the record of its first answer
                        assert answer["seq"] == table.eventlog.last_seq()
                # The game is always the replay of its log, and what is published is the game.
                live = table.daemon.session.snapshot()
                replayed = TableSession.replay(
                    table.eventlog.records(), binder=table.daemon.bind_discs
                ).snapshot()
                assert replayed == live, "the live game differs from the replay of its log"
                published = {k: v for k, v in _published_state(table).items() if k not in DAEMON_VIEWS}
                assert published == json.loads(json.dumps(live)), "published state is stale"
        finally:
            table.close()
    assert not errors.records, [r.getMessage() for r in errors.records]


COMMAND_SESSIONS = Target("commands", command_sessions(), check_commands)


# == content ==============================================================================================
CONTENT_FILES = (
    "monsters.yaml rooms.yaml special-rooms.yaml lords.yaml heroes.yaml items.yaml spells.yaml "
    "abilities.yaml poison-deck.yaml playmats.yaml layouts.yaml antients.yaml"
).split()


def _shipped(name: str) -> Any:
    from service.content.reading import CONTENT_ROOT

    path = Path(CONTENT_ROOT) / "catacombs-3e" / name
    return yaml.safe_load(path.read_text(encoding="utf-8"))


_SHIPPED: dict[str, Any] = {}


def _mutate(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    if depth > 6 or draw(st.integers(0, 6)) == 0:
        return draw(json_values) if draw(st.booleans()) else value
    if isinstance(value, dict) and value:
        value = dict(value)
        key = draw(st.sampled_from(sorted(value, key=str)))
        op = draw(st.sampled_from(["recurse", "recurse", "drop", "add", "rename"]))
        if op == "recurse":
            value[key] = _mutate(draw, value[key], depth + 1)
        elif op == "drop":
            del value[key]
        elif op == "add":
            value[draw(st.one_of(text, st.integers(), st.booleans()))] = draw(json_values)
        else:
            value[draw(text)] = value.pop(key)
        return value
    if isinstance(value, list) and value:
        value = list(value)
        at = draw(st.integers(0, len(value) - 1))
        value[at] = _mutate(draw, value[at], depth + 1)
        return value
    return draw(json_values)


@st.composite
def _overlay_file(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(CONTENT_FILES + ["monster.yaml", "notes.txt.yaml"]))
    kind = draw(st.sampled_from(["records", "records", "records", "yaml", "text"]))
    if kind == "text":
        return name, draw(
            st.one_of(st.text(max_size=200), st.text(alphabet="[]{}:-&*!|>'\" \n\tab1", max_size=120))
        )
    if kind == "yaml":
        return name, yaml.safe_dump(draw(json_values), allow_unicode=True)
    if name not in _SHIPPED:
        _SHIPPED[name] = _shipped(name) if name in CONTENT_FILES else {"monsters": {}}
    shipped = _SHIPPED[name]
    key, records = next(iter(shipped.items()))
    ids = sorted(records)
    chosen = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True)) if ids else []
    picked = {i: records[i] for i in chosen}
    document = {key: _mutate(draw, picked)}
    if draw(st.integers(0, 5)) == 0:
        document = _mutate(draw, document)
    try:
        return name, yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError:
        return name, yaml.safe_dump({key: picked})


overlays = st.lists(_overlay_file(), min_size=1, max_size=3)


def check_content(files: list[tuple[str, str]]) -> None:
    from service.content.errors import ContentError
    from service.games.catacombs.content import load_content

    with tempfile.TemporaryDirectory(prefix="smartmat-fuzz-") as directory:
        root = Path(directory)
        for name, body in files:
            (root / name).write_text(body, encoding="utf-8", errors="surrogatepass")
        try:
            load_content("catacombs-3e", overlay=root)
        except ContentError as error:
            assert error.problems and str(error)
            for problem in error.problems:  # each names the file (and the key, when it is about one)
                assert problem.file and problem.message, problem


CONTENT = Target("content", overlays, check_content)


# == the dashboard ========================================================================================
PATHS = [
    "/",
    "/table/t1",
    "/table/{x}",
    "/api/table/t1/view",
    "/api/table/{x}/view",
    "/table/t1/events",
    "/table/{x}/events",
    "/qr.svg",
    "/login",
    "/logout",
    "/referee/turn",
    "/referee/console",
    "/api/command",
    "/api/{x}",
    "/static/live.js",
    "/static/{x}",
    "/{x}",
    "/referee/{x}",
]
METHODS = ["GET", "GET", "POST", "POST", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE", "PROPFIND"]
HEADER_NAMES = [
    "Last-Event-ID",
    "X-CSRF-Token",
    "Accept",
    "Content-Type",
    "Origin",
    "Referer",
    "Range",
    "If-None-Match",
    "Accept-Language",
    "X-Forwarded-For",
    "Host",
]
QUERY_NAMES = ["next", "lastEventId", "table", "a"]


@st.composite
def _http_request(draw: st.DrawFn) -> dict[str, Any]:
    path = draw(st.sampled_from(PATHS))
    if "{x}" in path:
        path = path.replace("{x}", quote(draw(text), safe="/", errors="surrogatepass") or "x")
    headers = draw(st.dictionaries(st.sampled_from(HEADER_NAMES), latin1_text(), max_size=3))
    if headers.get("Host") is not None and not re.fullmatch(r"[A-Za-z0-9.:-]+", headers["Host"]):
        headers["Host"] = "localhost"
    request: dict[str, Any] = {
        "method": draw(st.sampled_from(METHODS)),
        "path": path,
        "query_string": draw(st.dictionaries(st.sampled_from(QUERY_NAMES), latin1_text(), max_size=2)),
        "headers": headers,
        "csrf": draw(st.sampled_from(["good", "good", "none", "header-only"])),
        "cookie": draw(st.sampled_from(["keep", "keep", "keep", "junk", "tamper"])),
    }
    body = draw(st.sampled_from(["none", "json", "command", "form", "raw"]))
    if body == "json":
        request["data"] = dumps(draw(json_values)).encode("utf-8", "surrogatepass")
        request["content_type"] = "application/json"
    elif body == "command":
        command = draw(st.one_of(st.sampled_from(COMMANDS), text))
        request["data"] = dumps({"command": command, "args": draw(_args())}).encode("utf-8", "surrogatepass")
        request["content_type"] = draw(
            st.sampled_from(["application/json", "application/json; charset=latin-1"])
        )
    elif body == "form":
        request["data"] = draw(
            st.dictionaries(
                st.sampled_from(["name", "pin", "next", "csrf_token", "x"]),
                st.one_of(text, st.just("anna"), st.just("owl-bear-42")),
                max_size=4,
            )
        )
    elif body == "raw":
        request["data"] = draw(st.binary(max_size=200))
        request["content_type"] = draw(
            st.one_of(
                latin1_text(30),
                st.sampled_from(
                    [
                        "multipart/form-data; boundary=x",
                        "application/x-www-form-urlencoded",
                        "application/json",
                    ]
                ),
            )
        )
    return request


dashboard_sessions = st.tuples(st.booleans(), st.lists(_http_request(), min_size=1, max_size=5))

PIN = "owl-bear-42"
_PIN_HASH: list[str] = []


def _csrf_of(html: str) -> str | None:
    match = re.search(r'(?:data-csrf|name="csrf_token" value)="([^"]+)"', html)
    return match.group(1) if match else None


def check_dashboard(example: tuple[bool, list[dict[str, Any]]]) -> None:
    from service.publish.commands import parse_command
    from tests.dashboard.table_game import opening_board, opening_state
    from web_dashboard.security import hash_pin
    from web_dashboard.table import create_app
    from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

    logged_in, requests = example
    if not _PIN_HASH:
        _PIN_HASH.append(hash_pin(PIN))
    feed = FakeFeed("t1")
    feed.online()
    feed.snapshot(opening_state(), seq=3)
    feed.board(opening_board())
    commands = FakeCommandChannel()
    app = create_app(
        {
            "TESTING": True,
            "TABLE": "t1",
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": commands,
            "REFEREE_PIN_HASH": _PIN_HASH[0],
            "SSE_KEEPALIVE_S": 0.05,
            "LOGIN_ATTEMPTS": 1000,
        }
    )
    client = app.test_client()
    try:
        token = _csrf_of(client.get("/login").get_data(as_text=True))
        if logged_in:
            response = client.post("/login", data={"name": "anna", "pin": PIN, "csrf_token": token})
            assert response.status_code == 302
            token = _csrf_of(client.get("/referee/turn").get_data(as_text=True))
        for request in requests:
            _send(client, request, token)
            # A logged-out browser never gets a command published; the others are well-formed requests.
            for sent in commands.sent:
                assert logged_in, f"a command was published without a login: {sent}"
                parse_command(json.dumps(sent).encode())
                assert sent["actor"] == "referee:anna"
            if request["path"] == "/logout" and request["method"] == "POST":
                break  # may have logged out; later commands would be refused, not wrong
    finally:
        feed.feed.close()


def _send(client: Any, request: dict[str, Any], token: str | None) -> None:
    headers = dict(request["headers"])
    data = request.get("data")
    if request["csrf"] == "good" and token:
        headers["X-CSRF-Token"] = token
        if isinstance(data, dict):
            data = {**data, "csrf_token": token}
    if isinstance(
        data, dict
    ):  # a browser sends a form as UTF-8: no lone surrogates (raw bodies may hold anything)
        data = {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in data.items()}
    cookie_name = "smartmat_session_t1"
    if request["cookie"] == "junk":
        client.set_cookie(cookie_name, "eyJjc3JmIjoieCJ9.junk.sig")
    elif request["cookie"] == "tamper":
        cookie = client.get_cookie(cookie_name)
        if cookie is not None:
            client.set_cookie(cookie_name, cookie.value[::-1])
    response = client.open(
        request["path"],
        method=request["method"],
        query_string=request["query_string"],
        headers=headers,
        data=data,
        content_type=request.get("content_type"),
        buffered=False,
    )
    try:
        status = response.status_code
        assert status < 500, f"{request['method']} {request['path']} → {status}"
        if status >= 400 and request["path"].startswith("/api/") and request["method"] != "HEAD":
            body = json.loads(response.get_data())
            assert body["ok"] is False and isinstance(body["error"], str) and body["error"], body
        if response.mimetype == "text/event-stream":
            chunks = iter(response.response)
            for _ in range(3):  # the stream's first messages: retry, hello, and what follows
                if not next(chunks, b""):
                    break
        else:
            response.get_data()
    finally:
        response.close()


DASHBOARD = Target("dashboard", dashboard_sessions, check_dashboard)

TARGETS = (FRAMES, CAPABILITIES_JSON, COMMAND_SESSIONS, CONTENT, DASHBOARD)
