"""The referee's PIN, login rate limit, CSRF tokens and the rule that only a logged-in referee changes state.

The PIN (or passphrase) is set at install with ``smartmat dashboard set-pin`` or the ``REFEREE_PIN_HASH``
config key; only its werkzeug scrypt hash is stored. Sessions are Flask's signed cookies (HttpOnly,
SameSite=Strict, Secure behind TLS) naming a session the server keeps (``RefereeSessions``), which logging out
ends. Every request that is not GET/HEAD/OPTIONS must carry the session's
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

# The PIN hashing is shared with the hub's commands (service/common/pins.py); the pages import it from here.
from service.common.pins import MIN_PIN_LENGTH as MIN_PIN_LENGTH
from service.common.pins import PinError as PinError
from service.common.pins import hash_pin as hash_pin
from service.common.pins import pin_matches as pin_matches

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
F = TypeVar("F", bound=Callable[..., Any])


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


class LoginLimiter:
    """At most ``attempts`` PIN checks per key (an address, an account) in a sliding ``window_s``.

    A check is counted when it is admitted, before the PIN is looked at, and admission is atomic: tries sent
    in parallel cannot all pass while the first ones are still being checked. In memory, per process.
    """

    def __init__(
        self, attempts: int = 5, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic
    ):
        self.attempts = attempts
        self.window_s = window_s
        self.clock = clock
        self._checks: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def admit(self, *keys: str) -> float:
        """0 when a PIN check may be made now for every key (it is then counted against each); else the
        seconds until one may."""
        with self._lock:
            now = self.clock()
            wait = max((self._wait(key, now) for key in keys), default=0.0)
            if wait > 0:
                return wait
            for key in keys:
                self._checks.setdefault(key, deque()).append(now)
            return 0.0

    def retry_after(self, *keys: str) -> float:
        """Seconds until a check may be made for every key; 0 when it may be now (nothing is counted)."""
        with self._lock:
            now = self.clock()
            return max((self._wait(key, now) for key in keys), default=0.0)

    def succeeded(self, *keys: str) -> None:
        """The right PIN: these keys start afresh."""
        with self._lock:
            for key in keys:
                self._checks.pop(key, None)

    def _wait(self, key: str, now: float) -> float:
        checks = self._checks.get(key)
        if checks is None:
            if len(self._checks) > 10_000:  # many distinct clients: forget the idle ones
                for idle in [k for k, v in self._checks.items() if not v or v[-1] <= now - self.window_s]:
                    del self._checks[idle]
            return 0.0
        while checks and checks[0] <= now - self.window_s:
            checks.popleft()
        if len(checks) < self.attempts:
            return 0.0
        return max(0.0, checks[0] + self.window_s - now) or 1e-3


class RefereeSessions:
    """The referee sessions that are live, kept here and not only in the signed cookie.

    The cookie carries a random session id; logging out ends that id here, so a copy of the cookie taken
    before the logout is worth nothing after it. At most ``limit`` sessions: the oldest ends first.
    """

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit
        self._live: dict[str, str] = {}  # session id -> referee name, oldest first
        self._lock = threading.Lock()

    def begin(self, name: str) -> str:
        session_id = secrets.token_urlsafe(32)
        with self._lock:
            self._live[session_id] = name
            while len(self._live) > self.limit:
                del self._live[next(iter(self._live))]
        return session_id

    def who(self, session_id: object) -> str | None:
        if not isinstance(session_id, str):
            return None
        with self._lock:
            return self._live.get(session_id)

    def end(self, session_id: object) -> None:
        if isinstance(session_id, str):
            with self._lock:
                self._live.pop(session_id, None)


def referee_sessions() -> RefereeSessions:
    return cast(RefereeSessions, current_app.extensions["smartmat_sessions"])


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
    """The referee of this request's session, if that session is still live on the server."""
    return referee_sessions().who(session.get("sid"))


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
