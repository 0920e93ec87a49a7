"""The address a phone on the same network opens: given (``--public-url``), or this machine's LAN address.

Finding the LAN address sends nothing: ``connect`` on a UDP socket only asks the kernel which interface would
route to the address named (a documentation address, RFC 5737), and no datagram is ever written.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

# TEST-NET-1 (RFC 5737): never assigned to a host, so a route to it is the default route, and nothing answers.
_ROUTE_PROBE = ("192.0.2.1", 9)
_ANY_HOST = ("0.0.0.0", "::", "")


class PublicUrlError(ValueError):
    """A ``--public-url`` that a phone could not open."""


def check_public_url(url: str) -> str:
    """The URL as a base (ending in "/"), or a clear refusal."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PublicUrlError(f"--public-url {url!r}: expected http://HOST[:PORT]/ or https://HOST[:PORT]/")
    if parts.query or parts.fragment:
        raise PublicUrlError(f"--public-url {url!r}: a base address takes no ?query or #fragment")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/"


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def _route_probe() -> str | None:
    """The source address the kernel would use for the default route; ``connect`` on UDP sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_ROUTE_PROBE)
        return str(probe.getsockname()[0])


def _host_addresses() -> list[str]:
    """The addresses this machine's own name resolves to (from /etc/hosts or the local resolver)."""
    infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_DGRAM)
    return [str(info[4][0]) for info in infos]


def lan_address(
    route_probe: Callable[[], str | None] = _route_probe,
    host_addresses: Callable[[], list[str]] = _host_addresses,
) -> str | None:
    """This machine's address on the local network, or None when it has none but the loopback."""
    try:
        routed = route_probe()
    except OSError:  # no route at all (no network, or a network namespace with only the loopback)
        routed = None
    if routed and _usable(routed):
        return routed
    try:
        candidates = host_addresses()
    except OSError:
        candidates = []
    return next((address for address in candidates if _usable(address)), None)


def _host_for_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def public_base(
    public_url: str | None,
    bound_host: str,
    scheme: str,
    port: int,
    find_lan: Callable[[], str | None] = lan_address,
) -> tuple[str, str | None]:
    """(base URL to print and encode in QR codes, a warning or None).

    Given a public URL, that. Listening on every interface, this machine's LAN address; on one address, that
    address. Only when no LAN address exists (or the dashboard listens on the loopback only) is it localhost,
    with a warning that a phone cannot reach it.
    """
    if public_url:
        return check_public_url(public_url), None
    if bound_host in _ANY_HOST:
        found = find_lan()
        if found:
            return f"{scheme}://{_host_for_url(found)}:{port}/", None
        return (
            f"{scheme}://localhost:{port}/",
            "no LAN address found: phones cannot reach this machine (give --public-url)",
        )
    if not _usable(bound_host):
        return (
            f"{scheme}://{_host_for_url(bound_host)}:{port}/",
            f"the dashboard listens on {bound_host} only: phones cannot reach it "
            "(--dashboard-host 0.0.0.0 serves the network)",
        )
    return f"{scheme}://{_host_for_url(bound_host)}:{port}/", None
