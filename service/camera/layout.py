"""Where the camera looks for things: the mat's fiducial markers and the marker on each disc's top.

The mat carries eight ArUco markers (dictionary 4x4, ids 0-7) on its border strip, centred
``FIDUCIAL_OUTSET_MM`` outside the playing area: one at each corner and one at the middle of each side. The
corners alone fix a homography; the side markers make the lens's barrel or pincushion visible, so the mapping
can undo it. Each disc wears a marker of its own (ids from ``FIRST_DISC_MARKER`` up) on its top, enrolled with
the disc like its NFC tag, and a colour the camera falls back on when the marker is blurred or half hidden.
Nothing here needs OpenCV.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DICTIONARY = "DICT_4X4_100"  # large cells: readable at about 4 px per cell
MAT_MARKER_IDS = tuple(range(8))
FIRST_DISC_MARKER = 10
FIDUCIAL_SIZE_MM = 50.0
FIDUCIAL_OUTSET_MM = 32.0  # marker centre outside the playing area's edge, inside the walls' gap
DISC_MARKER_SHARE = (
    1.0  # a disc marker's side, as a share of its radius (with its white margin, it fits the disc)
)
DISC_MARKER_MARGIN = 1 / 8  # the white margin round a disc's marker, as a share of its side
DISC_HEIGHT_MM = 10.0  # a game disc's thickness: its marker is this far above the mat unless the file says
LAST_MARKER_ID = 99  # the dictionary's last id


def disc_marker_problem(marker: int, taken: Mapping[int, str]) -> str | None:
    """Why ``marker`` cannot be a disc's, in words (``taken``: the markers other discs already wear), or
    None. The discs file and an enrolled disc set both refuse with these words."""
    if marker in MAT_MARKER_IDS:
        return f"{marker} is one of the mat's fiducials (0-7)"
    if not 0 <= marker <= LAST_MARKER_ID:
        return f"{marker} is outside the camera's dictionary (a disc's marker is 8-{LAST_MARKER_ID})"
    if marker in taken:
        return f"{marker} is {taken[marker]}'s already"
    return None


@dataclass(frozen=True)
class DiscLook:
    """How the camera knows one disc: its marker, its size and its colour (blue, green, red, 0-255)."""

    piece: str
    radius_mm: float
    colour_bgr: tuple[int, int, int]
    marker_id: int | None = None
    height_mm: float = DISC_HEIGHT_MM  # its top (and marker) above the mat

    @property
    def marker_mm(self) -> float:
        return self.radius_mm * DISC_MARKER_SHARE


@dataclass(frozen=True)
class MatLayout:
    width_mm: float
    height_mm: float

    def fiducial_centres(self) -> dict[int, tuple[float, float]]:
        """Marker id → its centre on the mat (mm): corners 0-3 anticlockwise from the origin, sides 4-7."""
        w, h, o = self.width_mm, self.height_mm, FIDUCIAL_OUTSET_MM
        return {
            0: (-o, -o),
            1: (w + o, -o),
            2: (w + o, h + o),
            3: (-o, h + o),
            4: (w / 2, -o),
            5: (w + o, h / 2),
            6: (w / 2, h + o),
            7: (-o, h / 2),
        }

    def fiducial_corners(self, marker_id: int) -> list[tuple[float, float]]:
        """The marker's four corners on the mat in ArUco's order (its top-left first, clockwise as seen
        from above). The markers are printed upright in the image sense: their top edge towards -y."""
        cx, cy = self.fiducial_centres()[marker_id]
        s = FIDUCIAL_SIZE_MM / 2
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]


# Colours a set of discs is painted in, by the kind of piece (a look-alike pair shares one).
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "hero": (40, 200, 230),  # yellow
    "monster": (50, 50, 200),  # red
    "lord": (160, 40, 140),  # purple
    "obstacle": (30, 30, 30),  # black
    "ranged": (220, 140, 40),  # blue
}
DEFAULT_COLOUR = (200, 200, 200)


def kind_of_class(piece_class: str) -> str:
    """The kind of a piece class, whose colour a set of discs is painted in: the first word of its name that
    is a painted kind (``monster-large`` → monster; a box's own prefix before it is passed over)."""
    words = piece_class.split("-")
    return next((word for word in words if word in KIND_COLOURS), words[0])


def colour_of_class(piece_class: str) -> tuple[int, int, int]:
    """The colour the camera looks for when a disc of this class shows no readable marker."""
    return KIND_COLOURS.get(kind_of_class(piece_class), DEFAULT_COLOUR)


def default_looks(pieces: dict[str, tuple[str, float]]) -> dict[str, DiscLook]:
    """Looks for a set of pieces (piece → (kind, radius)): the kind's colour, markers numbered in name order.
    A real table enrols each disc's marker instead (``smartmat enrol``); this is the demo's and the tests'."""
    looks = {}
    for i, piece in enumerate(sorted(pieces)):
        kind, radius = pieces[piece]
        colour = KIND_COLOURS.get(kind, DEFAULT_COLOUR)
        looks[piece] = DiscLook(piece, radius, colour, FIRST_DISC_MARKER + i)
    return looks
