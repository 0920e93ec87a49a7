"""systemd's service notification protocol (``sd_notify(3)``), in a few lines and without a dependency.

A service started with ``Type=notify`` finds a datagram socket in ``$NOTIFY_SOCKET`` (a path, or ``@name`` in
the abstract namespace) and sends it newline-separated ``KEY=value`` lines: ``READY=1`` once it serves,
``STATUS=…`` for ``systemctl status``, ``WATCHDOG=1`` at least every ``$WATCHDOG_USEC`` microseconds when the
unit sets ``WatchdogSec=`` (systemd kills and restarts a service whose pings stop), ``STOPPING=1`` on the way
out. Outside systemd (no ``$NOTIFY_SOCKET``) every call does nothing.

``ServiceWatch`` runs the loop: it asks a check function for (healthy, status text), sends ``STATUS=`` when
the text changes and ``WATCHDOG=1`` only while healthy.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

STATUS_PERIOD_S = 2.0  # how often ServiceWatch looks when systemd asked for no watchdog


def under_systemd(environ: Mapping[str, str] | None = None) -> bool:
    """True when systemd started this process: it sets ``INVOCATION_ID`` (``NOTIFY_SOCKET`` for notify)."""
    env = os.environ if environ is None else environ
    return bool(env.get("NOTIFY_SOCKET") or env.get("INVOCATION_ID"))


class SystemdNotifier:
    def __init__(self, socket_path: str | None, watchdog_usec: int | None = None) -> None:
        self.socket_path = socket_path or None
        self.watchdog_usec = watchdog_usec if self.socket_path else None
        self._warned = False

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SystemdNotifier:
        env = os.environ if environ is None else environ
        watchdog: int | None = None
        pid = env.get("WATCHDOG_PID")
        if pid is None or pid == str(os.getpid()):  # a watchdog meant for another process is not ours
            try:
                watchdog = int(env.get("WATCHDOG_USEC", "")) or None
            except ValueError:
                watchdog = None
        return cls(env.get("NOTIFY_SOCKET"), watchdog)

    @property
    def enabled(self) -> bool:
        return self.socket_path is not None

    @property
    def watchdog_interval_s(self) -> float | None:
        """How often to send WATCHDOG=1: a third of the timeout (sd_watchdog_enabled(3): half at most)."""
        return self.watchdog_usec / 3e6 if self.watchdog_usec else None

    def notify(self, *lines: str) -> bool:
        """Send ``lines`` (``KEY=value`` each) as one datagram; False with no socket or if sending failed."""
        if self.socket_path is None or not lines:
            return False
        if any("\n" in line for line in lines):
            raise ValueError("a notification line must not contain a newline")
        address = self.socket_path
        if address.startswith("@"):
            address = "\0" + address[1:]  # the abstract namespace
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(address)
                sock.sendall("\n".join(lines).encode("utf-8"))
            return True
        except OSError as exc:
            if not self._warned:  # once: a broken socket would otherwise fill the log every few seconds
                log.warning("could not notify systemd at %s: %s", self.socket_path, exc)
                self._warned = True
            return False

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={_one_line(text)}")

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str = "stopping") -> bool:
        return self.notify("STOPPING=1", f"STATUS={_one_line(status)}")


def _one_line(text: str) -> str:
    return " ".join(text.split())


Check = Callable[[], tuple[bool, str]]
"""Returns (healthy, what to show in ``systemctl status``)."""


class ServiceWatch:
    """Reports to systemd until stopped: STATUS= when the text changes, WATCHDOG=1 only while healthy.

    A context manager; the thread is a daemon thread, so a wedged process cannot be kept alive by it, and it
    feeds the watchdog only from what ``check`` says (the caller makes ``check`` cover the parts that can
    wedge)."""

    def __init__(self, notifier: SystemdNotifier, check: Check, interval_s: float | None = None) -> None:
        self.notifier = notifier
        self.check = check
        self.interval_s = interval_s or notifier.watchdog_interval_s or STATUS_PERIOD_S
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_status: str | None = None
        self._healthy: bool | None = None

    def check_once(self) -> bool:
        try:
            healthy, status = self.check()
        except Exception:  # a broken check must starve the watchdog, not kill the thread
            log.exception("the health check failed")
            healthy, status = False, "health check failed (see the log)"
        lines = []
        if healthy and self.notifier.watchdog_usec:
            lines.append("WATCHDOG=1")
        if status != self._last_status:
            lines.append(f"STATUS={_one_line(status)}")
            self._last_status = status
        if lines:
            self.notifier.notify(*lines)
        if healthy != self._healthy:
            if not healthy:
                feed = "; the watchdog is no longer fed" if self.notifier.watchdog_usec else ""
                log.warning("not healthy: %s%s", status, feed)
            elif self._healthy is not None:
                log.info("healthy again: %s", status)
            self._healthy = healthy
        return healthy

    def _run(self) -> None:
        while not self._stop.is_set():
            self.check_once()
            self._stop.wait(self.interval_s)

    def start(self) -> ServiceWatch:
        self._thread = threading.Thread(target=self._run, name="systemd watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def __enter__(self) -> ServiceWatch:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
