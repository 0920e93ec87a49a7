"""The discs file: how the camera knows each disc (its marker id, radius and colour), one entry a disc.

```yaml
discs:
  hero-1: {marker: 10, radius_mm: 19, colour_bgr: [40, 200, 230]}
  orc-1:  {marker: 11, radius_mm: 16, colour_bgr: [50, 50, 200]}
  bolt-1: {radius_mm: 10, colour_bgr: [220, 140, 40]}   # no marker: found by colour and size only
  tower-1: {marker: 12, radius_mm: 25, height_mm: 30, colour_bgr: [90, 90, 90]}   # taller than 10 mm
```

A disc without ``marker`` is found by colour alone; two discs may share a colour but never a marker, and no
disc may use a mat fiducial's id (0-7). Every mistake is refused with the file and the key named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from service.camera.layout import DISC_HEIGHT_MM, DiscLook, disc_marker_problem
from service.common import schema_check


class DiscsFileError(ValueError):
    def __init__(self, path: Path, key: str, problem: str) -> None:
        super().__init__(f"{path}: {key}: {problem}")


def read_discs(path: Path) -> dict[str, DiscLook]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DiscsFileError(path, "(file)", f"cannot read it: {error.strerror or error}") from None
    except yaml.YAMLError as error:
        raise DiscsFileError(path, "(file)", f"not valid YAML: {error}") from None
    found = schema_check.first_problem(schema_check.validator("service.camera.schemas", "discs"), data)
    if found is not None:
        raise DiscsFileError(path, *found)
    looks: dict[str, DiscLook] = {}
    markers: dict[int, str] = {}
    for piece, entry in data["discs"].items():
        where = f"discs.{piece}"
        radius, colour = entry["radius_mm"], entry["colour_bgr"]
        marker = entry.get("marker")
        if marker is not None:
            refused = disc_marker_problem(marker, markers)
            if refused is not None:
                raise DiscsFileError(path, f"{where}.marker", refused)
            markers[marker] = str(piece)
        height = float(entry.get("height_mm", DISC_HEIGHT_MM))
        looks[str(piece)] = DiscLook(
            str(piece), float(radius), (colour[0], colour[1], colour[2]), marker, height
        )
    return looks


def discs_to_yaml(looks: dict[str, DiscLook]) -> str:
    entries: dict[str, Any] = {}
    for piece, look in sorted(looks.items()):
        entry: dict[str, Any] = {"radius_mm": look.radius_mm, "colour_bgr": list(look.colour_bgr)}
        if look.marker_id is not None:
            entry["marker"] = look.marker_id
        if look.height_mm != DISC_HEIGHT_MM:
            entry["height_mm"] = look.height_mm
        entries[piece] = entry
    return str(yaml.safe_dump({"discs": entries}, sort_keys=False))
