"""A fallback MQTT broker inside the process, for demos on a machine without Mosquitto.

Production uses Mosquitto with passwords and ACLs (deploy/mosquitto/). The embedded broker (amqtt, MQTT 3.1.1)
has neither, listens on localhost only, and is started only when nothing answers at the configured URL, with
a loud warning in the log so nobody mistakes a demo for a secured table.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from dataclasses import replace
from typing import Any

from service.publish.broker_url import BrokerUrl

log = logging.getLogger(__name__)

LOCALHOST = "127.0.0.1"


class EmbeddedBrokerError(RuntimeError):
    """The embedded broker could not start (most often: the port is taken)."""


def broker_reachable(url: BrokerUrl, timeout_s: float = 1.0) -> bool:
    try:
        with socket.create_connection((url.host, url.port), timeout=timeout_s):
            return True
    except OSError:
        return False


class EmbeddedBroker:
    def __init__(self, port: int, host: str = LOCALHOST) -> None:
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> BrokerUrl:
        return BrokerUrl(self.host, self.port)

    def start(self, timeout_s: float = 10.0) -> None:
        # Imported here so that only demos pay for amqtt's import time.
        from amqtt.broker import Broker  # type: ignore[import-untyped]

        ready = threading.Event()
        failure: list[BaseException] = []
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                self._broker = Broker(config, loop=loop)
                loop.run_until_complete(self._broker.start())
            except BaseException as exc:  # reported to start()'s caller below
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name=f"embedded-mqtt-{self.port}", daemon=True)
        self._thread.start()
        if not ready.wait(timeout_s):
            raise EmbeddedBrokerError(f"embedded broker did not start within {timeout_s} s")
        if failure:
            raise EmbeddedBrokerError(
                f"embedded broker on {self.host}:{self.port} failed: {failure[0]}"
            ) from (failure[0])

    def stop(self, timeout_s: float = 10.0) -> None:
        loop, broker, thread = self._loop, self._broker, self._thread
        if loop is None or thread is None or not thread.is_alive():
            return
        try:
            asyncio.run_coroutine_threadsafe(broker.shutdown(), loop).result(timeout_s)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout_s)
        log.info("embedded MQTT broker on %s:%d stopped", self.host, self.port)

    def __enter__(self) -> EmbeddedBroker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def ensure_broker(url: str | BrokerUrl) -> tuple[BrokerUrl, EmbeddedBroker | None]:
    """Return the URL to use and, if one had to be started, the embedded broker (stop it at shutdown)."""
    configured = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
    if broker_reachable(configured):
        log.info("MQTT broker at %s is reachable", configured)
        return configured, None
    embedded = EmbeddedBroker(configured.port)
    embedded.start()
    banner = "!" * 100
    log.warning(
        "\n%s\n!!! NO MQTT BROKER answered at %s.\n"
        "!!! STARTED AN EMBEDDED BROKER on mqtt://%s:%d for this demo only: "
        "no passwords, no ACLs, no persistence.\n"
        "!!! For a real table run Mosquitto with deploy/mosquitto/ (docs/mqtt.md).\n%s",
        banner,
        configured,
        embedded.host,
        embedded.port,
        banner,
    )
    # Keep the credentials: the embedded broker accepts any, and clients need not know which broker they got.
    return replace(configured, host=embedded.host, port=embedded.port), embedded
