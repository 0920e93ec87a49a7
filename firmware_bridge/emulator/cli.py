"""``smartmat sim-mat``: run the emulated mat board on its own and print the port path to open."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType
from typing import Any

from firmware_bridge.emulator.board import DEFAULT_PORT_NAME, EmulatedMat
from firmware_bridge.emulator.source import PlacedTag, StaticSensorSource

DEMO_TAGS = (
    PlacedTag(2, 3, bytes.fromhex("04a1b2c3")),
    PlacedTag(9, 6, bytes.fromhex("04d4e5f6a7b8c9")),
    PlacedTag(15, 8, bytes.fromhex("0411223344")),
)


def parse_tag(text: str) -> PlacedTag:
    """``COL,ROW,UIDHEX`` e.g. ``3,4,04a1b2c3``."""
    try:
        col, row, uid = text.split(",")
        return PlacedTag(int(col), int(row), bytes.fromhex(uid))
    except ValueError as exc:
        message = f"tag {text!r} is not COL,ROW,UIDHEX with a 4-10 byte uid: {exc}"
        raise argparse.ArgumentTypeError(message) from exc


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sim-mat",
        help="run an emulated mat board on a pseudo-terminal",
        description="Run the emulated mat microcontroller (protocol v1) on a pseudo-terminal and print the "
        "path to open, e.g. `smartmat run --serial PATH`. Ctrl-C stops it.",
    )
    parser.add_argument("--dir", help="folder for the port symlink (default: a new temporary folder)")
    parser.add_argument("--name", default=DEFAULT_PORT_NAME, help="name of the port symlink")
    parser.add_argument(
        "--tag",
        action="append",
        type=parse_tag,
        metavar="COL,ROW,UIDHEX",
        help="a tag resting on the mat (repeatable; default: three demo tags)",
    )
    parser.add_argument(
        "--scan-period-ms", type=int, default=1000, help="full scan period (0: scan only on request)"
    )
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (default: ^C)")
    parser.set_defaults(func=run_sim_mat)


def run_sim_mat(args: argparse.Namespace) -> int:
    tags = tuple(args.tag) if args.tag else DEMO_TAGS
    period_us = args.scan_period_ms * 1000 if args.scan_period_ms > 0 else None
    source = StaticSensorSource(tags, scan_period_us=period_us)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    with EmulatedMat(source, port_dir=args.dir, port_name=args.name) as mat:
        print(mat.path, flush=True)
        print(f"boot_id 0x{mat.boot_id:08x}, {len(tags)} tags", file=sys.stderr, flush=True)
        try:
            stop.wait(args.seconds)
        except KeyboardInterrupt:
            pass
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.emulator.cli``: the same command without the rest of the service."""
    parser = argparse.ArgumentParser(prog="sim-mat")
    register_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["sim-mat", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
