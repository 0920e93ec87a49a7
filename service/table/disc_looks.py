"""How an overhead camera knows a table's discs, from the enrolled set file (docs/camera.md).

An enrolled set (``smartmat enrol``) names each disc's piece class and, once ``smartmat enrol markers`` has
recorded them, the ArUco marker on its top. The camera needs each disc's marker, radius and colour: the
marker comes from the set, the radius from the class's size (content/pieces.yaml and each game's own), the
colour from the kind of piece (``service.camera.layout.KIND_COLOURS``: heroes yellow, monsters red, …). A
disc with no marker is found by its colour and size only.

``smartmat camera watch|run --discs FILE`` take either such a set file or the camera's own discs file
(``service.camera.discs``, every disc's look written out by hand); :func:`read_camera_discs` tells them apart
by the set file's ``format``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from service.camera.discs import read_discs
from service.camera.layout import DiscLook, colour_of_class
from service.games import game_names
from service.mat.geometry import PieceClass
from service.sensing.tags import TableConfigError, read_table_yaml
from service.table.disc_sets import FORMAT, DiscSet, load_set
from service.table.games import piece_classes


@cache
def every_piece_class() -> dict[str, PieceClass]:
    """The piece classes of every game (a set file does not say which game its box is for)."""
    classes: dict[str, PieceClass] = {}
    for game in game_names():
        classes.update(piece_classes(game))
    return classes


def looks_of_set(disc_set: DiscSet) -> dict[str, DiscLook]:
    """Each disc of the set as the camera looks for it; a class no game has is refused, naming the key."""
    classes = every_piece_class()
    looks = {}
    for i, entry in enumerate(disc_set.registry.pieces):
        known = classes.get(entry.piece_class)
        if known is None:
            raise TableConfigError(
                f"{disc_set.path}: tags[{i}].class: {entry.piece_class!r} is no game's piece class, so the "
                "camera does not know its size"
            )
        colour = colour_of_class(entry.piece_class)
        looks[entry.piece] = DiscLook(entry.piece, known.radius_mm, colour, disc_set.markers.get(entry.piece))
    return looks


def is_disc_set(path: Path) -> bool:
    data = read_table_yaml(path)
    return isinstance(data, dict) and data.get("format") == FORMAT


def read_camera_discs(path: Path) -> dict[str, DiscLook]:
    """The discs' looks from an enrolled set file or from the camera's discs file, whichever ``path`` is.
    Raises TableConfigError or DiscsFileError, naming the file and the key."""
    if path.exists() and is_disc_set(path):
        return looks_of_set(load_set(path))
    return read_discs(path)
