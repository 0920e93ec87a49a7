"""The hands of the people at a simulated table (table.py): discs put down in their start zones, destroyed
monsters and spent missiles picked up, strays put back on the edge, shield pieces placed beside their owners.
Each move is one the rules leave to the players; the board sees the mat only after it."""

from __future__ import annotations

import math
import random
from typing import Any

from service.mat.geometry import MatConfig, PieceClass, is_ranged_class
from service.simulator.players import RANGED_PLACEMENT_MM, clear_of_fixed_obstacles, put_back_from_the_gutter
from service.simulator.world import ShotRecord, World
from service.table.config import TableConfig

HERO_ZONE_Y = 0.12  # fraction of the mat's depth: the heroes' start zone along the near edge
MONSTER_ZONE_Y = 0.80  # the Monster Start Zone along the far edge


class HandsOnTheMat:
    """What the people's hands do to the mat; the simulated table (table.py) is one."""

    table: TableConfig
    mat: MatConfig
    classes: dict[str, PieceClass]
    world: World
    rng: random.Random
    last_shot: ShotRecord | None
    shield_owners: dict[str, str]

    def _set_up_room(self, state: dict[str, Any]) -> bool:
        """Put every character's disc down: heroes along the near edge, monsters in the start zone."""
        placed = False
        for character in state.get("characters", []):
            piece = character.get("piece")
            if not piece or not character.get("on_mat") or piece in self.world.pieces:
                continue
            zone = HERO_ZONE_Y if character["side"] == _near_side(state) else MONSTER_ZONE_Y
            self.put_down(piece, character["side"], zone)
            placed = True
        return placed

    def put_down(self, piece: str, side: str, zone_y: float) -> None:
        """A piece put down in its side's zone (``zone_y``: how far down the mat, a share of its height)."""
        entry = self.table.registry.entry(piece)
        cls = self.classes[entry.piece_class]
        m = self.mat
        for _ in range(200):
            x = self.rng.uniform(cls.radius_mm + 20, m.width_mm - cls.radius_mm - 20)
            y = m.height_mm * zone_y + self.rng.uniform(-60, 60)
            if self._clear(x, y, cls.radius_mm + 15):
                self.world.place(piece, cls, x, y, kind=entry.piece_class, side=side)
                return
        raise RuntimeError(f"no room on the mat for {piece}")

    def _clear(self, x: float, y: float, radius: float) -> bool:
        if not clear_of_fixed_obstacles(self.world, x, y, radius):
            return False
        for other in self.world.pieces:
            ox, oy = self.world.position(other)
            if math.hypot(ox - x, oy - y) < radius + self.world.radius(other):
                return False
        return True

    def _shield_on_mat(self, expected: dict[str, Any]) -> str | None:
        if not expected.get("shield"):
            return None
        for entry in self.table.registry.pieces:
            if entry.piece_class == "castles-shield" and entry.family == expected.get("team"):
                return entry.piece if entry.piece in self.world.pieces else None
        return None

    def _free_ranged_piece(self, expected: dict[str, Any]) -> str | None:
        """A ranged piece of the shot's size (3E: any), or for a Castles shield shot the team's shield."""
        wanted = expected.get("ranged_class")
        for entry in self.table.registry.pieces:
            if entry.piece in self.world.pieces:
                continue
            if expected.get("shield"):
                if entry.piece_class == "castles-shield" and entry.family in (expected.get("team"), None):
                    return entry.piece
            elif is_ranged_class(entry.piece_class) and (wanted is None or entry.piece_class == wanted):
                return entry.piece
        return None

    def tidy_the_mat(self, state: dict[str, Any]) -> bool:
        """Hands on the mat between shots: the rules' housekeeping that players do themselves."""
        in_play = {c.get("piece") for c in state.get("characters", []) if c.get("on_mat") and c.get("piece")}
        touched = False
        for piece in list(self.world.pieces):
            entry = self.table.registry.entry(piece)
            # A ranged piece is removed once flicked; a shield piece stays on the playmat (Ranged Shots).
            thrown = is_ranged_class(entry.piece_class) or entry.piece_class == "castles-shield"
            spent = (
                is_ranged_class(entry.piece_class)
                and self.last_shot is not None
                and piece == self.last_shot.flicked
            )
            if (not thrown and piece not in in_play) or spent:
                self.world.remove(piece)  # a destroyed monster or a spent missile is picked up
                touched = True
        if self.last_shot is not None:
            for piece, where in self.last_shot.left_mat.items():
                if piece in self.world.pieces and not self.world.on_mat(piece):
                    self.world.return_to_edge(piece, where)  # 3E reference: Legal Locations
                    touched = True
        if put_back_from_the_gutter(self.world):
            touched = True
        if state.get("phase") == "battle":
            touched |= self._set_up_room(state)  # summoned monsters and returning heroes come onto the mat
        if not (state.get("turn") or {}).get("character"):
            touched |= self._shields_back_to_owners()
        return touched

    def _shields_back_to_owners(self) -> bool:
        """Shield Shots: after the sequence with a shield shot, the shield piece is placed within 2.5 cm (1")
        of its owner (catacombs-and-castles-2e-manual.md: Shield Shots)."""
        moved = False
        for shield, owner in list(self.shield_owners.items()):
            del self.shield_owners[shield]
            if shield not in self.world.pieces or owner not in self.world.pieces:
                continue
            entry = self.table.registry.entry(shield)
            cls = self.classes[entry.piece_class]
            where = self.world.position(shield)
            ox, oy = self.world.position(owner)
            self.world.remove(shield)
            spot = where
            for _ in range(40):
                # Ranged Piece Placement: from the owner's centre to the shield's edge at most 2.5 cm.
                low = self.world.radius(owner) + cls.radius_mm + 1.0
                distance = self.rng.uniform(low, max(low, RANGED_PLACEMENT_MM + cls.radius_mm))
                angle = self.rng.uniform(0, 2 * math.pi)
                x, y = ox + distance * math.cos(angle), oy + distance * math.sin(angle)
                on_mat = cls.radius_mm <= x <= self.mat.width_mm - cls.radius_mm
                if (
                    on_mat
                    and cls.radius_mm <= y <= self.mat.height_mm - cls.radius_mm
                    and self._clear(x, y, cls.radius_mm)
                ):
                    spot, moved = (x, y), True
                    break
            self.world.place(shield, cls, *spot, kind=entry.piece_class)
        return moved


def _near_side(state: dict[str, Any]) -> str:
    """The side whose pieces start along the near edge: the heroes (Catacombs), else the first side listed
    (Catacombs & Castles: each team behind its own Start Zone line, on opposite sides of the playmat)."""
    sides = state.get("sides") or ()
    return str(sides[0]["id"]) if sides else "heroes"
