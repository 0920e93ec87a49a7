"""The discs file: how the camera knows each disc (its marker id, radius and colour), one entry a disc.

```yaml
discs:
  hero-1: {marker: 10, radius_mm: 19, colour_bgr: [40, 200, 230]}
  orc-1:  {marker: 11, radius_mm: 16, colour_bgr: [50, 50, 200]}
  bolt-1: {radius_mm: 10, colour_bgr: [220, 140, 40]}   # no marker: found by colour and size only
```

A disc without ``marker`` is found by colour alone; two discs may share a colour but never a marker, and no
disc may use a mat fiducial's id (0-7). Every mistake is refused with the file and the key named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from service.camera.layout import MAT_MARKER_IDS, DiscLook


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
    if not isinstance(data, dict) or not isinstance(data.get("discs"), dict) or not data["discs"]:
        raise DiscsFileError(
            path, "discs", "expected a mapping of disc id to {marker, radius_mm, colour_bgr}"
        )
    looks: dict[str, DiscLook] = {}
    markers: dict[int, str] = {}
    for piece, entry in data["discs"].items():
        where = f"discs.{piece}"
        if not isinstance(entry, dict):
            raise DiscsFileError(path, where, "expected {marker, radius_mm, colour_bgr}")
        unknown = set(entry) - {"marker", "radius_mm", "colour_bgr"}
        if unknown:
            raise DiscsFileError(path, where, f"unknown key(s) {', '.join(sorted(unknown))}")
        radius = entry.get("radius_mm")
        if isinstance(radius, bool) or not isinstance(radius, int | float) or not 3 <= radius <= 100:
            raise DiscsFileError(path, f"{where}.radius_mm", f"expected a radius of 3-100 mm, got {radius!r}")
        colour = entry.get("colour_bgr")
        if not (
            isinstance(colour, list)
            and len(colour) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in colour)
        ):
            raise DiscsFileError(
                path, f"{where}.colour_bgr", f"expected [blue, green, red] 0-255, got {colour!r}"
            )
        marker = entry.get("marker")
        if marker is not None:
            if isinstance(marker, bool) or not isinstance(marker, int) or not 0 <= marker < 100:
                raise DiscsFileError(path, f"{where}.marker", f"expected a marker id 0-99, got {marker!r}")
            if marker in MAT_MARKER_IDS:
                raise DiscsFileError(path, f"{where}.marker", f"{marker} is one of the mat's fiducials (0-7)")
            if marker in markers:
                raise DiscsFileError(path, f"{where}.marker", f"{marker} is {markers[marker]}'s already")
            markers[marker] = str(piece)
        looks[str(piece)] = DiscLook(str(piece), float(radius), (colour[0], colour[1], colour[2]), marker)
    return looks


def discs_to_yaml(looks: dict[str, DiscLook]) -> str:
    entries: dict[str, Any] = {}
    for piece, look in sorted(looks.items()):
        entry: dict[str, Any] = {"radius_mm": look.radius_mm, "colour_bgr": list(look.colour_bgr)}
        if look.marker_id is not None:
            entry["marker"] = look.marker_id
        entries[piece] = entry
    return str(yaml.safe_dump({"discs": entries}, sort_keys=False))
