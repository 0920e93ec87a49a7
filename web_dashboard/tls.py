"""A local self-signed certificate for the dashboard's HTTPS (``smartmat dashboard make-cert``).

Made with the ``openssl`` command (Debian's ``openssl`` package; the ``cryptography`` package is not among
smartmat's locked dependencies). The key is an ECDSA P-256 key, cheap for a Raspberry Pi to use at every
handshake; the certificate names the machine as phones will reach it (``subjectAltName``: host name,
``<host>.local``, ``localhost`` and the addresses it has now, plus any ``--name``), is valid for 825 days
(the most iOS accepts) and is for server authentication only. Referees check it by its SHA-256 fingerprint
(docs/security.md).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from web_dashboard.server import certificate_fingerprint

CERT_NAME = "cert.pem"
KEY_NAME = "key.pem"
DEFAULT_DAYS = 825


class CertificateError(RuntimeError):
    """The certificate could not be made (no openssl, a bad name, openssl failed)."""


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path
    fingerprint: str
    names: tuple[str, ...]


def default_names() -> list[str]:
    """How phones on the table's network may reach this machine: its names and current addresses."""
    host = socket.gethostname().split(".")[0] or "smartmat"
    names = [host, f"{host}.local", "localhost", "127.0.0.1", "::1"]
    try:  # Debian's `hostname -I`: every address of every interface, no network traffic
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False)
        names += found.stdout.split()
    except (OSError, subprocess.SubprocessError):
        pass
    unique: list[str] = []
    for name in names:
        if name and name not in unique and not name.startswith("fe80:"):
            unique.append(name)
    return unique


def _san(names: list[str]) -> str:
    entries = []
    for name in names:
        try:
            entries.append(f"IP:{ipaddress.ip_address(name)}")
        except ValueError:
            if not all(part and all(c.isalnum() or c == "-" for c in part) for part in name.split(".")):
                raise CertificateError(f"{name!r} is neither a host name nor an IP address") from None
            entries.append(f"DNS:{name.lower()}")
    return ",".join(entries)


def make_certificate(
    directory: Path, names: list[str] | None = None, days: int = DEFAULT_DAYS, table: str = "table"
) -> Certificate:
    """Write ``cert.pem`` (0644) and ``key.pem`` (0600) into ``directory``, replacing any there."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise CertificateError("making a certificate needs the openssl command (apt-get install openssl)")
    names = names or default_names()
    san = _san(names)
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory, prefix=".make-cert-") as work:
        cert = Path(work) / CERT_NAME
        key = Path(work) / KEY_NAME
        command = [
            openssl, "req", "-x509", "-new", "-nodes",
            "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-keyout", str(key), "-out", str(cert), "-days", str(days), "-sha256",
            "-subj", f"/O=smartmat/CN={f'smartmat {table}'[:64]}",
            "-addext", f"subjectAltName={san}",
            "-addext", "basicConstraints=critical,CA:FALSE",
            "-addext", "keyUsage=critical,digitalSignature",
            "-addext", "extendedKeyUsage=serverAuth",
        ]  # fmt: skip
        old_umask = os.umask(0o077)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        finally:
            os.umask(old_umask)
        if done.returncode != 0:
            raise CertificateError(f"openssl failed: {done.stderr.strip() or done.returncode}")
        key.chmod(0o600)
        cert.chmod(0o644)
        os.replace(key, directory / KEY_NAME)
        os.replace(cert, directory / CERT_NAME)
    cert_path = directory / CERT_NAME
    return Certificate(cert_path, directory / KEY_NAME, certificate_fingerprint(cert_path), tuple(names))
