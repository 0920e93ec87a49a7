"""The referee's PIN, login rate limit, CSRF tokens and the rule that only a logged-in referee changes state.

The PIN (or passphrase) is set at install with ``smartmat dashboard set-pin`` or the ``REFEREE_PIN_HASH``
config key; only its werkzeug scrypt hash is stored. Sessions are Flask's signed cookies (HttpOnly,
SameSite=Strict, Secure behind TLS). Every request that is not GET/HEAD/OPTIONS must carry the session's
CSRF token in the ``X-CSRF-Token`` header or a ``csrf_token`` form field.
"""

from __future__ import annotations

import functools
import hmac
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import abort, current_app, g, jsonify, redirect, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MIN_PIN_LENGTH = 4
F = TypeVar("F", bound=Callable[..., Any])


class PinError(ValueError):
    """A PIN that is too weak or a PIN file that cannot be read."""


def hash_pin(pin: str) -> str:
    if len(pin) < MIN_PIN_LENGTH:
        raise PinError(f"the referee PIN must have at least {MIN_PIN_LENGTH} characters")
    return generate_password_hash(pin, method="scrypt")


def write_pin_file(path: Path, pin: str) -> None:
    """Store the hash with owner-only permissions; the plain PIN is never written.

    The new hash replaces the old file in one rename, so a refused PIN or a crash keeps the previous one."""
    hashed = hash_pin(pin)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(hashed + "\n")
    os.replace(temporary, path)


def read_pin_file(path: Path) -> str:
    try:
        value = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise PinError(f"cannot read the referee PIN file {path}: {exc.strerror}") from None
    if not value.startswith(("scrypt:", "pbkdf2:")):
        raise PinError(f"{path} does not hold a PIN hash; run `smartmat dashboard set-pin`")
    return value


def pin_matches(stored_hash: str | None, attempt: str) -> bool:
    if not stored_hash:
        return False
    return check_password_hash(stored_hash, attempt)


class LoginLimiter:
    """At most ``attempts`` failed logins per client in a sliding ``window_s``; in memory, per process."""

    def __init__(
        self, attempts: int = 5, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic
    ):
        self.attempts = attempts
        self.window_s = window_s
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds until this client may try again; 0 when it may try now."""
        with self._lock:
            failures = self._recent(client)
            if len(failures) < self.attempts:
                return 0.0
            return max(0.0, failures[0] + self.window_s - self.clock())

    def failed(self, client: str) -> None:
        with self._lock:
            self._recent(client).append(self.clock())

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)

    def _recent(self, client: str) -> deque[float]:
        failures = self._failures.setdefault(client, deque())
        while failures and failures[0] <= self.clock() - self.window_s:
            failures.popleft()
        if len(self._failures) > 10_000:  # many distinct clients: forget the idle ones
            for key in [k for k, v in self._failures.items() if not v and k != client]:
                del self._failures[key]
        return failures


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return cast(str, token)


def check_csrf() -> None:
    """``before_request`` hook: refuse any state-changing request without the session's token."""
    if request.method in SAFE_METHODS:
        return
    expected = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    # Compared as bytes: compare_digest refuses str with non-ASCII characters (a forged header may hold any).
    matches = bool(expected and sent) and hmac.compare_digest(
        str(expected).encode("utf-8", "surrogatepass"), sent.encode("utf-8", "surrogatepass")
    )
    if not matches:
        current_app.logger.warning("refused %s %s: missing or wrong CSRF token", request.method, request.path)
        abort(400, description="missing or wrong CSRF token; reload the page and try again")


def current_referee() -> str | None:
    return cast("str | None", session.get("referee"))


def referee_required(view: F) -> F:
    """Pages redirect to the login form; API calls get 401 with a JSON error."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        referee = current_referee()
        if referee is None:
            if request.method in SAFE_METHODS and not request.path.startswith("/api/"):
                return redirect(url_for("auth.login", next=request.path))
            response = jsonify({"ok": False, "error": "referee login required"})
            response.status_code = 401
            return response
        g.referee = referee
        return view(*args, **kwargs)

    return cast(F, wrapped)
