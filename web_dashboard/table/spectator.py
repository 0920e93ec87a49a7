"""Spectator pages and the live stream: read-only, no login, GET only."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for

from web_dashboard.sse import last_event_id, sse_response
from web_dashboard.table.resources import current_dashboard
from web_dashboard.table.table_feed import EventKey, parse_event_id

bp = Blueprint("spectator", __name__)


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
