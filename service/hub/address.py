"""The address phones and the tables reach the hub at: ``--public-url``, or the machine's own LAN address.

``hub serve`` listens on every interface by default; 127.0.0.1 in a printed URL is useless to a phone. The
LAN address is the one the machine would send from toward a private network: a UDP socket is "connected"
to an address of the private 10/8 range, which picks a route and sends nothing, and its own end is read.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

ANY = ("0.0.0.0", "", "::")


class AddressError(ValueError):
    """A ``--public-url`` that a phone could not open."""


def lan_address() -> str | None:
    """The machine's address on its local network, or None when it has none (then 127.0.0.1 is all)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))  # UDP: chooses a route, sends no packet
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def public_url(host: str, port: int, given: str | None = None, lan: str | None = None) -> str:
    """What the hub prints and links with: ``given`` (checked), else the listening host, else the LAN's."""
    if given:
        parts = urlsplit(given)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise AddressError(f"--public-url {given!r} must be like http://192.168.1.20:8090")
        return given.rstrip("/")
    if host not in ANY:
        return f"http://{host}:{port}"
    return f"http://{lan or lan_address() or '127.0.0.1'}:{port}"


def table_links(pairs: list[str]) -> dict[str, str]:
    """``["t1=http://10.0.0.5:8081/", …]`` → {table: url}: tables on one host behind different ports."""
    links: dict[str, str] = {}
    for pair in pairs:
        table, sep, url = pair.partition("=")
        parts = urlsplit(url)
        if not sep or not table or parts.scheme not in ("http", "https") or not parts.hostname:
            raise AddressError(f"--table-link {pair!r} must be TABLE=URL, e.g. t1=http://10.0.0.5:8081/")
        links[table] = url
    return links
