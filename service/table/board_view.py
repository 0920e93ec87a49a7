"""The retained ``board`` payload: the discs at rest on the mat as pages draw them (docs/mqtt.md: board).

Pure: the daemon hands in the last rest scan and what the table knows about each disc.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from firmware_bridge.messages import Capabilities
from service.mat.geometry import ObstacleSpot
from service.mat.trace import FixedObstacle, Scan
from service.sensing.tags import TagRegistry

FIXED_REACH_MM = 20.0  # a fixed obstacle named by no radius and no corners is drawn this wide


def board_payload(
    scan: Scan | None,
    registry: TagRegistry,
    discs: Mapping[str, str],
    side_of: Callable[[str], str],
    radius_of: Callable[[str], float],
    caps: Capabilities | None,
    mat_size_mm: tuple[float, float],
    obstacles: list[dict[str, Any]],
) -> dict[str, Any]:
    """``mat_size_mm`` is the table's mat, used until the board names its own in HELLO."""
    of_piece = {piece: character for character, piece in discs.items()}
    pieces = []
    for seen in scan.pieces if scan else ():
        character = of_piece.get(seen.piece)
        pieces.append(
            {
                "piece": seen.piece,
                "class": registry.entry(seen.piece).piece_class,
                "character": character,
                "side": side_of(character) if character else "neutral",
                "x_mm": seen.x_mm,
                "y_mm": seen.y_mm,
                "sigma_mm": seen.sigma_mm,
                "radius_mm": radius_of(seen.piece),
            }
        )
    width, height = (caps.mat_width_mm, caps.mat_height_mm) if caps else mat_size_mm
    return {
        "mat": {"width_mm": width, "height_mm": height, "obstacles": obstacles},
        "pieces": pieces,
        "connected": caps is not None,
    }


def obstacles_for_pages(
    fixed: Sequence[FixedObstacle], printed: Sequence[ObstacleSpot]
) -> list[dict[str, Any]]:
    """The playmat's obstacles as pages draw them: the table file's fixed scenery (a Castles playmat's
    cylinders, cubes and slabs, each as the circle round it) when it names some, else the 3E icons."""
    if not fixed:
        return [{"id": o.id, "x_mm": o.x_mm, "y_mm": o.y_mm} for o in printed]
    drawn = []
    for n, o in enumerate(fixed, start=1):
        reach = o.radius_mm or max(
            (math.dist((px, py), (o.x_mm, o.y_mm)) for px, py in o.points), default=FIXED_REACH_MM
        )
        drawn.append({"id": f"fixed-{n}", "x_mm": o.x_mm, "y_mm": o.y_mm, "radius_mm": round(reach, 1)})
    return drawn
