"""The table's tag registry: which NFC tag UID is stuck under which piece.

A table's registry is data (``content/tables/<table>.yaml``): an organiser registers each disc's factory UID
once. Unknown UIDs are reported once each and otherwise ignored, so a stray tag (a phone, a card in a sleeve)
never moves a piece on the board.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema.protocols import Validator

from service.common import schema_check

log = logging.getLogger(__name__)

SIDES = ("heroes", "overseer", "neutral")


class TableConfigError(ValueError):
    """A table file that cannot be used; names the file and the key."""


class UnknownTagError(KeyError):
    """A tag UID that is not in the table's registry."""


@dataclass(frozen=True)
class RegisteredPiece:
    piece: str  # the physical disc's id, e.g. "hero-xoric", "undead-large-1", "ranged-1"
    uid: bytes
    piece_class: str  # a class of content/<ruleset>/pieces.yaml: hero, monster-large, ranged, …
    family: str | None = None  # monster family colour for monster discs (undead, vermin, …)


class TagRegistry:
    def __init__(self, pieces: list[RegisteredPiece]) -> None:
        self._by_uid: dict[bytes, RegisteredPiece] = {}
        self._by_piece: dict[str, RegisteredPiece] = {}
        for entry in pieces:
            if entry.uid in self._by_uid:
                raise TableConfigError(f"tag {entry.uid.hex()} is registered twice")
            if entry.piece in self._by_piece:
                raise TableConfigError(f"piece {entry.piece!r} is registered twice")
            self._by_uid[entry.uid] = entry
            self._by_piece[entry.piece] = entry
        self._reported: set[bytes] = set()

    def piece_for(self, uid: bytes) -> RegisteredPiece:
        try:
            return self._by_uid[uid]
        except KeyError:
            raise UnknownTagError(f"tag {uid.hex()} is not registered for this table") from None

    def lookup(self, uid: bytes) -> RegisteredPiece | None:
        """The piece for ``uid``, or None after logging the unknown tag (once per UID)."""
        entry = self._by_uid.get(uid)
        if entry is None and uid not in self._reported:
            self._reported.add(uid)
            log.warning(
                "unknown NFC tag %s seen on the mat; ignored (register it in the table file)", uid.hex()
            )
        return entry

    def entry(self, piece: str) -> RegisteredPiece:
        return self._by_piece[piece]

    def find(self, uid: bytes) -> RegisteredPiece | None:
        """The piece for ``uid``, or None, without logging (for checks that report unknown tags)."""
        return self._by_uid.get(uid)

    def reassign(self, piece: str, uid: bytes) -> RegisteredPiece:
        """Give ``piece`` a new tag (its disc was swapped for a spare); its old tag is no longer known.

        Raises TableConfigError, naming the UID, when another piece already has that tag."""
        old = self._by_piece.get(piece)
        if old is None:
            raise TableConfigError(f"piece {piece!r} is not registered")
        owner = self._by_uid.get(uid)
        if owner is not None and owner.piece != piece:
            raise TableConfigError(f"tag {uid.hex()} is already registered for {owner.piece}")
        new = RegisteredPiece(piece, uid, old.piece_class, old.family)
        del self._by_uid[old.uid]
        self._by_uid[uid] = new
        self._by_piece[piece] = new
        self._reported.discard(uid)
        return new

    @property
    def pieces(self) -> tuple[RegisteredPiece, ...]:
        return tuple(self._by_piece.values())

    @property
    def unknown_uids(self) -> frozenset[bytes]:
        return frozenset(self._reported)


@cache
def _tags_schema() -> Validator:
    return schema_check.validator("service.sensing.schemas", "tags")


def parse_registry(data: Any, where: str) -> TagRegistry:
    """The discs of a ``tags`` list (service/sensing/schemas/tags.schema.json); a tag or a piece listed
    twice, which the schema cannot see, is refused after it."""
    schema_check.check(_tags_schema(), data, where, TableConfigError, root="tags")
    entries = [
        RegisteredPiece(
            str(item["piece"]),
            bytes.fromhex(item["uid"]),
            str(item["class"]),
            str(item["family"]) if item.get("family") else None,
        )
        for item in data
    ]
    try:
        return TagRegistry(entries)
    except TableConfigError as exc:
        raise TableConfigError(f"{where}: tags: {exc}") from None


def read_table_yaml(path: Path) -> Any:
    """A table-side YAML file's content; TableConfigError names the file when it cannot be read."""
    try:
        return yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise TableConfigError(f"{path}: cannot read: {exc}") from exc


def load_registry(path: Path) -> TagRegistry:
    data = read_table_yaml(path)
    if not isinstance(data, dict) or "tags" not in data:
        raise TableConfigError(f"{path}: tags: missing")
    return parse_registry(data["tags"], str(path))
