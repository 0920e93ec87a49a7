"""Addresses phones can reach (docs/tournaments.md, "The hub"): ``hub serve`` prints and links with
``--public-url``, or the machine's LAN address when it listens on every interface; each table's dashboard
link may carry its own host and port."""

from __future__ import annotations

import ipaddress
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from service.hub import address
from service.hub.address import AddressError, lan_address, public_url, table_links
from tests.helpers.broker import free_port
from tests.hub.builders import new_hub
from web_dashboard.hub import create_hub_app


def test_the_printed_address_is_the_public_one_then_the_lans() -> None:
    assert public_url("0.0.0.0", 8090, "http://192.168.1.20:8090/") == "http://192.168.1.20:8090"
    assert public_url("0.0.0.0", 8090, lan="192.168.1.7") == "http://192.168.1.7:8090"
    assert public_url("10.0.0.2", 8090) == "http://10.0.0.2:8090"  # listening on one address: that one
    with pytest.raises(AddressError, match="must be like http://"):
        public_url("0.0.0.0", 8090, "192.168.1.20:8090")


class RoutedTo:
    """A UDP socket whose route goes out through ``address`` (None: there is no route)."""

    def __init__(self, address: str | None) -> None:
        self.address = address

    def __call__(self, family: int, kind: int) -> RoutedTo:
        return self

    def connect(self, destination: tuple[str, int]) -> None:
        if self.address is None:
            raise OSError("Network is unreachable")

    def getsockname(self) -> tuple[str, int]:
        assert self.address is not None
        return (self.address, 40000)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("routed", "found"),
    [("192.168.1.20", "192.168.1.20"), ("127.0.1.1", None), ("0.0.0.0", None), (None, None)],
)
def test_the_lan_address_is_the_routed_interfaces_and_never_the_loopback(
    monkeypatch: pytest.MonkeyPatch, routed: str | None, found: str | None
) -> None:
    monkeypatch.setattr(address.socket, "socket", RoutedTo(routed))
    assert lan_address() == found


def test_on_this_machine_the_lan_address_is_a_real_interfaces() -> None:
    found = lan_address()  # a UDP connect: no packet leaves
    if found is None:  # a machine without a network: the fakes above cover None
        pytest.skip("this machine has no address but the loopback")
    assert not ipaddress.ip_address(found).is_loopback


def test_tables_on_one_host_link_with_their_own_ports(tmp_path: Path) -> None:
    links = table_links(["t1=http://10.0.0.5:8081/", "t2=http://10.0.0.5:8082/"])
    with pytest.raises(AddressError, match="TABLE=URL"):
        table_links(["t3"])
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])
    app = create_hub_app(hub, table_urls=links, public_url="http://192.168.1.20:8090")
    client = app.test_client()
    rows = {r["table"]: r["dashboard"] for r in client.get("/hub/api/overview").get_json()["tables"]}
    assert rows == {"t1": "http://10.0.0.5:8081/", "t2": "http://10.0.0.5:8082/"}
    page = client.get("/hub/standings").get_data(as_text=True)
    assert "http://192.168.1.20:8090/hub/standings" in page  # for the big screen: where phones follow it
    hub.store.close()


def test_serve_prints_the_public_url(tmp_path: Path) -> None:
    serve = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "hub",
            "serve",
            "--db",
            str(tmp_path / "hub.sqlite"),
            "--broker",
            f"mqtt://127.0.0.1:{free_port()}",  # nobody there: the hub serves its pages all the same
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--public-url",
            "http://hub.example:8090",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        text=True,
    )
    try:
        assert serve.stdout is not None
        line = ""
        while not line.startswith("hub: overview"):
            line = serve.stdout.readline()
            assert line, "smartmat hub serve exited"
        assert line.split()[2] == "http://hub.example:8090/hub/"
        serve.send_signal(signal.SIGINT)
        assert serve.wait(timeout=20) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
