"""The frame every app of the web server shares: the table's dashboard, the hub's pages, or both in one.

:func:`new_app` makes the Flask app with the one security layer (``security.py``): signed session cookies
(HttpOnly, SameSite=Strict, Secure behind TLS), the CSRF check on every request that is not GET/HEAD/OPTIONS,
the Content-Security-Policy and the other headers, and errors answered as JSON under an API path. The
blueprints (``table``, ``hub``) are registered on it by their own factories, which also name what must be
closed when the server stops (:func:`on_stop`); :func:`close_app` closes it all (the SSE streams first).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, cast

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from web_dashboard.security import check_csrf, csrf_token

log = logging.getLogger(__name__)

API_PREFIXES = ("/api/", "/hub/api/")
_CLOSERS = "smartmat_closers"


def new_app(
    config: dict[str, Any] | None = None, cookie_name: str = "smartmat_session", home: str | None = None
) -> Flask:
    """A Flask app with the security layer. ``config`` may hold ``SECRET_KEY`` (else a fresh one per start:
    referees log in again after a restart) and ``BEHIND_TLS`` (the session cookie is then Secure). ``home``
    is the package whose ``templates/`` and ``static/`` (at ``/static/``) are the app's own: the table's,
    when a table is served; the hub's blueprint brings its own (``/hub/static/``)."""
    if home is None:
        app = Flask("web_dashboard", static_folder=None, template_folder=None)
    else:
        app = Flask(home)
    if config:
        app.config.from_mapping(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=bool(app.config.get("BEHIND_TLS")),
        SESSION_COOKIE_NAME=cookie_name,
    )
    app.extensions[_CLOSERS] = []
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _http_error)
    return app


def on_stop(app: Flask, close: Callable[[], None]) -> None:
    """Call ``close`` when the server stops (in the order registered)."""
    cast(list[Callable[[], None]], app.extensions[_CLOSERS]).append(close)


def close_app(app: Flask) -> None:
    """End every SSE stream and close every connection the app's blueprints opened."""
    for close in cast(list[Callable[[], None]], app.extensions.get(_CLOSERS, [])):
        try:
            close()
        except Exception:
            log.exception("closing the web app")


def _security_headers(response: Response) -> Response:
    # Everything is served from this host: no CDN, no inline script.
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def _http_error(error: HTTPException) -> Any:
    code = error.code or 500
    description = error.description
    if isinstance(error, RequestEntityTooLarge):  # werkzeug's own text names no size
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        description = f"the request body is larger than the {limit} bytes this dashboard accepts"
    if code >= 400 and code != 404:
        log.info("%s %s → %d: %s", request.method, request.path, code, description)
    if request.path.startswith(API_PREFIXES) or request.accept_mimetypes.best == "application/json":
        response = jsonify({"ok": False, "error": description})
    else:
        response = Response(f"{code} {error.name}: {description}\n", mimetype="text/plain")
    response.status_code = code
    if code == 405 and (allowed := error.get_headers()):
        for name, value in allowed:
            if name == "Allow":
                response.headers["Allow"] = value
    return response
