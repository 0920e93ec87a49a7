"""Broker addresses as the daemon and dashboard are configured with them: ``mqtt://user:pass@host:port``."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

DEFAULT_PORT = 1883


class BrokerUrlError(ValueError):
    """A broker URL that cannot be used."""


@dataclass(frozen=True)
class BrokerUrl:
    host: str
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerUrl:
        parts = urlsplit(url)
        if parts.scheme != "mqtt":
            raise BrokerUrlError(
                f"broker URL {_redact(url)!r} must start with mqtt:// (TLS is not supported yet)"
            )
        if not parts.hostname:
            raise BrokerUrlError(f"broker URL {_redact(url)!r} names no host")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise BrokerUrlError(
                f"broker URL {_redact(url)!r} has a path or query; only mqtt://user:pass@host:port"
            )
        try:
            port = parts.port or DEFAULT_PORT
        except ValueError as exc:
            raise BrokerUrlError(f"broker URL {_redact(url)!r} has a bad port") from exc
        username = unquote(parts.username) if parts.username is not None else None
        password = unquote(parts.password) if parts.password is not None else None
        return cls(parts.hostname, port, username, password)

    def __str__(self) -> str:
        """The URL with the password hidden, safe for logs."""
        user = f"{self.username}:***@" if self.username is not None else ""
        return f"mqtt://{user}{self.host}:{self.port}"


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)
