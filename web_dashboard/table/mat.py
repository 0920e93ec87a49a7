"""The playmat outline the board view draws when the board topic carries none.

Taken from the shipped hardware content (``content/hardware/mat.yaml``: size in mm, obstacle icons), or from
the ``MAT`` config key. A missing or broken file falls back to a plain rectangle and says why in the log; the
board still shows every piece.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

import yaml

log = logging.getLogger(__name__)

FALLBACK: dict[str, Any] = {"width_mm": 860, "height_mm": 610, "zones": [], "obstacles": []}


def shipped_mat() -> dict[str, Any]:
    try:
        text = resources.files("content").joinpath("hardware", "mat.yaml").read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        mat = data["mat"]
        obstacles = [
            {
                "piece": str(o["id"]),
                "x_mm": float(o["x_mm"]),
                "y_mm": float(o["y_mm"]),
                "radius_mm": float(o.get("radius_mm", 20)),
            }
            for o in data.get("obstacles", [])
        ]
        return {
            "width_mm": float(mat["width_mm"]),
            "height_mm": float(mat["height_mm"]),
            "zones": [],
            "obstacles": obstacles,
        }
    except (OSError, ModuleNotFoundError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        log.warning(
            "cannot read the playmat outline from content/hardware/mat.yaml (%s); drawing a plain mat", exc
        )
        return dict(FALLBACK)
