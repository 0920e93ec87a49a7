"""Referee login and logout."""

from __future__ import annotations

import math
import re

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from web_dashboard.resources import current_dashboard
from web_dashboard.security import pin_matches

bp = Blueprint("auth", __name__)
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def _safe_next(target: str | None) -> str:
    # Only local paths: a crafted ?next= must not send the referee to another site.
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("controller.turn")


@bp.get("/login")
def login() -> str:
    return render_template("login.html", next=_safe_next(request.args.get("next")), error=None)


@bp.post("/login")
def login_submit() -> BaseResponse | tuple[str, int] | tuple[str, int, dict[str, str]]:
    dashboard = current_dashboard()
    client = request.remote_addr or "unknown"
    next_page = _safe_next(request.form.get("next"))
    wait = dashboard.limiter.retry_after(client)
    if wait > 0:
        current_app.logger.warning("login rate limit hit by %s", client)
        seconds = math.ceil(wait)
        message = f"Too many wrong PINs. Try again in {seconds} s."
        return (
            render_template("login.html", next=next_page, error=message),
            429,
            {"Retry-After": str(seconds)},
        )
    name = request.form.get("name", "").strip().lower()
    pin = request.form.get("pin", "")
    if not _NAME.match(name):
        return render_template(
            "login.html", next=next_page, error="Name: lower-case letters, digits and '-', up to 32."
        ), 400
    if dashboard.pin_hash is None:
        return render_template(
            "login.html", next=next_page, error="No referee PIN is set. Run: smartmat dashboard set-pin"
        ), 503
    if not pin_matches(dashboard.pin_hash, pin):
        dashboard.limiter.failed(client)
        current_app.logger.warning("wrong referee PIN from %s (name %s)", client, name)
        return render_template("login.html", next=next_page, error="Wrong PIN."), 401
    dashboard.limiter.succeeded(client)
    session.clear()  # a new session id on login: no fixation
    session["referee"] = name
    session.permanent = False
    current_app.logger.info("referee %s logged in from %s", name, client)
    return redirect(next_page)


@bp.post("/logout")
def logout() -> BaseResponse:
    session.clear()
    return redirect(url_for("spectator.index"))
