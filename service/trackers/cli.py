"""``smartmat trackers`` (feed a table's WLED trackers) and ``smartmat tracker`` (a Pi Zero's own LEDs)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

from service.publish.broker_url import BrokerUrlError
from service.sensing.tags import TableConfigError

DEFAULT_BROKER = os.environ.get("SMARTMAT_MQTT_URL", "mqtt://127.0.0.1:1883")


def register_cli(subparsers: Any) -> None:
    bridge = subparsers.add_parser(
        "trackers",
        help="feed a table's WLED LED trackers from its MQTT topics",
        description="Publish each WLED tracker's absolute JSON state, retained, on its device's API topic "
        "whenever its character changes (docs/trackers.md). Runs until Ctrl-C or SIGTERM.",
    )
    bridge.add_argument("--table", required=True, help="the table file with the trackers list")
    bridge.add_argument("--broker", default=DEFAULT_BROKER, help="MQTT URL (the tracker account)")
    bridge.set_defaults(func=run_bridge)

    pi = subparsers.add_parser(
        "tracker",
        help="drive a Pi Zero's LED bar from one character's topic",
        description="A Pi Zero tracker: a gpiozero LEDBarGraph for the health bar and optional LEDs for "
        "the states (docs/trackers.md). Runs until Ctrl-C or SIGTERM.",
    )
    pi.add_argument("--table-id", required=True, help="the table's id (the topic prefix smartmat/<id>/)")
    pi.add_argument("--character", required=True, help="the character beside whose board it stands")
    pi.add_argument("--bar-pins", required=True, help="GPIO pins of the bar, first LED first: 5,6,13,19")
    pi.add_argument(
        "--state-pin",
        action="append",
        default=[],
        metavar="STATE=PIN",
        help="an LED for a state (poisoned, stunned, teleported, frozen, devoured, dead); repeatable",
    )
    pi.add_argument("--broker", default=DEFAULT_BROKER, help="MQTT URL (the tracker account)")
    pi.set_defaults(func=run_pi_tracker)


def _wait_for_stop() -> None:
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass


def run_bridge(args: argparse.Namespace) -> int:
    from service.table.config import load_table
    from service.table.trackers import load_trackers

    from .bridge import WledBridge

    try:
        table = load_table(args.table)
        trackers = [t for t in load_trackers(table.path) if t.kind == "wled"]
        if not trackers:
            raise TableConfigError(f"{table.path}: trackers: no WLED tracker listed")
        bridge = WledBridge.connect_to(table.table, trackers, args.broker)
    except (TableConfigError, BrokerUrlError) as exc:
        print(f"smartmat trackers: {exc}", file=sys.stderr)
        return 1
    for tracker in trackers:
        print(f"{tracker.id}: {tracker.api_topic} shows {tracker.character or 'nobody yet'}", flush=True)
    try:
        _wait_for_stop()
    finally:
        bridge.stop()
    return 0


def run_pi_tracker(args: argparse.Namespace) -> int:
    from .gpio import GpioTracker

    try:
        bar_pins = [int(p) if p.isdigit() else p for p in args.bar_pins.split(",") if p]
        state_pins: dict[str, int | str] = {}
        for item in args.state_pin:
            name, _, pin = item.partition("=")
            if not pin:
                raise ValueError(f"--state-pin {item!r}: expected STATE=PIN")
            state_pins[name] = int(pin) if pin.isdigit() else pin
        tracker = GpioTracker.connect_to(args.table_id, args.character, bar_pins, args.broker, state_pins)
    except (ValueError, BrokerUrlError) as exc:
        print(f"smartmat tracker: {exc}", file=sys.stderr)
        return 1
    try:
        _wait_for_stop()
    finally:
        tracker.close()
    return 0
