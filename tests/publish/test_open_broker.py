"""A broker that lets anyone in: a real table refuses it, the demo says loudly that it runs on one.

On such a broker an anonymous client can send a `correct` and set a hero's health, or forge the state every
phone shows; the shipped Mosquitto settings refuse it (tests/publish/test_broker_security.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.app.cli import refuse_or_announce_an_open_broker
from service.publish.broker_url import BrokerUrl
from service.publish.paho_transport import accepts_anonymous
from tests.helpers.broker import MosquittoBroker, free_port, start_mosquitto

pytestmark = pytest.mark.broker


def test_the_probe_tells_an_open_broker_from_one_with_accounts(
    mosquitto_broker: MosquittoBroker, tmp_path: Path
) -> None:
    assert accepts_anonymous(BrokerUrl.parse(mosquitto_broker.url())) is True
    with start_mosquitto(tmp_path / "secured", users={"daemon": "pw"}) as secured:
        assert accepts_anonymous(BrokerUrl.parse(secured.url("daemon", "pw"))) is False
    assert accepts_anonymous(BrokerUrl("127.0.0.1", free_port()), timeout_s=1) is None  # nothing there


def test_a_real_table_refuses_a_broker_that_lets_anyone_in(mosquitto_broker: MosquittoBroker) -> None:
    with pytest.raises(SystemExit) as refused:
        refuse_or_announce_an_open_broker(
            BrokerUrl.parse(mosquitto_broker.url()), embedded=False, serial="/dev/smartmat"
        )
    assert "without a password" in str(refused.value) and "deploy/install.sh" in str(refused.value)


def test_a_real_table_starts_on_a_broker_with_accounts(tmp_path: Path) -> None:
    with start_mosquitto(tmp_path, users={"daemon": "pw"}) as secured:
        url = BrokerUrl.parse(secured.url("daemon", "pw"))
        refuse_or_announce_an_open_broker(url, embedded=False, serial="/dev/smartmat")  # no exit


def test_the_demo_runs_on_an_open_broker_and_says_so_loudly(
    mosquitto_broker: MosquittoBroker, capsys: pytest.CaptureFixture[str]
) -> None:
    refuse_or_announce_an_open_broker(BrokerUrl.parse(mosquitto_broker.url()), embedded=False, serial=None)
    out = capsys.readouterr().out
    assert "DEMO ONLY" in out and "can command this table" in out
