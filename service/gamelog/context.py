"""What a game was played with, recorded in its setup record, so a dispute months later replays with the same
rules and cards (docs/game-log.md, "context"): the software version, the rule set, and digests of the content
(shipped files of the rule set, expansions included) and of the organiser's overlay."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from service.content.reading import CONTENT_ROOT
from service.games import DEFAULT_RULESET


def software_version() -> str:
    try:
        return f"smartmat {metadata.version('smartmat')}"
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "smartmat (not installed)"


def digest_of(folder: Path) -> str | None:
    """sha256 over every YAML file under ``folder`` (relative name and bytes, in name order)."""
    if not folder.is_dir():
        return None
    sha = hashlib.sha256()
    for path in sorted(folder.rglob("*.yaml")):
        sha.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "sha256:" + sha.hexdigest()


def game_context(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The ``context`` of a setup record: software, rule set, content and overlay digests."""
    ruleset = str(setup.get("ruleset", DEFAULT_RULESET))
    overlay = setup.get("overlay")
    sample = setup.get("content") == "sample"
    return {
        "software": software_version(),
        "ruleset": ruleset,
        "content": "sample" if sample else digest_of(CONTENT_ROOT / ruleset),
        "overlay": digest_of(Path(overlay)) if isinstance(overlay, str) else None,
    }


def context_differences(setup: Mapping[str, Any]) -> list[str]:
    """How this machine differs from what the log was played with (empty when it names no context)."""
    recorded = setup.get("context")
    if not isinstance(recorded, Mapping):
        return []
    now = game_context(setup)
    return [
        f"{key}: played with {recorded.get(key)!r}, replayed with {now[key]!r}"
        for key in ("ruleset", "content", "overlay", "software")
        if key in recorded and recorded.get(key) != now[key]
    ]
