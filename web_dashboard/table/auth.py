"""Referee login and logout."""

from __future__ import annotations

import math
import re

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from web_dashboard.security import pin_matches, referee_sessions
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("auth", __name__)
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def _safe_next(target: str | None) -> str:
    # Only local paths: a crafted ?next= must not send the referee to another site.
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("controller.turn")


def _login_page(next_page: str, error: str | None, name: str = "") -> str:
    # The name typed stays in its field after a wrong PIN; only the PIN is asked again.
    return render_template(
        "login.html", table=current_dashboard().table, next=next_page, error=error, name=name
    )


@bp.get("/login")
def login() -> str:
    return _login_page(_safe_next(request.args.get("next")), None)


@bp.post("/login")
def login_submit() -> BaseResponse | tuple[str, int] | tuple[str, int, dict[str, str]]:
    dashboard = current_dashboard()
    client = request.remote_addr or "unknown"
    next_page = _safe_next(request.form.get("next"))
    name = request.form.get("name", "").strip().lower()
    pin = request.form.get("pin", "")
    if not _NAME.match(name):
        return _login_page(next_page, "Name: lower-case letters, digits and '-', up to 32.", name[:32]), 400
    if dashboard.pin_hash is None:
        return _login_page(next_page, "No referee PIN is set. Run: smartmat dashboard set-pin", name), 503
    # Counted before the PIN is looked at, per address and per name, in one step: parallel tries cannot all
    # be checked while the first are (docs/security.md).
    keys = (f"address:{client}", f"name:{name}")
    wait = dashboard.limiter.admit(*keys)
    if wait > 0:
        current_app.logger.warning("login rate limit hit by %s (name %s)", client, name)
        seconds = math.ceil(wait)
        message = f"Too many wrong PINs. Try again in {seconds} s."
        return _login_page(next_page, message, name), 429, {"Retry-After": str(seconds)}
    if not pin_matches(dashboard.pin_hash, pin):
        current_app.logger.warning("wrong referee PIN from %s (name %s)", client, name)
        return _login_page(next_page, "Wrong PIN.", name), 401
    dashboard.limiter.succeeded(*keys)
    referee_sessions().end(session.get("sid"))
    session.clear()  # a new session id on login: no fixation
    session["sid"] = referee_sessions().begin(name)
    session.permanent = False
    current_app.logger.info("referee %s logged in from %s", name, client)
    return redirect(next_page)


@bp.post("/logout")
def logout() -> BaseResponse:
    referee_sessions().end(session.get("sid"))  # a copy of the cookie is worth nothing from now on
    session.clear()
    return redirect(url_for("spectator.index"))
