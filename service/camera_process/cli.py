"""``smartmat camera run``: the table's camera process (process.py says what it does); the camera extra."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from service.camera.layout import DiscLook

log = logging.getLogger(__name__)


def register_cli(subparsers: Any) -> None:
    camera = subparsers.choices.get("camera")
    if camera is None or not hasattr(camera, "camera_subparsers"):
        return
    from service.camera_process import process

    run = camera.camera_subparsers.add_parser(
        "run",
        help="the table's camera process: frames in, disc places out to the table over MQTT",
        description=process.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("--table-id", required=True, help="the table's id (the topic prefix smartmat/<id>/)")
    run.add_argument(
        "--source",
        required=True,
        help="picamera2[:WxH@FPS], v4l2:N, /dev/videoN, dir:PATH, video:PATH or pipe:PATH (pipe:- for stdin)",
    )
    run.add_argument(
        "--discs",
        required=True,
        type=Path,
        help="the enrolled disc set (sets/<name>.yaml, with its discs' markers) or the camera's discs file "
        "(service/camera/discs.py)",
    )
    run.add_argument("--mat", type=Path, help="the mat's hardware file (default: content/hardware/mat.yaml)")
    run.add_argument("--fps", type=float, default=120.0, help="the camera's frame rate")
    run.add_argument("--readout-us", type=int, default=0, help="rolling-shutter readout, µs (0: global)")
    run.add_argument(
        "--lens-height-mm",
        type=float,
        default=0.0,
        help="the camera's lens above the mat (a tape's measure), to place discs by their feet, not their "
        "raised tops (0: not corrected)",
    )
    run.add_argument(
        "--clock",
        choices=("sensor", "arrival", "host"),
        default="sensor",
        help="how a frame is dated on this computer's monotonic clock: the sensor's own exposure time where "
        "the source gives it (else when it was read, the reason logged once), when it was read, or its "
        "camera-clock time stamp taken as already on that clock",
    )
    run.add_argument(
        "--broker",
        default=os.environ.get("SMARTMAT_CAMERA_MQTT_URL", "mqtt://127.0.0.1:1883"),
        help="MQTT URL with the camera account (default $SMARTMAT_CAMERA_MQTT_URL)",
    )
    run.set_defaults(func=_run)
    camera.camera_subparsers.choices["watch"].set_defaults(read_looks=read_looks)


def read_looks(path: Path) -> dict[str, DiscLook]:
    """The discs' looks from an enrolled set file or the camera's discs file (service.table.disc_looks)."""
    from service.table.disc_looks import read_camera_discs

    return read_camera_discs(path)


def _run(args: argparse.Namespace) -> int:
    try:
        from service.camera.capture import CaptureError, FrameDater, open_source
        from service.camera.discs import DiscsFileError
        from service.camera.layout import MatLayout
        from service.camera.pipeline import CameraPipeline, CameraSettings
    except ImportError as error:
        print(
            f"smartmat camera needs the camera extra (pip install -e '.[camera]'): {error}", file=sys.stderr
        )
        return 2
    from service.camera_process.process import CameraProcess, view_message
    from service.mat.geometry import ContentFileError, load_mat
    from service.publish.paho_transport import PahoTransport, unguessable_client_id
    from service.sensing.tags import TableConfigError

    try:
        looks = read_looks(args.discs)
        mat = load_mat(args.mat) if args.mat else load_mat()
        source = open_source(args.source)
    except (DiscsFileError, TableConfigError, ContentFileError, CaptureError) as error:
        print(f"smartmat camera: {error}", file=sys.stderr)
        return 2
    settings = CameraSettings(fps=args.fps, readout_us=args.readout_us, camera_height_mm=args.lens_height_mm)
    dater = FrameDater(args.clock, source)
    pipeline = CameraPipeline(MatLayout(mat.width_mm, mat.height_mm), looks, settings)
    transport = PahoTransport(args.broker, unguessable_client_id(f"smartmat-camera-{args.table_id}"))
    process = CameraProcess(args.table_id, transport, settings.fps, settings.sigma_mm)
    process.start()
    signal.signal(
        signal.SIGTERM, lambda *_: source.close()
    )  # systemd's stop: the loop ends, the will is kept
    log.info("camera for table %s reading %s", args.table_id, args.source)
    try:
        while (frame := source.read()) is not None:
            host_us = dater.date(frame)
            result = pipeline.process(frame)
            if pipeline.watch is not None and pipeline.watch.mapping is not None:
                process.health.mapping_error_mm = pipeline.watch.mapping.error_mm
            process.take(result, host_us)
            if process.view_wanted():
                process.send_view(view_message(pipeline, frame.image, result))
    except CaptureError as error:
        log.error("the camera stopped: %s", error)
        return 1
    except (ValueError, OSError) as error:  # a source closed under the loop by SIGTERM
        log.info("camera stopped: %s", error)
    finally:
        process.stop()
        source.close()
    return 0
