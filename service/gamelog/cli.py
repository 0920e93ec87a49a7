"""``smartmat replay LOG [--json]``: the state a game log produces."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from service.gamelog.positions import position_setup
from service.gamelog.records import LogFormatError, read_log
from service.gamelog.replay import SetupError, replay
from service.games import definition_of


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser("replay", help="print the state a game log produces", description=__doc__)
    parser.add_argument("log", help="game log (JSON Lines, docs/game-log.md)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the public state as JSON (docs/state.md)")
    output.add_argument(
        "--state",
        action="store_true",
        help="print the full game state in its canonical one-line form (GameState.from_json)",
    )
    output.add_argument(
        "--position",
        action="store_true",
        help="print the position as a setup record that starts a new log from it (docs/positions.md)",
    )
    parser.add_argument("--at", type=int, metavar="SEQ", help="stop after record SEQ")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        records = read_log(args.log)
        if args.at is not None:
            records = [r for r in records if r.seq <= args.at]
        if args.position:
            print(json.dumps(position_setup(records), indent=2, sort_keys=True))
            return 0
        result = replay(records)
    except OSError as exc:
        print(f"smartmat replay: cannot read {args.log}: {exc.strerror}", file=sys.stderr)
        return 2
    except (LogFormatError, SetupError) as exc:
        print(f"smartmat replay: {args.log}: {exc}", file=sys.stderr)
        return 1
    if args.state:
        print(result.state.to_json())
        return 0
    view = result.state.public_view()
    referee_view = definition_of(result.rules.name).referee_view
    if referee_view is not None:
        view["referee"] = referee_view(result.state)  # the decks and the turn, for audits (docs/positions.md)
    view["seq"] = result.last_seq
    view["rejected"] = [{"seq": seq, "error": why} for seq, why in result.rejected]
    view["context_differences"] = result.context_differences
    if args.json:
        print(json.dumps(view, indent=2, sort_keys=True))
    else:
        print(describe(view))
    return 0


def describe(view: dict[str, Any]) -> str:
    if "sides" in view:
        return describe_castles(view)
    lines = [f"{view['ruleset']} - phase {view['phase']}, round {view['round']} (log seq {view['seq']})"]
    room = view["room"]
    if room:
        lines.append(f"room {room['index'] + 1}: {room['name']} ({room['kind']})")
    if view["turn"]:
        lines.append(
            f"turn: {view['turn']['side']}"
            + (f", {view['turn']['character']}" if view["turn"]["character"] else "")
        )
    if view["expected_shot"]:
        shot = view["expected_shot"]
        lines.append(f"expected shot: {shot['character']} {shot['shot']} (piece {shot['piece']})")
    for c in view["characters"]:
        state = "dead" if not c["alive"] else f"{c['health']}/{c['max_health']}"
        extras = [*c["status"]]
        if c["poison_total"]:
            extras.append(f"poison {c['poison_total']}")
        if c["gold"]:
            extras.append(f"{c['gold']} gold")
        if c.get("rage") is not None:
            extras.append(f"rage {c['rage']}")  # Catacombs 1E: the Barbarian's rage track
        if c["items"]:
            extras.append("items: " + ", ".join(c["items"]))
        lines.append(f"  {c['id']:<28} {state:<6} {' '.join(extras)}".rstrip())
    lines.append(f"gold: party {view['gold']['party']}, treasury {view['gold']['treasury']}")
    if view.get("monster_pool"):
        pool = ", ".join(f"{card} {n}" for card, n in sorted(view["monster_pool"].items()) if n)
        lines.append(f"monster pool: {pool or 'empty'}")
    for c in view["characters"]:
        if c.get("discs"):
            lines.append(f"  discs on {c['id']}'s board: {', '.join(c['discs'])}")
    if view["pending"]:
        p = view["pending"]
        options = ", ".join(f"{o['id']}={o['label']}" for o in p["options"])
        lines.append(f"pending {p['id']} ({p['kind']}): {p['prompt']} [{options}]")
    if view["outcome"]:
        lines.append(f"outcome: the {view['outcome']} win")
    for difference in view.get("context_differences", ()):
        lines.append(f"warning: {difference}")
    for r in view["rejected"]:
        lines.append(f"rejected seq {r['seq']}: {r['error']}")
    return "\n".join(lines)


def describe_castles(view: dict[str, Any]) -> str:
    """Catacombs & Castles: the mode, each side's Health Pool, and each character's tokens and armour."""
    head = f"{view['ruleset']} ({view['mode']}) - phase {view['phase']}, round {view['round']}"
    lines = [f"{head} (log seq {view['seq']})"]
    for side in view["sides"]:
        extra = f", {side['reinforcements']} reinforcement(s)" if side["controls"] == "boss" else ""
        lines.append(f"{side['id']}: {side['health']}/{side['starting_health']} Health Tokens{extra}")
    if view["turn"]:
        lines.append(
            f"turn: {view['turn']['side']}"
            + (f", {view['turn']['character']}" if view["turn"]["character"] else "")
        )
    if view["expected_shot"]:
        shot = view["expected_shot"]
        lines.append(f"expected shot: {shot['actor']} {shot['shot']} (piece {shot['piece']})")
    for c in view["characters"]:
        extras = [f"{card} {n}" for card, n in c["cards"].items() if n]
        extras += [f"armour {a}" for a in c["armour"]]
        if not c["on_mat"]:
            extras.append("off the playmat")
        if c["trapped"]:
            extras.append("trapped")
        if c["form"]:
            extras.append(f"form {c['form']}")
        lines.append(f"  {c['id']:<40} {' '.join(extras)}".rstrip())
    if view["pending"]:
        p = view["pending"]
        options = ", ".join(f"{o['id']}={o['label']}" for o in p["options"])
        lines.append(f"pending {p['id']} ({p['kind']}): {p['prompt']} [{options}]")
    if view["outcome"]:
        lines.append(f"outcome: {view['outcome']} wins")
    for r in view["rejected"]:
        lines.append(f"rejected seq {r['seq']}: {r['error']}")
    return "\n".join(lines)
