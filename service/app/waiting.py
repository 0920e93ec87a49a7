"""Waiting for the end of a program that serves until it is stopped."""

from __future__ import annotations

import signal
import threading


def wait_until_stopped(seconds: float | None) -> None:
    stop = threading.Event()
    # SIGINT is handled explicitly, like SIGTERM: a process started in the background by a non-interactive
    # shell inherits SIGINT ignored, and Python then raises no KeyboardInterrupt, so systemd's
    # KillSignal=SIGINT (or a script's kill -INT) would never stop the table.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        stop.wait(seconds)
    except KeyboardInterrupt:
        pass
