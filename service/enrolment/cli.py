"""``smartmat enrol``: enrol a set of discs over the mat's serial link, and record the camera marker each disc
wears (docs/setup.md, "Enrolling discs")."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from firmware_bridge.transport import SerialConnection
from service.sensing.tags import TableConfigError
from service.table.disc_sets import load_set, save_set

from .core import EnrolmentError, Notice, enrolment_from, set_pieces, slot_sheet
from .markers import apply_markers, describe_markers, parse_markers
from .reader import MatNotAnswering, ScanReader
from .session import check_laid_out, lay_out_group, tap_set


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "enrol",
        help="enrol a set of discs: which NFC tag is under which piece",
        description="Enrol a set of discs over the mat's serial link (stop the table's service first: the "
        "port has one owner). `tap`: put the discs on the mat one at a time in the order shown; `layout`: "
        "lay a group out on the printed slots; `check`: lay the set out and check every tag; `markers`: "
        "record the camera marker on each disc's top (no mat needed).",
    )
    parser.add_argument("mode", choices=("tap", "layout", "check", "markers"))
    parser.add_argument(
        "--serial", help="the mat's serial port (or the simulated mat's pty); tap, layout and check"
    )
    parser.add_argument(
        "--set", dest="set_file", type=Path, required=True, help="the set file to write/check"
    )
    parser.add_argument("--name", help="the set's name (default: the set file's name)")
    parser.add_argument(
        "--template",
        default=None,
        help="a table file or set file whose pieces are enrolled (default: the shipped demo table)",
    )
    parser.add_argument("--pieces", help="only these pieces, comma-separated (e.g. one group to lay out)")
    parser.add_argument("--spacing-mm", type=float, default=100.0, help="layout: slot spacing")
    parser.add_argument("--idle-timeout-s", type=float, default=120.0, help="tap: stop after this long idle")
    parser.add_argument(
        "--markers",
        help="markers: each disc's ArUco marker id, e.g. hero-1=12,orc-1=13 (orc-1=none takes one off); "
        "without it, the set's markers are listed",
    )
    parser.add_argument(
        "--source",
        help="markers: let the camera read them (picamera2, v4l2:N, dir:PATH, …; the camera extra): show the "
        "discs to it one at a time, in the order asked (--pieces: only these; default: those without one)",
    )
    parser.set_defaults(func=run_enrol)


def _template_pieces(template: str | None) -> list[Any]:
    from service.table.config import load_table

    if template and Path(template).exists() and "smartmat-disc-set" in Path(template).read_text()[:400]:
        return set_pieces(load_set(template).registry.pieces)
    return set_pieces(load_table(template).registry.pieces)


def _say(notice: Notice) -> None:
    print(("  " if notice.kind in ("assigned", "known") else "! ") + notice.text, flush=True)


def run_enrol(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except (TableConfigError, EnrolmentError, MatNotAnswering) as exc:
        print(f"smartmat enrol: {exc}", file=sys.stderr)
        return 1


def _record_markers(args: argparse.Namespace) -> int:
    if not args.set_file.exists():
        raise TableConfigError(
            f"{args.set_file}: no such set file: enrol the discs' tags first (smartmat enrol tap)"
        )
    disc_set = load_set(args.set_file)
    markers = dict(disc_set.markers)
    done = True
    if args.markers is not None and args.source is not None:
        raise EnrolmentError("--markers and --source: give one of them")
    if args.markers is not None:
        markers = apply_markers(disc_set, parse_markers(args.markers))
        save_set(args.set_file, disc_set.name, disc_set.registry.pieces, markers)
    elif args.source is not None:
        markers, done = _markers_by_camera(args, disc_set)
    for line in describe_markers(disc_set, markers):
        print(line)
    return 0 if done else 1


def _markers_by_camera(args: argparse.Namespace, disc_set: Any) -> tuple[dict[str, int], bool]:
    pieces = [e.piece for e in disc_set.registry.pieces]
    wanted = args.pieces.split(",") if args.pieces else [p for p in pieces if p not in disc_set.markers]
    unknown = [p for p in wanted if p not in pieces]
    if unknown:
        raise EnrolmentError(f"--pieces: {', '.join(unknown)} not in set {disc_set.name}")
    if not wanted:
        print(f"every disc of set {disc_set.name} has a marker (--pieces a,b to show some again)")
        return dict(disc_set.markers), True
    from .camera_markers import open_camera, show_discs

    try:
        source = open_camera(args.source)
    except ImportError as error:
        raise EnrolmentError(
            f"--source needs the camera extra (pip install -e '.[camera]'): {error}"
        ) from None
    except Exception as error:  # the camera's CaptureError, which names the source and says why
        raise EnrolmentError(f"--source: {error}") from None
    try:
        showing = show_discs(
            source,
            disc_set,
            wanted,
            args.set_file,
            _say,
            on_next=lambda piece: print(f"show the marker of {piece}'s disc to the camera", flush=True),
            idle_timeout_s=args.idle_timeout_s,
        )
    finally:
        source.close()
    return showing.markers, showing.next_piece() is None


def _run(args: argparse.Namespace) -> int:
    if args.mode == "markers":
        return _record_markers(args)
    if args.markers is not None or args.source is not None:
        raise EnrolmentError(f"--markers, --source: only for `smartmat enrol markers`, not {args.mode}")
    if not args.serial:
        raise EnrolmentError(f"{args.mode}: --serial is needed (the mat's serial port)")
    existing = load_set(args.set_file) if args.set_file.exists() else None
    with SerialConnection(args.serial) as connection:
        reader = ScanReader(connection)
        if args.mode == "check":
            if existing is None:
                raise TableConfigError(f"{args.set_file}: no such set file to check")
            wanted = args.pieces.split(",") if args.pieces else None
            ok = check_laid_out(reader, existing.registry, _say, wanted)
            print("every disc is there and known" if ok else "the set needs attention (see above)")
            return 0 if ok else 1
        pieces = (
            set_pieces(existing.registry.pieces)
            if existing and not args.template
            else _template_pieces(args.template)
        )
        name = args.name or (existing.name if existing else args.set_file.stem)
        known = {e.piece: e.uid for e in existing.registry.pieces} if existing else {}
        if args.pieces:
            wanted = set(args.pieces.split(","))
            unknown = sorted(wanted - {p.piece for p in pieces})
            if unknown:
                raise EnrolmentError(f"--pieces: {', '.join(unknown)} not in the template")
        enrolment = enrolment_from(
            name, pieces, {p: u for p, u in known.items() if any(x.piece == p for x in pieces)}
        )
        enrolment.markers = dict(existing.markers) if existing else {}
        if args.mode == "tap":
            for piece in list(args.pieces.split(",")) if args.pieces else []:
                enrolment.forget(piece)  # enrolling these again
            done = tap_set(
                reader,
                enrolment,
                args.set_file,
                _say,
                idle_timeout_s=args.idle_timeout_s,
                on_next=lambda piece: print(f"tap the disc of {piece} on the mat", flush=True),
            )
            print(
                f"set {name}: {len(enrolment.entries())} of {len(pieces)} discs enrolled in {args.set_file}"
            )
            return 0 if done else 1
        group = args.pieces.split(",") if args.pieces else [p.piece for p in enrolment.missing()]
        capabilities = reader.wait_for_board()
        sheet = slot_sheet(group, capabilities.mat_width_mm, capabilities.mat_height_mm, args.spacing_mm)
        print("lay the discs out on the slots (x, y in mm from the mat's corner):")
        for slot in sheet.slots:
            print(f"  slot {slot.number:2d}: {slot.piece:<20} at ({slot.x_mm:.0f}, {slot.y_mm:.0f})")
        input("press Enter when every disc lies on its slot and your hands are off the mat ")
        lay_out_group(reader, enrolment, sheet, args.set_file, _say)
        missing = enrolment.missing()
        print(f"set {name}: {len(enrolment.entries())} of {len(pieces)} discs enrolled in {args.set_file}")
        return 0 if not missing else 1
