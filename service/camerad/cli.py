"""``smartmat camera run``: the table's camera process. It reads the camera's frames into disc places (the
same seeing as ``smartmat camera watch``) and streams them to the table's daemon over MQTT under the camera's
own account, with a heartbeat the daemon's health check shows (docs/camera.md). Runs until the source ends,
Ctrl-C or SIGTERM. Needs the ``camera`` extra.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

DEFAULT_BROKER = os.environ.get(
    "SMARTMAT_CAMERA_MQTT_URL", os.environ.get("SMARTMAT_MQTT_URL", "mqtt://127.0.0.1:1883")
)


def register_cli(subparsers: Any) -> None:
    camera = subparsers.choices.get("camera")
    if camera is None or not hasattr(camera, "camera_subparsers"):
        return
    run = camera.camera_subparsers.add_parser(
        "run",
        help="the table's camera process: stream every frame's disc places to the daemon over MQTT",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = run.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table file (its id names the topics)")
    where.add_argument("--table-id", help="the table's id, without a table file")
    run.add_argument(
        "--source",
        required=True,
        help="picamera2[:WxH@FPS], v4l2:N, /dev/videoN, dir:PATH, video:PATH or pipe:PATH (pipe:- for stdin)",
    )
    run.add_argument("--discs", required=True, type=Path, help="the discs file (service/camera/discs.py)")
    run.add_argument("--mat", type=Path, help="the mat's hardware file (default: content/hardware/mat.yaml)")
    run.add_argument("--fps", type=float, default=120.0, help="the camera's frame rate")
    run.add_argument("--readout-us", type=int, default=0, help="rolling-shutter readout, µs (0: global)")
    run.add_argument("--broker", default=DEFAULT_BROKER, help="MQTT URL (the camera account)")
    run.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        from service.camera.capture import CaptureError, open_source
        from service.camera.discs import DiscsFileError, read_discs
        from service.camera.layout import MatLayout
        from service.camera.pipeline import CameraPipeline, CameraSettings
    except ImportError as error:
        print(
            f"smartmat camera run needs the camera extra (pip install '.[camera]'): {error}", file=sys.stderr
        )
        return 2
    from service.mat.geometry import ContentFileError, load_mat
    from service.publish.broker_url import BrokerUrlError
    from service.publish.paho_transport import PahoTransport, unguessable_client_id
    from service.publish.topics import TopicError
    from service.sensing.tags import TableConfigError

    from .streamer import CameraStreamer

    try:
        if args.table:
            from service.table.config import load_table

            table_id = load_table(args.table).table
        else:
            table_id = args.table_id
        looks = read_discs(args.discs)
        mat = load_mat(args.mat) if args.mat else load_mat()
        transport = PahoTransport(args.broker, unguessable_client_id(f"smartmat-camera-{table_id}"))
        streamer = CameraStreamer(table_id, list(looks), transport)
        source = open_source(args.source)
    except (
        DiscsFileError,
        ContentFileError,
        CaptureError,
        BrokerUrlError,
        TableConfigError,
        TopicError,
    ) as error:
        print(f"smartmat camera run: {error}", file=sys.stderr)
        return 2
    pipeline = CameraPipeline(
        MatLayout(mat.width_mm, mat.height_mm),
        looks,
        CameraSettings(fps=args.fps, readout_us=args.readout_us),
    )
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    streamer.start()
    print(f"camera: streaming {len(looks)} discs' tracks on {streamer.tracks_topic}", flush=True)
    code = 0
    try:
        while not stop.is_set() and (frame := source.read()) is not None:
            result = pipeline.process(frame)
            streamer.add(result, time.time_ns() // 1000)
            watch = pipeline.watch
            if watch is not None:
                mapping = watch.mapping
                streamer.set_mapping(None if mapping is None else mapping.error_mm, len(watch.bumps))
    except CaptureError as error:
        print(f"smartmat camera run: {error}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
        streamer.stop()
    return code
