"""What a phone on the table's network opens: `smartmat run --public-url`, or this machine's LAN address.

No test sends anything to a non-loopback address: the route probe is replaced, or (once) run for real, where a
UDP ``connect`` only asks the kernel for a route and writes no datagram.
"""

from __future__ import annotations

import ipaddress
import socket

import pytest

from service.app import public_address
from service.app.public_address import PublicUrlError, check_public_url, lan_address, public_base


def test_the_routed_address_is_the_lan_address() -> None:
    assert lan_address(lambda: "192.168.1.20", lambda: ["127.0.1.1"]) == "192.168.1.20"


def test_a_loopback_route_falls_back_to_the_machines_own_name_and_never_to_localhost() -> None:
    assert lan_address(lambda: "127.0.0.1", lambda: ["127.0.1.1", "10.0.0.7"]) == "10.0.0.7"


def test_no_route_and_only_loopback_names_mean_no_lan_address() -> None:
    def no_route() -> str | None:
        raise OSError("Network is unreachable")

    assert lan_address(no_route, lambda: ["127.0.1.1"]) is None
    assert lan_address(no_route, lambda: ["169.254.3.3"]) is None  # link-local: not what a phone joins


def test_the_route_probe_connects_a_udp_socket_and_never_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    class Recorder:
        def __init__(self, family: int, kind: int) -> None:
            assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)

        def __enter__(self) -> Recorder:
            return self

        def __exit__(self, *exc: object) -> None:
            calls.append("close")

        def connect(self, address: tuple[str, int]) -> None:
            calls.append(f"connect {address[0]}")

        def getsockname(self) -> tuple[str, int]:
            return ("192.168.4.2", 40000)

        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"the probe must not call {name}")  # send, sendto, ...

    monkeypatch.setattr(public_address.socket, "socket", Recorder)
    assert lan_address(host_addresses=lambda: []) == "192.168.4.2"
    assert calls == ["connect 192.0.2.1", "close"]


def test_on_this_machine_the_lan_address_is_never_the_loopback() -> None:
    found = lan_address()  # a UDP connect: no packet leaves
    if found is None:  # a machine without a network: the fakes above cover None (no route, loopback names)
        pytest.skip("this machine has no address but the loopback")
    assert not ipaddress.ip_address(found).is_loopback


def test_listening_everywhere_the_printed_base_is_the_lan_address() -> None:
    assert public_base(None, "0.0.0.0", "http", 8131, lambda: "192.168.1.20") == (
        "http://192.168.1.20:8131/",
        None,
    )


def test_without_a_lan_address_localhost_comes_with_a_warning() -> None:
    base, warning = public_base(None, "0.0.0.0", "http", 8131, lambda: None)
    assert base == "http://localhost:8131/"
    assert warning is not None and "--public-url" in warning


def test_a_dashboard_on_the_loopback_only_says_phones_cannot_reach_it() -> None:
    base, warning = public_base(None, "127.0.0.1", "http", 8131, lambda: "192.168.1.20")
    assert base == "http://127.0.0.1:8131/"
    assert warning is not None and "0.0.0.0" in warning


def test_a_given_public_url_wins_and_is_made_a_base() -> None:
    assert public_base("https://mat.example.org/demo", "0.0.0.0", "http", 8131, lambda: "10.0.0.2") == (
        "https://mat.example.org/demo/",
        None,
    )


@pytest.mark.parametrize("bad", ["mat.example.org", "ftp://mat.example.org/", "http:///x", "http://h/?a=1"])
def test_a_public_url_a_phone_could_not_open_is_refused(bad: str) -> None:
    with pytest.raises(PublicUrlError, match="--public-url"):
        check_public_url(bad)
