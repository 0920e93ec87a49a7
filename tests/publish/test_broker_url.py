from __future__ import annotations

import pytest

from service.publish import BrokerUrl, BrokerUrlError


def test_a_url_with_credentials() -> None:
    url = BrokerUrl.parse("mqtt://daemon:s%40cret@mat-pi.local:1884")
    assert url == BrokerUrl("mat-pi.local", 1884, "daemon", "s@cret")
    assert str(url) == "mqtt://daemon:***@mat-pi.local:1884"


def test_the_default_port() -> None:
    assert BrokerUrl.parse("mqtt://127.0.0.1") == BrokerUrl("127.0.0.1", 1883)


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("http://host:1883", "must start with mqtt://"),
        ("mqtt://", "names no host"),
        ("mqtt://host:port", "bad port"),
        ("mqtt://host/smartmat", "path or query"),
        ("mqtts://u:topsecret@host", "must start with mqtt://"),
    ],
)
def test_a_bad_url_is_refused_without_leaking_the_password(url: str, complaint: str) -> None:
    with pytest.raises(BrokerUrlError, match=complaint) as refused:
        BrokerUrl.parse(url)
    assert "topsecret" not in str(refused.value)
