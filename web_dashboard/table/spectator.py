"""Spectator pages and the live stream: read-only, no login, GET only."""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from importlib import resources
from urllib.parse import urlsplit

import yaml
from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for

from service.games import definitions
from web_dashboard.sse import last_event_id, sse_response
from web_dashboard.table.resources import current_dashboard
from web_dashboard.table.table_feed import EventKey, parse_event_id

bp = Blueprint("spectator", __name__)
log = logging.getLogger(__name__)

# The rule sets whose cards are printed in another language; their content files give each card's
# ``english_name`` beside the printed ``name`` (a game's ``translated_content``, service/games/definition.py).
TRANSLATED_RULESETS = tuple(game.name for game in definitions() if game.translated_content)


@lru_cache(maxsize=1)
def english_names() -> dict[str, dict[str, str]]:
    """Rule set -> printed name -> English name, from the shipped content; a file that cannot be read is
    logged and left out (its names stay as printed)."""
    found: dict[str, dict[str, str]] = {}
    for ruleset in TRANSLATED_RULESETS:
        names: dict[str, str] = {}
        for entry in resources.files("content").joinpath(ruleset).iterdir():
            if not entry.name.endswith(".yaml"):
                continue
            try:
                data = yaml.safe_load(entry.read_text(encoding="utf-8")) or {}
                for records in data.values():
                    for record in (records or {}).values():
                        if isinstance(record, dict) and record.get("english_name") and record.get("name"):
                            names[str(record["name"])] = str(record["english_name"])
            except (OSError, yaml.YAMLError, AttributeError) as exc:
                log.warning("content/%s/%s: English names not read (%s)", ruleset, entry.name, exc)
        found[ruleset] = names
    return found


@bp.app_context_processor
def _english_names() -> dict[str, str]:
    """Every page gets the English names of cards printed in another language (static/live.js uses them)."""
    return {"english_names_json": json.dumps(english_names(), separators=(",", ":"), sort_keys=True)}


def _check_table(table: str) -> None:
    if table != current_dashboard().table:
        abort(404, description=f"this dashboard shows table {current_dashboard().table!r}, not {table!r}")


@bp.get("/")
def index() -> str:
    return render_template("spectator.html", table=current_dashboard().table)


@bp.get("/table/<table>")
def table_page(table: str) -> str:
    _check_table(table)
    return render_template("spectator.html", table=table)


@bp.get("/table/<table>/tv")
def tv(table: str) -> str:
    """Full-screen landscape view for a screen beside the table (or a streaming browser source)."""
    _check_table(table)
    return render_template("tv.html", table=table)


@bp.get("/api/table/<table>/view")
def view(table: str) -> Response:
    _check_table(table)
    dashboard = current_dashboard()
    return jsonify({**dashboard.feed.view(), "events": dashboard.feed.recent_events()})


@bp.get("/table/<table>/events")
def events(table: str) -> Response:
    """Server-Sent Events; ``id`` is the event-log seq, so ``Last-Event-ID`` resumes with no gap or repeat."""
    _check_table(table)
    raw = last_event_id()
    last: EventKey | None = None
    if raw:
        try:
            last = parse_event_id(raw)
        except ValueError as exc:
            abort(400, description=str(exc))
    dashboard = current_dashboard()
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])
    return sse_response(dashboard.feed.stream(last, keepalive_s=keepalive))


@bp.get("/qr.svg")
def qr_code() -> Response:
    """The spectator page's address as a QR code, drawn here (no external service)."""
    import io

    import segno

    dashboard = current_dashboard()
    base = current_app.config["PUBLIC_URL"] or _spectator_base()
    address = base.rstrip("/") + url_for("spectator.table_page", table=dashboard.table)
    buffer = io.BytesIO()
    segno.make(address, error="m").save(
        buffer, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, title=f"Open {address}"
    )
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["X-Spectator-URL"] = address
    return response


def _spectator_base() -> str:
    """The address the referee's browser used; under TLS, the plain-HTTP spectator listener on that host
    (spectators then need not accept the table's self-signed certificate)."""
    plain_port = current_app.config.get("SPECTATOR_HTTP_PORT")
    if not plain_port or request.scheme != "https":
        return request.host_url
    hostname = urlsplit(request.host_url).hostname or "localhost"
    if ":" in hostname:
        hostname = f"[{hostname}]"
    return f"http://{hostname}:{plain_port}/"
