"""Wake up when a file in a folder is written: Linux inotify through the C library, no extra package.

The log shipper uses it to send each record as the daemon writes it (SQLite in WAL mode appends to
``<log>-wal``), where it used to look every 0.2 s. Where inotify is not available (another system, or the
kernel's watch limit reached) :func:`watch_folder` returns None and the shipper falls back to looking
often; the caller's own safety interval catches anything a watch could miss.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import select
import struct
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

_IN_MODIFY = 0x00000002
_IN_CLOSE_WRITE = 0x00000008
_IN_MOVED_TO = 0x00000080
_IN_CREATE = 0x00000100
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
_EVENTS = _IN_MODIFY | _IN_CLOSE_WRITE | _IN_MOVED_TO | _IN_CREATE
_HEADER = struct.Struct("iIII")


class FolderWatch:
    """Calls ``on_change`` from its own thread whenever a file of ``folder`` whose name starts with
    ``prefix`` is written or created (the log, its ``-wal`` and ``-journal``; not the other files there)."""

    def __init__(self, fd: int, folder: Path, on_change: Callable[[], None], prefix: str = "") -> None:
        self._fd = fd
        self.folder = folder
        self._prefix = os.fsencode(prefix)
        self._on_change = on_change
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name=f"watch-{folder.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            ready, _, _ = select.select([self._fd, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            try:
                events = os.read(self._fd, 64 * 1024)
            except BlockingIOError:
                continue
            if any(name.startswith(self._prefix) for name in _names(events)):
                self._on_change()

    def close(self) -> None:
        os.write(self._stop_w, b"x")
        self._thread.join(timeout=2)
        for fd in (self._fd, self._stop_r, self._stop_w):
            os.close(fd)


def _names(events: bytes) -> list[bytes]:
    """The file names in a read of inotify events (struct inotify_event: wd, mask, cookie, len, name)."""
    names, offset = [], 0
    while offset + _HEADER.size <= len(events):
        _, _, _, length = _HEADER.unpack_from(events, offset)
        start = offset + _HEADER.size
        names.append(events[start : start + length].rstrip(b"\0"))
        offset = start + length
    return names


def watch_folder(folder: Path, on_change: Callable[[], None], prefix: str = "") -> FolderWatch | None:
    """A watch on the files of ``folder`` whose names start with ``prefix``, or None where inotify cannot
    be had (the reason is logged)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6", use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError) as exc:
        log.info("no inotify here (%s): the log shipper looks for new records on a timer", exc)
        return None
    add.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    fd = init(_IN_NONBLOCK | _IN_CLOEXEC)
    if fd < 0:
        log.warning(
            "inotify_init1 failed (%s): looking for new records on a timer", os.strerror(ctypes.get_errno())
        )
        return None
    if add(fd, os.fsencode(folder), _EVENTS) < 0:
        why = os.strerror(ctypes.get_errno())
        os.close(fd)
        log.warning("cannot watch %s (%s): looking for new records on a timer", folder, why)
        return None
    return FolderWatch(fd, folder, on_change, prefix)
