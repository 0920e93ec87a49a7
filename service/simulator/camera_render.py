"""Video of the simulated mat, as an overhead camera would film it: the test bed of service/camera.

The world films each shot (``ShotRecord.frames``: every piece's true place at fine time steps); this module
draws frames from it: the mat with its fiducials (service/camera/layout.py), each disc in its colour with its
marker, seen through a slightly tilted camera with a barrel lens, under uneven light with a glare spot, with
sensor noise, motion blur over the exposure, a rolling shutter (each row exposed a little later than the one
above), the flicking hand and now and then a player's arm over the mat. A bumped camera moves its view.

Frames carry the camera's own clock (the board's plus an offset the vision side must estimate) and reach the
vision code only through the frame interface (service/camera/capture.py); the true places stay here, for the
tests and the benchmark. Needs the ``camera`` extra (OpenCV, NumPy).
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from service.camera.capture import Frame
from service.camera.layout import (
    DICTIONARY,
    DISC_MARKER_MARGIN,
    FIDUCIAL_SIZE_MM,
    MAT_MARKER_IDS,
    DiscLook,
    MatLayout,
)
from service.camera.mapping import camera_nadir
from service.simulator.table_edges import ShotRecord

VIEW_MARGIN_MM = 85.0  # the camera sees this far past the playing area (the fiducials and the walls' gap)
CANVAS_MARGIN_MM = 170.0
MAT_BGR = (70, 95, 60)  # dark green neoprene
BORDER_BGR = (215, 215, 210)  # the pale border strip the fiducials are printed on
SKIN_BGR = (120, 150, 205)

PlacesAt = Callable[[float], dict[str, tuple[float, float]]]


@dataclass(frozen=True)
class RenderSettings:
    width: int = 1152  # a 4:3 crop of a Camera Module 3's 1536x864 120 fps mode
    height: int = 864
    fps: float = 120.0
    exposure_s: float = 0.002
    readout_s: float = 0.004  # rolling shutter: the last row is exposed this long after the first
    tilt: float = 0.05  # the far side of the view this much narrower than the near side (perspective)
    roll_deg: float = 1.5  # the camera turned a little about its axis
    k1: float = -0.06  # radial lens distortion (negative: barrel)
    noise: float = 3.0  # sensor noise, grey levels (1 σ)
    light: float = 0.35  # light falls off by up to this share across the view
    glare: float = 90.0  # the glare spot's peak, grey levels
    canvas_px_per_mm: float = 2.0
    clock_offset_us: int = 3_217_000  # the camera's clock minus the board's
    dropped_frames: float = 0.0  # share of frames the camera loses
    hand_s: float = 0.012  # the flicking finger stays over the disc this long after the flick
    arm_probability: float = 0.0  # a player's arm over the mat during a shot
    seed: int = 0
    camera_height_mm: float = 1500.0  # the lens above the mat: discs' tops (10 mm up) are seen from here


@dataclass
class RenderedFrame:
    frame: Frame
    board_us: int  # the exposure's centre (first row) on the board's clock
    truth: dict[str, tuple[float, float]]  # every piece's true place at that moment
    occluded: set[str] = field(default_factory=set)  # pieces under a hand or an arm


class ShotMotion:
    """Every piece's true place at any time of one shot, interpolated between the world's frames."""

    def __init__(self, record: ShotRecord) -> None:
        if not record.frames:
            raise ValueError("the shot was not filmed: set the world's frame_period_s")
        self.times = [t for t, _ in record.frames]
        self.places = [p for _, p in record.frames]
        self.duration_s = self.times[-1]

    def at(self, t_s: float) -> dict[str, tuple[float, float]]:
        if t_s <= 0.0:
            return dict(self.places[0])
        i = bisect.bisect_right(self.times, t_s)
        if i >= len(self.times):
            return dict(self.places[-1])
        t0, t1 = self.times[i - 1], self.times[i]
        a, b = self.places[i - 1], self.places[i]
        w = (t_s - t0) / (t1 - t0) if t1 > t0 else 0.0
        return {
            p: (a[p][0] + w * (b[p][0] - a[p][0]), a[p][1] + w * (b[p][1] - a[p][1])) for p in b if p in a
        }


class CameraRenderer:
    def __init__(self, layout: MatLayout, looks: dict[str, DiscLook], settings: RenderSettings | None = None):
        self.layout, self.looks = layout, looks
        self.s = settings or RenderSettings()
        self.rng = random.Random(self.s.seed)
        self.np_rng = np.random.default_rng(self.s.seed)
        self.k = self.s.canvas_px_per_mm
        self._dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
        self.background = self._draw_background()
        self.sprites = {p: self._draw_sprite(look) for p, look in looks.items()}
        self.pose_shift = (0.0, 0.0, 0.0)  # a bump: (dx px, dy px, turn deg)
        self._set_pose()
        self._light = self._lighting()
        # Noise fields drawn once and picked at random per frame, as saturating additions and subtractions
        # (the noise is not what is measured here; drawing it afresh per frame would cost most of a frame).
        self._noise = []
        for _ in range(4):
            field_ = self.np_rng.normal(0.0, self.s.noise, (self.s.height, self.s.width, 3))
            self._noise.append(
                (np.clip(field_, 0, 255).astype(np.uint8), np.clip(-field_, 0, 255).astype(np.uint8))
            )
        self._canvas = self.background.copy()
        self._dirty: list[tuple[int, int, int, int]] = []  # regions drawn on the canvas last frame
        self.frame_index = 0
        self.next_board_us: int | None = None

    # ---- the camera's geometry ----

    def _set_pose(self) -> None:
        s, m = self.s, VIEW_MARGIN_MM
        w, h = self.layout.width_mm, self.layout.height_mm
        region = np.array([[-m, -m], [w + m, -m], [w + m, h + m], [-m, h + m]], np.float32)
        scale = min(s.width / (w + 2 * m), s.height / (h + 2 * m)) * 0.97
        cx, cy = s.width / 2 + self.pose_shift[0], s.height / 2 + self.pose_shift[1]
        hw, hh = (w + 2 * m) * scale / 2, (h + 2 * m) * scale / 2
        far = 1.0 - s.tilt
        corners = [(-hw, -hh), (hw, -hh), (hw * far, hh), (-hw * far, hh)]
        turn = math.radians(s.roll_deg + self.pose_shift[2])
        c, n = math.cos(turn), math.sin(turn)
        image = np.array([[cx + x * c - y * n, cy + x * n + y * c] for x, y in corners], np.float32)
        self.homography = cv2.getPerspectiveTransform(region, image)
        # The camera is the pinhole behind this view at the set height (mapping.camera_nadir): a disc's top
        # is drawn where the ray from the lens through it meets the mat, as the camera sees it.
        self.nadir = camera_nadir(
            np.linalg.inv(self.homography), (s.width / 2, s.height / 2), s.camera_height_mm
        )
        self._maps = self._remap_tables()

    def _distort(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx, cy, f = self.s.width / 2, self.s.height / 2, math.hypot(self.s.width, self.s.height) / 2
        x, y = (u - cx) / f, (v - cy) / f
        g = 1.0 + self.s.k1 * (x * x + y * y)
        return cx + x * g * f, cy + y * g * f

    def _undistort(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx, cy, f = self.s.width / 2, self.s.height / 2, math.hypot(self.s.width, self.s.height) / 2
        xd, yd = (u - cx) / f, (v - cy) / f
        x, y = xd, yd
        for _ in range(6):
            g = 1.0 + self.s.k1 * (x * x + y * y)
            x, y = xd / g, yd / g
        return cx + x * f, cy + y * f

    def project(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Where a point of the mat lands in the image (px)."""
        p = cv2.perspectiveTransform(np.array([[[x_mm, y_mm]]], np.float64), self.homography)[0, 0]
        u, v = self._distort(np.array([p[0]]), np.array([p[1]]))
        return float(u[0]), float(v[0])

    def _remap_tables(self) -> tuple[np.ndarray, np.ndarray]:
        v, u = np.mgrid[0 : self.s.height, 0 : self.s.width].astype(np.float64)
        uu, vv = self._undistort(u, v)
        pts = np.stack([uu, vv], axis=-1).reshape(-1, 1, 2)
        mm = cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(
            self.s.height, self.s.width, 2
        )
        map_x = ((mm[..., 0] + CANVAS_MARGIN_MM) * self.k).astype(np.float32)
        map_y = ((mm[..., 1] + CANVAS_MARGIN_MM) * self.k).astype(np.float32)
        return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)

    def bump(self, dx_px: float, dy_px: float, turn_deg: float = 0.0) -> None:
        """Someone knocked the camera: the view moves from the next frame on."""
        a, b, c = self.pose_shift
        self.pose_shift = (a + dx_px, b + dy_px, c + turn_deg)
        self._set_pose()

    # ---- what is drawn ----

    def _to_canvas(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm + CANVAS_MARGIN_MM) * self.k, (y_mm + CANVAS_MARGIN_MM) * self.k

    def _draw_background(self) -> np.ndarray:
        w, h, k = self.layout.width_mm, self.layout.height_mm, self.k
        cw, ch = round((w + 2 * CANVAS_MARGIN_MM) * k), round((h + 2 * CANVAS_MARGIN_MM) * k)
        canvas = np.empty((ch, cw, 3), np.uint8)
        canvas[:] = BORDER_BGR
        x0, y0 = self._to_canvas(0, 0)
        x1, y1 = self._to_canvas(w, h)
        canvas[round(y0) : round(y1), round(x0) : round(x1)] = MAT_BGR
        # The neoprene's weave and print: low-contrast blotches, so the background is not a flat colour.
        texture = self.np_rng.normal(0.0, 6.0, (ch // 8 + 1, cw // 8 + 1)).astype(np.float32)
        texture = cv2.resize(texture, (cw, ch), interpolation=cv2.INTER_CUBIC)[..., None]
        canvas = np.clip(canvas.astype(np.float32) + texture, 0, 255).astype(np.uint8)
        side = round(FIDUCIAL_SIZE_MM * k)
        for marker_id in MAT_MARKER_IDS:
            cx, cy = self._to_canvas(*self.layout.fiducial_centres()[marker_id])
            marker = cv2.aruco.generateImageMarker(self._dictionary, marker_id, side)
            top, left = round(cy - side / 2), round(cx - side / 2)
            canvas[top : top + side, left : left + side] = marker[..., None]
        return np.asarray(canvas, np.uint8)

    def _draw_sprite(self, look: DiscLook) -> tuple[np.ndarray, np.ndarray]:
        """The disc seen from above at the canvas's scale: its colour and the alpha of its round edge."""
        k, r = self.k, look.radius_mm * self.k
        size = math.ceil(2 * r) + 3
        c = (size - 1) / 2
        colour = np.empty((size, size, 3), np.float32)
        colour[:] = look.colour_bgr
        yy, xx = np.mgrid[0:size, 0:size]
        dist = np.hypot(xx - c, yy - c)
        colour *= np.clip(1.0 - 0.35 * np.clip((dist - (r - 1.5 * k)) / (1.5 * k), 0, 1), 0, 1)[..., None]
        if look.marker_id is not None:
            side = round(look.marker_mm * k)
            margin = round(side * DISC_MARKER_MARGIN)
            patch = np.full((side + 2 * margin, side + 2 * margin), 255, np.uint8)
            patch[margin : margin + side, margin : margin + side] = cv2.aruco.generateImageMarker(
                self._dictionary, look.marker_id, side
            )
            turn = self.rng.uniform(0.0, 360.0)
            p = patch.shape[0]
            m = cv2.getRotationMatrix2D(((p - 1) / 2, (p - 1) / 2), turn, 1.0)
            m[:, 2] += c - (p - 1) / 2
            ink = cv2.warpAffine(patch, m, (size, size), flags=cv2.INTER_LINEAR, borderValue=0)
            inside = cv2.warpAffine(np.ones_like(patch, np.float32), m, (size, size), borderValue=0)
            colour = colour * (1 - inside[..., None]) + (ink.astype(np.float32) * inside)[..., None]
        alpha = np.clip(r + 0.5 - dist, 0.0, 1.0).astype(np.float32)
        return colour * alpha[..., None], alpha

    def _stamp(self, canvas: np.ndarray, piece: str, places: list[tuple[float, float]]) -> None:
        """The disc at each of ``places`` (its positions during the exposure), averaged: motion blur."""
        colour, alpha = self.sprites[piece]
        size = alpha.shape[0]
        spots = [self._to_canvas(*self._top_seen_at(x, y, self.looks[piece].height_mm)) for x, y in places]
        left = math.floor(min(x for x, _ in spots) - size / 2)
        top = math.floor(min(y for _, y in spots) - size / 2)
        right = math.ceil(max(x for x, _ in spots) + size / 2) + 1
        bottom = math.ceil(max(y for _, y in spots) + size / 2) + 1
        ch, cw = canvas.shape[:2]
        if left < 0 or top < 0 or right > cw or bottom > ch:
            return  # off the canvas: a disc that left the table
        acc_c = np.zeros((bottom - top, right - left, 3), np.float32)
        acc_a = np.zeros((bottom - top, right - left), np.float32)
        for x, y in spots:
            ox, oy = x - (size - 1) / 2 - left, y - (size - 1) / 2 - top
            m = np.array([[1, 0, ox], [0, 1, oy]], np.float32)
            dsize = (right - left, bottom - top)
            acc_c += cv2.warpAffine(colour, m, dsize, flags=cv2.INTER_LINEAR)
            acc_a += cv2.warpAffine(alpha, m, dsize, flags=cv2.INTER_LINEAR)
        n = len(spots)
        self._dirty.append((top, bottom, left, right))
        region: np.ndarray = canvas[top:bottom, left:right].astype(np.float32)
        region = region * (1.0 - acc_a / n)[..., None] + acc_c / n
        canvas[top:bottom, left:right] = np.clip(region, 0, 255).astype(np.uint8)

    def _top_seen_at(self, x_mm: float, y_mm: float, top_mm: float) -> tuple[float, float]:
        """Where on the mat's plane the camera sees a disc's top that stands at (x, y)."""
        (nx, ny), out = self.nadir, self.s.camera_height_mm / (self.s.camera_height_mm - top_mm)
        return nx + (x_mm - nx) * out, ny + (y_mm - ny) * out

    def _draw_hand(self, canvas: np.ndarray, occ: Occluder) -> None:
        """A hand with its arm reaching in from behind it. The flicking hand's finger rests on the disc's
        back edge; a player's hand over the mat covers whatever is under it."""
        k, x, y, towards = self.k, occ.x_mm, occ.y_mm, occ.towards
        ux, uy = math.cos(towards), math.sin(towards)
        palm = (x - ux * 75, y - uy * 75) if occ.flick else (x, y)
        tip = (x - ux * 10, y - uy * 10) if occ.flick else (x + ux * 60, y + uy * 60)
        back = (palm[0] - ux * 400, palm[1] - uy * 400)
        if occ.arm:
            cv2.line(
                canvas, _pt(self._to_canvas(*palm)), _pt(self._to_canvas(*back)), SKIN_BGR, round(80 * k)
            )
        axes = (round(45 * k), round(36 * k))
        cv2.ellipse(
            canvas,
            _pt(self._to_canvas(*palm)),
            axes,
            math.degrees(towards),
            0,
            360,
            SKIN_BGR,
            -1,
            cv2.LINE_AA,
        )
        cv2.line(canvas, _pt(self._to_canvas(*palm)), _pt(self._to_canvas(*tip)), SKIN_BGR, round(16 * k))

    def _lighting(self) -> tuple[np.ndarray, np.ndarray]:
        """The light's gain (0-255 for 0-1) and its glare spot (grey levels), as 8-bit images."""
        s = self.s
        v, u = np.mgrid[0 : s.height, 0 : s.width].astype(np.float32)
        lx, ly = s.width * 0.2, s.height * 0.1  # the lamp stands off one corner
        d = np.hypot(u - lx, v - ly) / math.hypot(s.width, s.height)
        gain = np.repeat((255.0 * (1.0 - s.light * d))[..., None], 3, axis=2)
        gx, gy = s.width * self.rng.uniform(0.3, 0.7), s.height * self.rng.uniform(0.3, 0.7)
        sigma = 0.06 * s.width
        glare = np.repeat(
            (s.glare * np.exp(-((u - gx) ** 2 + (v - gy) ** 2) / (2 * sigma * sigma)))[..., None], 3, axis=2
        )
        return np.clip(gain, 0, 255).astype(np.uint8), np.clip(glare, 0, 255).astype(np.uint8)

    # ---- frames ----

    def draw(self, places_at: PlacesAt, occluders: list[Occluder], t_s: float) -> tuple[np.ndarray, set[str]]:
        """One frame whose first row is exposed (centred) at ``t_s``: each disc drawn at the times its rows
        were exposed, blurred over the exposure; hands and arms on top."""
        s = self.s
        canvas = self._canvas
        for top, bottom, left, right in self._dirty:  # only what was drawn last frame goes back to the mat
            canvas[top:bottom, left:right] = self.background[top:bottom, left:right]
        self._dirty = []
        now = places_at(t_s)
        samples = 1
        for piece in sorted(now):
            if piece not in self.sprites:
                continue
            _, v = self.project(*now[piece])
            t_row = t_s + min(max(v / s.height, 0.0), 1.0) * s.readout_s
            ends = places_at(t_row - s.exposure_s / 2), places_at(t_row + s.exposure_s / 2)
            if piece not in ends[0] or piece not in ends[1]:
                continue
            travel = math.dist(ends[0][piece], ends[1][piece]) * self.k
            samples = min(16, max(1, math.ceil(travel / 1.5) + 1))
            times = [t_row + s.exposure_s * (i / max(samples - 1, 1) - 0.5) for i in range(samples)]
            if samples == 1:
                times = [t_row]
            self._stamp(canvas, piece, [places_at(t)[piece] for t in times])
        hidden: set[str] = set()
        for occ in occluders:
            if occ.start_s <= t_s <= occ.end_s:
                self._draw_hand(canvas, occ)
                self._dirty.append((0, canvas.shape[0], 0, canvas.shape[1]))  # an arm reaches far: all
                hidden |= {p for p, xy in now.items() if math.dist(xy, (occ.x_mm, occ.y_mm)) < occ.covers_mm}
        image = cv2.remap(canvas, *self._maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        image = cv2.GaussianBlur(image, (3, 3), 0.7)  # the lens is not perfectly sharp
        gain, glare = self._light
        up, down = self._noise[self.rng.randrange(len(self._noise))]
        image = cv2.add(cv2.multiply(image, gain, scale=1 / 255), glare)
        return cv2.subtract(cv2.add(image, up), down), hidden

    def film_shot(
        self, record: ShotRecord, start_us: int, *, pre_s: float = 0.08, post_s: float = 0.05
    ) -> list[RenderedFrame]:
        """The camera's frames around one shot that started at ``start_us`` on the board's clock. The camera
        keeps its own frame rhythm across shots; frames between shots are not rendered (the indices skip)."""
        motion = ShotMotion(record)
        period_us = 1e6 / self.s.fps
        first = start_us - round(pre_s * 1e6)
        if self.next_board_us is None:
            self.next_board_us = first + self.rng.randrange(round(period_us))
        if self.next_board_us < first:  # skip the idle time, keeping the rhythm
            skipped = math.floor((first - self.next_board_us) / period_us)
            self.next_board_us += round(skipped * period_us)
            self.frame_index += skipped
        occluders = self._occluders(record, motion)
        out = []
        end = start_us + round((motion.duration_s + post_s) * 1e6)
        while self.next_board_us <= end:
            t_board = self.next_board_us
            t_s = (t_board - start_us) / 1e6
            if self.rng.random() >= self.s.dropped_frames:
                image, hidden = self.draw(motion.at, occluders, t_s)
                frame = Frame(self.frame_index, t_board + self.s.clock_offset_us, image)
                out.append(RenderedFrame(frame, t_board, motion.at(t_s), hidden))
            self.frame_index += 1
            self.next_board_us = round(self.next_board_us + period_us)
        return out

    def _occluders(self, record: ShotRecord, motion: ShotMotion) -> list[Occluder]:
        x, y = record.flick_at
        # The hand comes in a moment before the flick (the camera saw the disc before it).
        hand = Occluder(x, y, record.angle_rad, -0.04, self.s.hand_s, arm=True, covers_mm=0.0, flick=True)
        found = [hand]
        if self.rng.random() < self.s.arm_probability:
            places = motion.at(motion.duration_s * self.rng.uniform(0.2, 0.8))
            target = places.get(record.flicked, record.flick_at)
            ax = target[0] + self.rng.gauss(0.0, 60.0)
            ay = target[1] + self.rng.gauss(0.0, 60.0)
            start = self.rng.uniform(0.0, max(motion.duration_s * 0.6, 0.02))
            found.append(
                Occluder(
                    ax,
                    ay,
                    self.rng.uniform(0, 2 * math.pi),
                    start,
                    start + self.rng.uniform(0.05, 0.3),
                    True,
                    70.0,
                )
            )
        return found


@dataclass(frozen=True)
class Occluder:
    x_mm: float
    y_mm: float
    towards: float  # the direction the hand points (rad)
    start_s: float
    end_s: float
    arm: bool
    covers_mm: float  # pieces this near its hand count as hidden (the flicking hand: none wholly)
    flick: bool = False  # the flicking hand, its finger on the disc at (x, y)


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])
