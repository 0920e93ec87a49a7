"""A real Mosquitto for a test: its own config, a free port, optional users and ACL, always stopped.

    broker = start_mosquitto(tmp_path, users={"referee": "pw"}, acl=ACL_TEXT_OR_PATH)
    try:
        ... connect to broker.host, broker.port (or broker.url("referee", "pw")) ...
        broker.stop(); broker.start()     # same port: a broker restart for reconnect tests
    finally:
        broker.stop()

or ``with start_mosquitto(tmp_path) as broker: ...``. The ``mosquitto_broker`` pytest fixture below gives an
anonymous broker that is stopped after the test whatever happens; import it into a conftest.py to use it.
"""

from __future__ import annotations

import ctypes
import getpass
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


def die_with_parent() -> None:
    # If the test process is killed (e.g. a hard timeout), the kernel stops its brokers too.
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class MosquittoBroker:
    host: str
    port: int
    config: Path
    log_path: Path
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def url(self, username: str | None = None, password: str | None = None) -> str:
        credentials = f"{username}:{password}@" if username is not None else ""
        return f"mqtt://{credentials}{self.host}:{self.port}"

    @property
    def pid(self) -> int | None:
        """The running broker's process id (a fault stops and continues it), None when it is not running."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout_s: float = 10.0) -> None:
        if self.running:
            return
        log = self.log_path.open("ab")
        self._process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=log, preexec_fn=die_with_parent
        )
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"mosquitto exited at start-up:\n{self.log_path.read_text()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout_s} s")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)

    def __enter__(self) -> MosquittoBroker:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def write_password_file(path: Path, users: dict[str, str]) -> None:
    # mosquitto_passwd -U hashes a plain "user:password" file in place, so no password shows in `ps`.
    path.write_text("".join(f"{user}:{password}\n" for user, password in users.items()))
    path.chmod(0o600)
    subprocess.run([MOSQUITTO_PASSWD, "-U", str(path)], check=True, capture_output=True)


def start_mosquitto(
    tmp_path: Path,
    users: dict[str, str] | None = None,
    acl: str | Path | None = None,
    port: int | None = None,
) -> MosquittoBroker:
    """Start mosquitto on 127.0.0.1. With ``users`` anonymous clients are refused; ``acl`` is ACL text or a
    path to an ACL file."""
    workdir = Path(tmp_path) / f"mosquitto-{port or 'auto'}-{time.monotonic_ns()}"
    workdir.mkdir(parents=True)
    port = port or free_port()
    lines = [
        f"listener {port} 127.0.0.1",
        "persistence false",
        "log_type error",
        "log_type warning",
        f"user {getpass.getuser()}",  # stay the current user even as root, so it can read these files
    ]
    if users is not None:
        write_password_file(workdir / "passwords", users)
        lines += ["allow_anonymous false", f"password_file {workdir / 'passwords'}"]
    else:
        lines.append("allow_anonymous true")
    if acl is not None:
        acl_path = Path(acl) if isinstance(acl, Path) else workdir / "acl"
        if not isinstance(acl, Path):
            acl_path.write_text(acl)
        lines.append(f"acl_file {acl_path}")
    config = workdir / "mosquitto.conf"
    config.write_text("\n".join(lines) + "\n")
    broker = MosquittoBroker("127.0.0.1", port, config, workdir / "mosquitto.log")
    broker.start()
    return broker


@pytest.fixture
def mosquitto_broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    """An anonymous mosquitto for one test, stopped afterwards even if the test fails."""
    broker = start_mosquitto(tmp_path)
    try:
        yield broker
    finally:
        broker.stop()
