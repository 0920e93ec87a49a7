"""Each disc followed from frame to frame: a motion model and an assignment that keep identities.

Every disc has a track: its place and velocity (an alpha-beta filter: sliding on between frames, slowed by the
mat, pulled towards each sighting). A marker sighting names its disc and is taken unless it lands impossibly
far from where that disc was heading (a misread). The discs left without one are matched to the colour blobs
of their colour by the assignment that puts the blobs nearest to where each disc was heading (and of its
size), within a gate that widens with every frame a moving disc was not seen; so two look-alike discs passing
each other, a blurred slide, a frame lost and a hand over the mat cost frames, not identities. A rolling
shutter's later rows are brought back to the frame's time along each disc's velocity.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from service.camera.detect import Sighting
from service.camera.frames import SLIDE_DECELERATION

ALPHA, BETA = 0.85, 0.5
MARKER_GATE_MM = 80.0  # a marker read further than this from its disc's prediction is taken for a misread
COLOUR_GATE_MM = 20.0  # a colour blob further than this (plus the disc's frame-to-frame travel) is not it
GATE_GROWTH_MM = 8.0  # ... widened by this for every frame the disc went unseen
RESTING_MM_S = 50.0
MAX_GATE_MM = 80.0  # a disc lost longer is found again by its marker, not by a blob of its colour far off
ALONE_GATE_MM = 250.0  # ... unless no other disc shares its colour
REREAD_MM = 15.0  # two reads of a marker this close are one place (a disc moves less in a frame or two)
MAX_SPEED_MM_S = 4000.0  # no flick is faster: a filter's velocity past it comes of a wrong sighting
SIZE_COST_MM = 25.0  # a blob twice (or half) the disc's own area costs like a blob this much further off
EXACT_ASSIGNMENT = 4  # up to this many discs of one colour (and 2 more blobs), every pairing is tried


@dataclass
class Track:
    piece: str
    x: float
    y: float
    vx: float = 0.0
    vy: float = 0.0
    t_us: int = 0
    unseen: int = 0  # frames since it was last seen
    contradicted: tuple[float, float] | None = None  # where its marker was last read far from it

    def predict(self, t_us: int) -> tuple[float, float]:
        """Where it is at ``t_us``: sliding on at its velocity, slowed by the mat's friction to a stop."""
        dt = max(t_us - self.t_us, 0) / 1e6
        speed = self.speed()
        if speed <= 0.0:
            return self.x, self.y
        dt = min(dt, speed / SLIDE_DECELERATION)
        travel = speed * dt - 0.5 * SLIDE_DECELERATION * dt * dt
        return self.x + self.vx / speed * travel, self.y + self.vy / speed * travel

    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)


class DiscTracker:
    def __init__(
        self,
        colours: dict[str, tuple[int, int, int]],
        *,
        readout_us: int,
        image_height: int,
        radii: dict[str, float] | None = None,
    ) -> None:
        self.colours = colours
        self.radii = radii or {}
        self.readout_us, self.image_height = readout_us, image_height
        self.tracks: dict[str, Track] = {}

    def _row_delay_us(self, sighting: Sighting) -> float:
        return min(max(sighting.row / self.image_height, 0.0), 1.0) * self.readout_us

    def update(
        self,
        t_us: int,
        markers: list[Sighting],
        blobs_of: Callable[[tuple[int, int, int]], list[Sighting]],
        near: Callable[[tuple[int, int, int], float, float], Sighting | None] | None = None,
    ) -> dict[str, tuple[float, float, float, bool]]:
        """One frame: ``markers`` read in it; ``blobs_of(colour)`` searches it by colour when needed. Returns
        every disc seen: (x, y) brought to the frame's time, the µs after it that its row was exposed, and
        whether it was known by its marker."""
        seen: dict[str, Sighting] = {}
        for s in markers:
            assert s.piece is not None
            track = self.tracks.get(s.piece)
            if track is not None and math.dist(track.predict(t_us), (s.x_mm, s.y_mm)) > self._gate(
                track, t_us, MARKER_GATE_MM
            ):
                # Far from where its disc was heading: a misread, or the track followed a look-alike's
                # blob. The same marker twice running in the same place is no misread: the track moves.
                earlier, track.contradicted = track.contradicted, (s.x_mm, s.y_mm)
                if earlier is None or math.dist(earlier, (s.x_mm, s.y_mm)) > REREAD_MM:
                    continue
                track.x, track.y, track.vx, track.vy, track.t_us = s.x_mm, s.y_mm, 0.0, 0.0, t_us
            track = self.tracks.get(s.piece)
            if track is not None:
                track.contradicted = None
            seen[s.piece] = s
        waiting: dict[tuple[int, int, int], list[Track]] = {}
        for piece, track in self.tracks.items():
            if piece not in seen:
                waiting.setdefault(self.colours[piece], []).append(track)
        # A disc never seen yet can be found by colour only if no other disc shares its colour.
        alone = [p for p, c in self.colours.items() if list(self.colours.values()).count(c) == 1]
        unknown = {self.colours[p]: p for p in alone if p not in self.tracks and p not in seen}
        for colour in sorted(set(waiting) | set(unknown)):
            blobs = [
                b
                for b in blobs_of(colour)
                if all(math.dist((b.x_mm, b.y_mm), (s.x_mm, s.y_mm)) > 10.0 for s in seen.values())
            ]
            whole = [b for b in blobs if not b.merged]
            for track, blob in self._assign(t_us, waiting.get(colour, []), whole):
                seen[track.piece] = blob
            # Discs touching a look-alike show as one blob: each is looked for where it was heading.
            for track in waiting.get(colour, []):
                if track.piece in seen or near is None:
                    continue
                px, py = track.predict(t_us)
                gate = self._gate(track, t_us, COLOUR_GATE_MM)
                if any(b.merged and math.dist((b.x_mm, b.y_mm), (px, py)) <= gate + 40.0 for b in blobs):
                    found = near(colour, px, py)
                    if found is not None and math.dist((found.x_mm, found.y_mm), (px, py)) <= gate:
                        seen[track.piece] = found
            if colour in unknown and len(blobs) == 1:
                seen[unknown[colour]] = blobs[0]
        out = {}
        for piece, s in seen.items():
            out[piece] = (*self.observe(piece, s, t_us), self._row_delay_us(s), s.piece is not None)
        for piece, track in self.tracks.items():
            if piece not in seen:
                track.unseen += 1
        return out

    def _gate(self, track: Track, t_us: int, base: float) -> float:
        if base == COLOUR_GATE_MM and list(self.colours.values()).count(self.colours[track.piece]) == 1:
            return ALONE_GATE_MM  # no other disc has its colour: a blob of it anywhere near is this one
        travel = track.speed() * max(t_us - track.t_us, 0) / 1e6
        # A disc at rest stays where it was while a hand hides it; only a moving one may have gone anywhere.
        growth = GATE_GROWTH_MM * track.unseen if track.speed() > RESTING_MM_S else 0.0
        return min(MAX_GATE_MM, base + 1.5 * travel + growth)

    def _assign(self, t_us: int, tracks: list[Track], blobs: list[Sighting]) -> list[tuple[Track, Sighting]]:
        if not tracks or not blobs:
            return []
        dist = [[math.dist(t.predict(t_us), (b.x_mm, b.y_mm)) for b in blobs] for t in tracks]
        cost = [
            [d + self._size_cost(t, b) for d, b in zip(row, blobs, strict=True)]
            for row, t in zip(dist, tracks, strict=True)
        ]
        gates = [self._gate(t, t_us, COLOUR_GATE_MM) for t in tracks]

        def pairs_of(order: tuple[int | None, ...]) -> list[tuple[int, int]]:
            return [(i, j) for i, j in enumerate(order) if j is not None and dist[i][j] <= gates[i]]

        if len(tracks) <= EXACT_ASSIGNMENT and len(blobs) <= EXACT_ASSIGNMENT + 2:
            # Every way of giving each track a different blob or none: most pairs first, then least distance.
            options = list(range(len(blobs))) + [None] * len(tracks)
            best: list[tuple[int, int]] = []
            best_key = (0, 0.0)
            for order in set(itertools.permutations(options, len(tracks))):
                pairs = pairs_of(order)
                key = (len(pairs), -sum(cost[i][j] for i, j in pairs))
                if key > best_key or not best:
                    best, best_key = pairs, key
            return [(tracks[i], blobs[j]) for i, j in best]
        chosen: list[tuple[Track, Sighting]] = []
        used_t: set[int] = set()
        used_b: set[int] = set()
        for _, i, j in sorted((cost[i][j], i, j) for i in range(len(tracks)) for j in range(len(blobs))):
            if i not in used_t and j not in used_b and dist[i][j] <= gates[i]:
                used_t.add(i)
                used_b.add(j)
                chosen.append((tracks[i], blobs[j]))
        return chosen

    def _size_cost(self, track: Track, blob: Sighting) -> float:
        """Look-alike colours, different sizes (an orc beside a troll): a blob's area says which is which."""
        radius = self.radii.get(track.piece)
        if not radius or not blob.area_mm2 or blob.merged:
            return 0.0
        return SIZE_COST_MM * abs(math.log2(blob.area_mm2 / (math.pi * radius * radius)))

    def observe(self, piece: str, s: Sighting, t_us: int) -> tuple[float, float]:
        """A sighting of the piece at ``t_us`` folded into its track (a new one if it has none); its place."""
        track = self.tracks.get(piece)
        delay = self._row_delay_us(s)
        if track is None:
            self.tracks[piece] = Track(piece, s.x_mm, s.y_mm, t_us=t_us)
            return s.x_mm, s.y_mm
        # The sighting is of the moment its row was exposed; the frame's time is its first row's.
        x = s.x_mm - track.vx * delay / 1e6
        y = s.y_mm - track.vy * delay / 1e6
        px, py = track.predict(t_us)
        dt = max(t_us - track.t_us, 1) / 1e6
        rx, ry = x - px, y - py
        track.x, track.y = px + ALPHA * rx, py + ALPHA * ry
        track.vx, track.vy = track.vx + BETA * rx / dt, track.vy + BETA * ry / dt
        speed = track.speed()
        if speed > MAX_SPEED_MM_S:
            track.vx, track.vy = track.vx * MAX_SPEED_MM_S / speed, track.vy * MAX_SPEED_MM_S / speed
        if track.unseen > 3:  # back after a long gap: the old velocity says nothing
            track.vx = track.vy = 0.0
        track.t_us, track.unseen = t_us, 0
        return x, y
