"""``smartmat eventlog check|export|import``: look after a table's event log from the shell."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from service.eventlog.base import read_jsonl
from service.eventlog.record import EventLogError
from service.eventlog.sqlite_log import SqliteEventLog

log = logging.getLogger(__name__)


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser("eventlog", help="check, export or import a table's event log")
    actions = parser.add_subparsers(dest="eventlog_action", metavar="ACTION", required=True)

    check = actions.add_parser("check", help="verify a log file (SQLite store or JSON Lines export)")
    check.add_argument("path")
    check.set_defaults(func=_check)

    export = actions.add_parser("export", help="write the log as game-log JSON Lines")
    export.add_argument("database")
    export.add_argument("jsonl")
    export.set_defaults(func=_export)

    restore = actions.add_parser("import", help="append a JSON Lines game log to a store (created if absent)")
    restore.add_argument("jsonl")
    restore.add_argument("database")
    restore.set_defaults(func=_import)


def _check(args: argparse.Namespace) -> int:
    try:
        if args.path.endswith(".jsonl"):
            records = read_jsonl(args.path)
            last = records[-1].seq if records else 0
        else:
            with SqliteEventLog(args.path) as store:
                last = store.last_seq()
    except (EventLogError, ValueError, OSError) as exc:
        print(f"{args.path}: BAD: {exc}", file=sys.stderr)
        return 1
    print(f"{args.path}: ok, {last} record(s)")
    return 0


def _export(args: argparse.Namespace) -> int:
    try:
        with SqliteEventLog(args.database) as store:
            count = store.export_jsonl(args.jsonl)
    except (EventLogError, OSError) as exc:
        print(f"export failed: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {count} record(s) to {args.jsonl}")
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        with SqliteEventLog(args.database) as store:
            added = store.import_jsonl(args.jsonl)
            total = store.last_seq()
    except (EventLogError, ValueError, OSError) as exc:
        print(f"import failed, nothing was added: {exc}", file=sys.stderr)
        return 1
    print(f"added {added} record(s); {args.database} now holds {total}")
    return 0
