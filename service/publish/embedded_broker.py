"""A stand-in MQTT broker inside the process, for the demo only (``smartmat run`` with no ``--serial``).

Production uses Mosquitto with passwords and ACLs (deploy/mosquitto/). The embedded broker (amqtt, MQTT 3.1.1,
the optional ``demo`` extra) has neither, listens on localhost only, and is started only when nothing answers
at the configured URL *and* the caller allows it: a real table (``--serial``) or a service under systemd never
gets one. There a missing broker is an error that says how to start Mosquitto, and the client keeps trying to
connect until it answers.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import threading
from dataclasses import replace
from typing import Any

from service.publish.broker_url import BrokerUrl

log = logging.getLogger(__name__)

LOCALHOST = "127.0.0.1"
# The libraries behind the embedded broker log every connection and state change at INFO; `smartmat -v`
# (the root logger at DEBUG) shows them, otherwise only their warnings and errors reach the console.
CHATTY_LOGGERS = ("amqtt", "transitions")


class EmbeddedBrokerError(RuntimeError):
    """The embedded broker could not start (most often: the port is taken, or amqtt is not installed)."""


def broker_reachable(url: BrokerUrl, timeout_s: float = 1.0) -> bool:
    try:
        with socket.create_connection((url.host, url.port), timeout=timeout_s):
            return True
    except OSError:
        return False


def mosquitto_installed() -> bool:
    return bool(shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin"))


def missing_broker_message(url: BrokerUrl, why: str) -> str:
    """What to do when no broker answers at ``url`` and no stand-in may be started (``why`` says why not)."""
    local = url.host in ("127.0.0.1", "localhost", "::1")
    where = "" if local else f" on {url.host}"
    if mosquitto_installed() or not local:
        how = (
            f"Start Mosquitto{where}:  sudo systemctl start mosquitto\n"
            f"    (not installed{where}? sudo apt-get install mosquitto, then sudo deploy/install.sh for "
            "its accounts and ACLs; docs/mqtt.md)"
        )
    else:
        how = (
            "Mosquitto is not installed here. Install and start it:  sudo apt-get install mosquitto\n"
            "    then sudo deploy/install.sh for its accounts and ACLs, and sudo systemctl start mosquitto "
            "(docs/mqtt.md)"
        )
    return (
        f"NO MQTT BROKER answers at {url}. No stand-in broker is started for {why}.\n"
        f"    {how}\n"
        "    The daemon keeps trying to connect (every 1 to 10 s) and goes on once the broker answers."
    )


def quiet_broker_logs() -> None:
    """Keep amqtt's (and its state machines') INFO chatter off the console unless -v asked for debug logs.

    A level someone set on those loggers on purpose is left alone."""
    verbose = logging.getLogger().isEnabledFor(logging.DEBUG)
    for name in CHATTY_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.DEBUG if verbose else logging.WARNING)


class _SubscriptionTable(dict):  # type: ignore[type-arg]
    """amqtt's table of topic filters -> subscribers, iterated over a copy.

    amqtt 0.12 walks this table with ``await`` inside the loop: when a client connects it publishes the
    retained messages of every filter, and each broadcast checks every filter. Another client subscribing to
    a new filter meanwhile grows the dict, the loop dies with "dictionary changed size during iteration", and
    the connecting client is dropped (asyncio prints the traceback; the client only gets in on its next
    attempt). At start-up the daemon, the dashboard and the simulated players all connect and subscribe at
    once, so the demo hit it nearly every time. Iterating over a snapshot is what those loops mean: the
    filters that existed when they began. Lookups, inserts and deletes are the plain dict's.
    """

    def __iter__(self) -> Any:
        return iter(list(super().keys()))

    def keys(self) -> Any:
        return list(super().keys())

    def values(self) -> Any:
        return list(super().values())

    def items(self) -> Any:
        return list(super().items())


def _iterate_subscriptions_over_a_copy(broker: Any) -> None:
    table = getattr(broker, "_subscriptions", None)
    if type(table) is dict:
        broker._subscriptions = _SubscriptionTable(table)
    else:  # another amqtt release, laid out differently: nothing to protect here
        log.debug("amqtt's subscription table is %s, not a dict: left as it is", type(table).__name__)


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
        quiet_broker_logs()
        # Imported here so that only demos pay for amqtt's import time, and a real table needs no amqtt.
        try:
            from amqtt.broker import Broker  # type: ignore[import-untyped]
        except ImportError as exc:
            raise EmbeddedBrokerError(
                "the embedded demo broker needs amqtt, the 'demo' extra, which this installation lacks: "
                "run the demo with ./deploy/smartmat run (it installs requirements/demo.lock), "
                "or start Mosquitto (sudo systemctl start mosquitto)"
            ) from exc

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
                _iterate_subscriptions_over_a_copy(self._broker)
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


def ensure_broker(
    url: str | BrokerUrl, *, allow_embedded: bool, why_not: str = "a real table"
) -> tuple[BrokerUrl, EmbeddedBroker | None]:
    """Return the URL to use and, if one had to be started, the embedded broker (stop it at shutdown).

    With ``allow_embedded`` false (a real table, a service under systemd) a broker that does not answer is
    logged as an error saying how to start Mosquitto (``why_not`` names the reason no stand-in is started),
    and the configured URL is returned as it is: the MQTT client keeps reconnecting until Mosquitto is up.
    """
    configured = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
    if broker_reachable(configured):
        log.info("MQTT broker at %s is reachable", configured)
        return configured, None
    if not allow_embedded:
        log.error("%s", missing_broker_message(configured, why_not))
        return configured, None
    embedded = EmbeddedBroker(configured.port)
    embedded.start()
    banner = "!" * 100
    log.warning(
        "\n%s\n!!! NO MQTT BROKER answered at %s.\n"
        "!!! STARTED AN EMBEDDED BROKER on mqtt://%s:%d for this demo only: "
        "no passwords, no ACLs, no persistence.\n"
        "!!! A real table (--serial, or the systemd service) never gets one: it runs Mosquitto "
        "with deploy/mosquitto/ (docs/mqtt.md).\n%s",
        banner,
        configured,
        embedded.host,
        embedded.port,
        banner,
    )
    # Keep the credentials: the embedded broker accepts any, and clients need not know which broker they got.
    return replace(configured, host=embedded.host, port=embedded.port), embedded
