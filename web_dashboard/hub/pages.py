"""The hub's pages and JSON API (blueprint ``hub``, under ``/hub``).

Reading is open to everyone: the standings, live scores, the overview, exports and game logs are what a
tournament publishes. Changing anything — a sign-off, a correction, pairing a round — needs a referee of
this tournament logged in (name and PIN, the PIN's hash in the tournament file) and the session's CSRF
token; the tournament model then checks who may do what (a table referee signs off only their tables,
only a head referee corrects or pairs).
"""

from __future__ import annotations

import math
import re
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from service.eventlog import Record
from service.gamelog.replay import replay
from service.hub import exports
from service.hub.hub import Hub
from service.hub.model import Match, TournamentError
from service.hub.store import HubStoreError
from web_dashboard.hub.stream import ChangeStream
from web_dashboard.security import LoginLimiter, pin_matches
from web_dashboard.sse import TooManyStreams, last_event_id, sse_response

bp = Blueprint("hub", __name__, url_prefix="/hub", template_folder="templates", static_folder="static")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def _hub() -> Hub:
    return current_app.extensions["smartmat_hub"]  # type: ignore[no-any-return]


def _referee() -> str | None:
    name = session.get("hub_referee")
    return name if isinstance(name, str) else None


def _table_url(table: str) -> str | None:
    urls: dict[str, str] = current_app.config["HUB_TABLE_URLS"]
    template = current_app.config["HUB_TABLE_URL_TEMPLATE"]
    if table in urls:
        return urls[table]
    return template.format(table=table) if template else None


def _overview() -> dict[str, Any]:
    hub = _hub()
    tournament = hub.refresh()
    rows = hub.overview()
    current = tournament.rounds[-1] if tournament.rounds else []
    by_table = {m.table: m for m in current}
    names = {e.id: e.name for e in tournament.entrants.values()}
    for row in rows:
        match = by_table.get(row["table"])
        row["match"] = {"a": match.a, "b": match.b} if match and match.b else None
        row["signed_off"] = bool(match and (match.round, match.table) in tournament.results)
        row["dashboard"] = _table_url(row["table"])
        if match is not None and match.b is not None:
            _match_view(row, match, names)
        if tournament.is_campaign:
            party = next((e for e in tournament.entrants.values() if e.table == row["table"]), None)
            row["party"] = party.name if party else None
    return {
        "event": tournament.name,
        "format": tournament.format,
        "campaign": tournament.is_campaign,
        "round": tournament.current_round(),
        "tables": rows,
        "names": names,
        "byes": [m.a for m in current if m.b is None],
    }


def _match_view(row: dict[str, Any], match: Match, names: dict[str, str]) -> None:
    """What a table's row says about its match: whether the game on the table is the match's (a table still
    showing an earlier round's game is waiting, and its old result is not this round's), the winner its
    log reports, and the side ahead on health for a game stopped at time."""
    tag = row.get("setup_match")
    ids = [i for i in row.get("side_ids") or [] if isinstance(i, str)]
    if isinstance(tag, dict):
        plays = tag.get("round") == match.round and tag.get("table") == match.table
    elif ids and all(i in names for i in ids):
        plays = sorted(ids) == sorted([match.a, match.b or ""])
    else:
        plays = None  # a game set up without naming its entrants: the referee knows which it is
    row["plays_match"] = plays
    if plays is False:
        row.update(phase=None, outcome=None, turn=None, sides=[], doubtful_shot=False)
        row["waiting"] = f"waiting for round {match.round}'s game to start"
        return
    outcome = row.get("outcome")
    row["reported_winner"] = outcome if outcome in (match.a, match.b) else None
    health = {s.get("id"): s.get("health") for s in row.get("sides") or []}
    a, b = health.get(match.a), health.get(match.b)
    leader = None
    if isinstance(a, int) and isinstance(b, int):
        leader = "draw" if a == b else match.a if a > b else match.b
    row["leader"] = leader
    row["running"] = outcome is None and row.get("phase") not in (None, "setup", "game_over")


# ---- pages ---------------------------------------------------------------------------------------------
@bp.get("/")
def overview_page() -> str:
    data = _overview()
    referee = _referee()
    record = _hub().tournament.referees.get(referee) if referee else None
    if record is None:
        sign_tables: set[str] = set()
    elif record.role == "head":
        sign_tables = {t["table"] for t in data["tables"]}
    else:
        sign_tables = set(record.tables)
    return render_template(
        "hub_overview.html",
        data=data,
        referee=referee,
        referee_role=record.role if record else None,
        sign_tables=sign_tables,
    )


@bp.get("/standings")
def standings_page() -> str:
    hub = _hub()
    tournament = hub.refresh()
    return render_template(
        "hub_standings.html",
        event=tournament.name,
        campaign=tournament.is_campaign,
        standings=hub.standings(),
        data=_overview(),
    )


@bp.get("/login")
def login_page() -> str:
    return render_template("hub_login.html", error=None)


@bp.post("/login")
def login_submit() -> BaseResponse | tuple[str, int] | tuple[str, int, dict[str, str]]:
    limiter: LoginLimiter = current_app.extensions["smartmat_hub_limiter"]
    client = request.remote_addr or "unknown"
    name = request.form.get("name", "").strip().lower()
    pin = request.form.get("pin", "")
    # Counted before any PIN is looked at, per address and per name, in one step (parallel tries included).
    keys = (f"address:{client}", f"name:{name[:32]}")
    wait = limiter.admit(*keys)
    if wait > 0:
        seconds = math.ceil(wait)
        current_app.logger.warning("hub login rate limit hit by %s", client)
        return (
            render_template("hub_login.html", error=f"Too many wrong PINs. Try again in {seconds} s."),
            429,
            {"Retry-After": str(seconds)},
        )
    referee = _hub().refresh().referees.get(name) if _NAME.match(name) else None
    if referee is None or not pin_matches(referee.pin_hash, pin):
        current_app.logger.warning("hub login refused for %r from %s", name, client)
        return render_template("hub_login.html", error="Unknown referee or wrong PIN."), 401
    limiter.succeeded(*keys)
    session.clear()
    session["hub_referee"] = name
    current_app.logger.info("hub: referee %s logged in from %s", name, client)
    return redirect(url_for("hub.overview_page"))


@bp.post("/logout")
def logout() -> BaseResponse:
    session.clear()
    return redirect(url_for("hub.standings_page"))


# ---- reading API ---------------------------------------------------------------------------------------
@bp.get("/api/overview")
def api_overview() -> Response:
    return jsonify(_overview())


@bp.get("/api/standings")
def api_standings() -> Response:
    hub = _hub()
    tournament = hub.refresh()
    return jsonify({"event": tournament.name, "format": tournament.format, "standings": hub.standings()})


@bp.get("/api/results")
def api_results() -> Response:
    return jsonify(exports.results_rows(_hub().refresh()))


@bp.get("/api/stream")
def api_stream() -> Response:
    stream: ChangeStream = current_app.extensions["smartmat_hub_stream"]
    try:
        messages = stream.subscribe(last_event_id())
    except TooManyStreams:
        response = jsonify({"ok": False, "error": "too many live pages open; reload in a minute"})
        response.status_code = 503
        response.headers["Retry-After"] = "60"
        return response
    return sse_response(messages)


# ---- exports and games ---------------------------------------------------------------------------------
def _download(text: str, mimetype: str, name: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/export/standings.csv")
def export_standings_csv() -> Response:
    return _download(exports.to_csv(_hub().standings()), "text/csv", "standings.csv")


@bp.get("/export/results.csv")
def export_results_csv() -> Response:
    return _download(exports.to_csv(exports.results_rows(_hub().refresh())), "text/csv", "results.csv")


@bp.get("/export/tournament.json")
def export_json() -> Response:
    hub = _hub()
    return _download(exports.to_json(hub.refresh(), hub.standings()), "application/json", "tournament.json")


@bp.get("/export/tournament.trf")
def export_trf() -> Response:
    try:
        text = exports.to_trf(_hub().refresh())
    except ValueError as exc:
        abort(404, description=str(exc))
    return _download(text, "text/plain", "tournament.trf")


def _records(game: str) -> list[Record]:
    records = _hub().game_log(game)
    if not records:
        abort(404, description=f"the hub holds no game {game!r}")
    upto = request.args.get("upto", type=int)
    return [r for r in records if upto is None or r.seq <= upto]


@bp.get("/games/<game>/log.jsonl")
def game_log(game: str) -> Response:
    lines = "".join(record.to_line() + "\n" for record in _records(game))
    return _download(lines, "application/x-ndjson", f"{game}.jsonl")


@bp.get("/games/<game>/replay")
def game_replay(game: str) -> Response | tuple[Response, int]:
    records = _records(game)
    try:
        result = replay(records)
    except ValueError as exc:  # SetupError, or records these rules cannot read
        return jsonify({"ok": False, "error": f"this hub cannot replay game {game}: {exc}"}), 422
    view = result.state.public_view()
    view["seq"] = result.last_seq
    view["rejected"] = [{"seq": seq, "error": why} for seq, why in result.rejected]
    return jsonify(view)


# ---- changing the tournament (referees) ----------------------------------------------------------------
def _act(action: str) -> Response | tuple[Response, int]:
    referee = _referee()
    if referee is None:
        return jsonify({"ok": False, "error": "referee login required"}), 401
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify({"ok": False, "error": "send a JSON object"}), 400
    hub = _hub()
    by = f"referee:{referee}"
    try:
        if action == "sign-off":
            record = hub.sign_off(
                by,
                str(body.get("table", "")),
                winner=body.get("winner"),
                stopped_at_time=body.get("stopped_at_time") is True,
            )
        elif action == "correct":
            changes = {k: body[k] for k in ("winner", "rooms_cleared", "gold") if k in body}
            record = hub.correct(
                by, body.get("round"), str(body.get("table", "")), body.get("reason"), **changes
            )
        else:
            tournament = hub.refresh()
            referee_record = tournament.referees.get(referee)
            if referee_record is None or referee_record.role != "head":
                return jsonify({"ok": False, "error": "only a head referee pairs a round"}), 403
            tables = body.get("tables")
            if not isinstance(tables, list) or not all(isinstance(t, str) for t in tables):
                return jsonify({"ok": False, "error": "'tables' must be a list of table ids"}), 400
            record = hub.pair_next_round(by, tables)
    except TournamentError as exc:
        current_app.logger.warning("hub: %s by %s refused: %s", action, referee, exc)
        status = 403 if type(exc).__name__ == "NotAllowedError" else 409
        return jsonify({"ok": False, "error": str(exc)}), status
    except HubStoreError as exc:
        current_app.logger.error("hub: %s by %s not stored: %s", action, referee, exc)
        return jsonify({"ok": False, "error": f"not stored: {exc}"}), 503
    message = _in_words(record.kind, record.payload, hub.tournament)
    return jsonify({"ok": True, "seq": record.seq, "record": record.to_json(), "message": message})


def _in_words(kind: str, payload: dict[str, Any], tournament: Any) -> str:
    """The answer a referee reads beside the button: names, not ids."""

    def name(entrant: Any) -> str:
        found = tournament.entrants.get(entrant)
        return str(found.name) if found else str(entrant)

    where = f"table {payload.get('table')}, round {payload.get('round')}"
    if kind == "round":
        games = [m for m in payload["matches"] if m.get("b")]
        byes = [name(m["a"]) for m in payload["matches"] if not m.get("b")]
        text = f"Round {payload['number']} paired: {len(games)} games"
        return text + (f"; the bye goes to {', '.join(byes)}." if byes else ".")
    if "winner" in payload:
        winner = payload["winner"]
        match = tournament.match_at(payload.get("round"), payload.get("table"))
        said = "a draw" if winner == "draw" else f"{name(winner)} won"
        if match is not None and winner not in ("draw", None):
            loser = match.b if winner == match.a else match.a
            said = f"{name(winner)} beat {name(loser)}"
        when = " (stopped at time)" if payload.get("stopped_at_time") else ""
        verb = "Corrected" if kind == "correction" else "Signed off"
        return f"{verb} at {where}: {said}{when}."
    if kind == "correction":
        return f"Corrected at {where}."
    return f"Signed off at {where}: {payload.get('rooms_cleared')} rooms, {payload.get('gold')} gold."


@bp.post("/api/sign-off")
def api_sign_off() -> Response | tuple[Response, int]:
    return _act("sign-off")


@bp.post("/api/correct")
def api_correct() -> Response | tuple[Response, int]:
    return _act("correct")


@bp.post("/api/pair")
def api_pair() -> Response | tuple[Response, int]:
    return _act("pair")
