"""Hidden ground-truth tables: mats whose physics, piezos and geometry the attribution model is not told.

A benchmark whose ground truth uses the model's own constants measures the model against itself. Each hidden
table instead draws its constants from wide ranges (the ``*_RANGE`` values below): sliding friction,
restitutions and their fall-off with impact speed, the speed of sound in the mat, every piezo channel's lag
and gain, how loudly the mat carries impacts, whether a flick clicks, and real geometry — walls with gaps or
an open side, boxes standing on the mat at any angle. A trace from such a table carries only what a real mat
would tell the daemon: its size, the piezo positions, the walls and the fixed obstacles.

Nothing here may come from the daemon's model (model.py, evidence.py, config.py): the ranges are set from
what real tables plausibly span, centred roughly on the content files' estimates.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from service.mat.geometry import MatConfig, SensorConfig, load_mat, load_piece_classes, load_sensor_config
from service.mat.trace import FixedObstacle, WallSegment, box_corners, obstacle_to_json
from service.simulator.camera import CAMERA_QUALITIES, CameraTruth, draw_camera
from service.simulator.sensors import PiezoTruth
from service.simulator.shot_lab import ShotLab, SimulatedShot, populate_room, random_shot, tidy_after_shot
from service.simulator.table_edges import WALL_RADIUS_MM, Physics, point_polygon_distance, polygon_gap

# ---- what a hidden table draws (uniform unless said otherwise) ----
WAVE_SPEED_RANGE = (0.30, 1.00)  # mm/µs: neoprene on a wooden or a glass table, thick or thin
SLIDING_FRICTION_RANGE = (0.25, 0.50)
FRICTION_SPREAD = 0.20  # each piece's own friction ×U(0.8, 1.2)
FRICTION_VARIATION_RANGE = (0.0, 0.15)  # across the mat's surface
DISC_RESTITUTION_RANGE = (0.70, 0.95)  # each disc's elasticity (two discs meet at the product)
WALL_RESTITUTION_RANGE = (0.35, 0.80)  # the walls' elasticity
OBSTACLE_RESTITUTION_RANGE = (0.40, 0.80)  # the boxes' elasticity
RESTITUTION_FALLOFF_RANGE = (0.0, 0.15)  # share of restitution lost per m/s of impact speed
TIMING_OFFSET_SIGMA_US = 40.0  # each piezo channel's constant lag, N(0, σ)
GAIN_SIGMA = 0.25  # each piezo channel's gain, log-normal
AMPLITUDE_SCALE_RANGE = (0.5, 2.0)  # log-uniform: how loudly the mat carries impacts
DISC_DISC_COUPLING_RANGE = (0.15, 0.45)
TIMING_JITTER_RANGE = (20.0, 60.0)  # µs
FLICK_CLICK_PROBABILITY = 0.5  # per table: the players' flicks click audibly
FLICK_CLICK_RANGE = (0.05, 0.30)  # the click's impulse per unit of the flick's momentum
CLASSIC_WALLS_PROBABILITY = 0.5
OPEN_SIDE_PROBABILITY = 0.25  # over all tables; only tables without the classic walls have one
WALL_GAP_RANGE = (80.0, 250.0)  # mm, one gap in each of one or two sides
BOX_LENGTH_RANGE = (30.0, 200.0)
BOX_WIDTH_RANGE = (15.0, 40.0)
MAX_BOXES = 2
# Boxes keep off the mat's edge strips (where pieces are put back when they leave the mat, over the piezos)
# and leave room for the largest disc between themselves and the tagged obstacles.
EDGE_STRIP_MM = 60.0
BOX_CLEARANCE_MM = 50.0

# ---- with ``laws="varied"``: the laws themselves differ from the model's, not only their constants ----
FALLOFF_LAWS = ("hyperbolic", "exponential", "inverse_sqrt")  # amplitude with distance
FALLOFF_LENGTH_RANGE = (200.0, 800.0)  # mm
RISE_TIME_RANGE = (0.0, 80.0)  # µs: a soft hit crosses the piezo's threshold later than a hard one
TIMING_TAIL_DOFS = (0.0, 3.0, 5.0)  # Gaussian timing noise, or Student-t with these degrees of freedom
DISC_DISC_FRICTION_RANGE = (0.05, 0.50)  # tangential: spin and throw on glancing hits
MASS_SPREAD = 0.15  # each piece's mass ×U(0.85, 1.15) around the catalogue's
RSSI_NOISE_SCALE_RANGE = (1.0, 1.8)
# ---- with ``laws="impulse"``: the varied laws, on another physics engine (impulse_world.py) ----
FLICK_SPIN_RANGE = (1.0, 15.0)  # rad/s: the spread of the spin a flick gives
SPEED_FRICTION_SLOPE_RANGE = (-0.05, 0.20)  # sliding friction's change per m/s above 1 m/s
PAIR_DISC_FRICTION_RANGE = (0.10, 0.50)  # the impulse engine's disc-on-disc Coulomb friction (a pair's)
LAWS = ("shared", "varied", "impulse")
# ---- with a camera (``sensors="camera"``): its real noise and faults, drawn from their own stream ----
CAMERA_SIGMA_RANGE = (0.3, 1.5)  # mm per axis and frame (the camera states 0.5)
CAMERA_DROPPED_RANGE = (0.0, 0.05)  # share of frames lost
CAMERA_HAND_RANGE = (0.0, 0.06)  # s the flicking hand hides the flicked disc
CAMERA_OFFSET_MAX_MM = 1.5  # its registration against the mat: up to this far off, per axis
CAMERA_ARM_RANGE = (0.0, 0.3)  # share of shots with a player's arm over part of the mat for 50-300 ms

SIDES = ("bottom", "right", "top", "left")
MIN_MONSTERS = 2  # fewer left standing and the players set up the next room
KILL_PROBABILITY = 0.4  # a monster hit directly by the heroes' side dies (leaves the table) this often
FROZEN_ROOMS, SHADOW_ROOMS = 0.15, 0.10  # shares of rooms with a frozen / a shadow monster, as in the bench
DEFAULT_PIECES = (10, 20, 30)


def drawn_ranges() -> dict[str, Any]:
    """The ranges and shares tables are drawn from (public: they describe a set, not any one table)."""
    return {
        "wave_speed_mm_per_us": WAVE_SPEED_RANGE,
        "sliding_friction": SLIDING_FRICTION_RANGE,
        "friction_spread": FRICTION_SPREAD,
        "friction_variation": FRICTION_VARIATION_RANGE,
        "disc_restitution": DISC_RESTITUTION_RANGE,
        "wall_restitution": WALL_RESTITUTION_RANGE,
        "obstacle_restitution": OBSTACLE_RESTITUTION_RANGE,
        "restitution_falloff_per_m_s": RESTITUTION_FALLOFF_RANGE,
        "timing_offset_sigma_us": TIMING_OFFSET_SIGMA_US,
        "gain_lognormal_sigma": GAIN_SIGMA,
        "amplitude_scale_log_uniform": AMPLITUDE_SCALE_RANGE,
        "disc_disc_coupling": DISC_DISC_COUPLING_RANGE,
        "timing_jitter_us": TIMING_JITTER_RANGE,
        "flick_click_probability": FLICK_CLICK_PROBABILITY,
        "flick_click": FLICK_CLICK_RANGE,
        "classic_walls_probability": CLASSIC_WALLS_PROBABILITY,
        "open_side_probability": OPEN_SIDE_PROBABILITY,
        "wall_gap_mm": WALL_GAP_RANGE,
        "boxes": (0, MAX_BOXES),
        "box_length_mm": BOX_LENGTH_RANGE,
        "box_width_mm": BOX_WIDTH_RANGE,
        "box_edge_strip_mm": EDGE_STRIP_MM,
        "box_clearance_mm": BOX_CLEARANCE_MM,
        "laws_varied": {
            "falloff_laws": FALLOFF_LAWS,
            "falloff_length_mm": FALLOFF_LENGTH_RANGE,
            "rise_time_us": RISE_TIME_RANGE,
            "timing_tail_dofs": TIMING_TAIL_DOFS,
            "disc_disc_friction": DISC_DISC_FRICTION_RANGE,
            "mass_spread": MASS_SPREAD,
            "rssi_noise_scale": RSSI_NOISE_SCALE_RANGE,
        },
        "laws_impulse": {
            "engine": "impulse_world (no pymunk): coupled sliding-spinning friction, impulse contacts",
            "flick_spin_rad_s": FLICK_SPIN_RANGE,
            "speed_friction_slope_per_m_s": SPEED_FRICTION_SLOPE_RANGE,
            "disc_disc_friction_pair": PAIR_DISC_FRICTION_RANGE,
        },
        "camera": {
            "sigma_mm": CAMERA_SIGMA_RANGE,
            "dropped_frames": CAMERA_DROPPED_RANGE,
            "hand_s": CAMERA_HAND_RANGE,
            "offset_max_mm": CAMERA_OFFSET_MAX_MM,
            "arm_share_of_shots": CAMERA_ARM_RANGE,
            **CAMERA_QUALITIES,
        },
    }


@dataclass(frozen=True)
class HiddenTable:
    """One table's hidden ground truth. Its constants are for reports; ``lab`` plays shots on it."""

    mat: MatConfig  # friction, its variation across the mat and the walls' restitution replaced
    sensors: SensorConfig  # the reference configuration with this mat's wave speed, jitter and coupling
    physics: Physics
    piezo_truth: PiezoTruth
    walls: tuple[WallSegment, ...] | None  # inner faces; None: the classic closed walls
    obstacles: tuple[FixedObstacle, ...]
    layout: str  # the walls in words: "closed", or each side that differs
    boxes: tuple[dict[str, float], ...]  # the boxes as drawn (centre, length, width, angle), for reports
    engine: str = "pymunk"  # or "impulse": the physics of impulse_world.py
    camera: CameraTruth | None = None  # where the sensors include an overhead camera

    def lab(self, seed: int) -> ShotLab:
        return ShotLab(
            engine=self.engine,
            camera_truth=self.camera,
            seed=seed,
            sensor_config=self.sensors,
            mat=self.mat,
            walls=self.walls,
            fixed_obstacles=self.obstacles,
            physics=self.physics,
            piezo_truth=self.piezo_truth,
        )

    def describe(self) -> dict[str, Any]:
        """The hidden constants as plain JSON values."""
        pz, truth = self.sensors.piezo, self.piezo_truth
        return {
            "sliding_friction": self.mat.sliding_friction,
            "friction_spread": self.physics.friction_spread,
            "friction_variation": self.mat.friction_variation,
            "disc_restitution": self.physics.disc_elasticity,
            "wall_restitution": self.mat.wall_restitution,
            "obstacle_restitution": self.physics.obstacle_elasticity,
            "restitution_falloff_per_m_s": self.physics.restitution_falloff_per_m_s,
            "wave_speed_mm_per_us": pz.wave_speed_mm_per_us,
            "timing_jitter_us": pz.timing_jitter_us,
            "disc_disc_coupling": pz.disc_disc_coupling,
            "timing_offsets_us": {str(k): v for k, v in sorted(truth.timing_offsets_us.items())},
            "gains": {str(k): v for k, v in sorted(truth.gains.items())},
            "amplitude_scale": truth.amplitude_scale,
            "flick_click": truth.flick_click,
            "falloff_law": truth.falloff_law,
            "falloff_mm": truth.falloff_mm or pz.amplitude_falloff_mm,
            "rise_time_us": truth.rise_time_us,
            "timing_tail_dof": truth.timing_tail_dof,
            "rssi_noise_scale": truth.rssi_noise_scale,
            "disc_disc_friction": self.physics.disc_disc_friction,
            "mass_spread": self.physics.mass_spread,
            "engine": self.engine,
            "flick_spin_rad_s": self.physics.flick_spin_rad_s,
            "speed_friction_slope_per_m_s": self.physics.speed_friction_slope,
            "camera": None if self.camera is None else dataclasses.asdict(self.camera),
            "walls_layout": self.layout,
            "walls": None
            if self.walls is None
            else [[w.x1_mm, w.y1_mm, w.x2_mm, w.y2_mm] for w in self.walls],
            "boxes": list(self.boxes),
            "obstacles": [obstacle_to_json(o) for o in self.obstacles],
        }


def draw_hidden_table(
    rng: random.Random,
    *,
    mat: MatConfig | None = None,
    sensors: SensorConfig | None = None,
    laws_rng: random.Random | None = None,
    engine_rng: random.Random | None = None,
    camera_rng: random.Random | None = None,
    camera_quality: str = "study",
) -> HiddenTable:
    """Draw one table's hidden constants; the NFC grid and the piezo layout stay the reference ones.

    With ``laws_rng`` the laws differ too (``laws="varied"``): how loudness falls with distance, a wave
    front's rise time, heavy-tailed timing noise, spin-giving disc-disc friction, each piece's own mass and
    noisier NFC signals. They are drawn from their own stream, so a set's other constants stay the same.
    """
    base_mat = mat or load_mat()
    base_sensors = sensors or load_sensor_config("reference")
    u = rng.uniform
    table_mat = dataclasses.replace(
        base_mat,
        sliding_friction=u(*SLIDING_FRICTION_RANGE),
        friction_variation=u(*FRICTION_VARIATION_RANGE),
        wall_restitution=u(*WALL_RESTITUTION_RANGE),
    )
    physics = Physics(
        disc_elasticity=u(*DISC_RESTITUTION_RANGE),
        friction_spread=FRICTION_SPREAD,
        restitution_falloff_per_m_s=u(*RESTITUTION_FALLOFF_RANGE),
        obstacle_elasticity=u(*OBSTACLE_RESTITUTION_RANGE),
    )
    table_sensors = dataclasses.replace(
        base_sensors,
        piezo=dataclasses.replace(
            base_sensors.piezo,
            wave_speed_mm_per_us=u(*WAVE_SPEED_RANGE),
            timing_jitter_us=u(*TIMING_JITTER_RANGE),
            disc_disc_coupling=u(*DISC_DISC_COUPLING_RANGE),
        ),
    )
    sensor_ids = [i for i, _, _ in base_sensors.piezo_positions(base_mat)]
    low, high = AMPLITUDE_SCALE_RANGE
    piezo_truth = PiezoTruth(
        timing_offsets_us={i: rng.gauss(0.0, TIMING_OFFSET_SIGMA_US) for i in sensor_ids},
        gains={i: rng.lognormvariate(0.0, GAIN_SIGMA) for i in sensor_ids},
        amplitude_scale=math.exp(u(math.log(low), math.log(high))),
        flick_click=u(*FLICK_CLICK_RANGE) if rng.random() < FLICK_CLICK_PROBABILITY else 0.0,
    )
    walls, layout = _draw_walls(rng, base_mat)
    obstacles, boxes = _draw_boxes(rng, base_mat)
    if laws_rng is not None:
        physics, piezo_truth = _varied_laws(laws_rng, physics, piezo_truth)
    engine = "pymunk"
    if engine_rng is not None:
        engine = "impulse"
        physics = _impulse_physics(engine_rng, physics)
    camera = None
    if base_sensors.camera is not None:
        camera = _camera_truth(camera_rng or random.Random(rng.random()), camera_quality)
    return HiddenTable(
        table_mat, table_sensors, physics, piezo_truth, walls, obstacles, layout, boxes, engine, camera
    )


def _varied_laws(
    laws_rng: random.Random, physics: Physics, piezo_truth: PiezoTruth
) -> tuple[Physics, PiezoTruth]:
    """``laws="varied"``: spin-giving disc-disc friction, each piece's own mass, and the sensors' laws."""
    lu = laws_rng.uniform
    physics = dataclasses.replace(
        physics, disc_disc_friction=lu(*DISC_DISC_FRICTION_RANGE), mass_spread=MASS_SPREAD
    )
    piezo_truth = dataclasses.replace(
        piezo_truth,
        falloff_law=laws_rng.choice(FALLOFF_LAWS),
        falloff_mm=lu(*FALLOFF_LENGTH_RANGE),
        rise_time_us=lu(*RISE_TIME_RANGE),
        timing_tail_dof=laws_rng.choice(TIMING_TAIL_DOFS),
        rssi_noise_scale=lu(*RSSI_NOISE_SCALE_RANGE),
    )
    return physics, piezo_truth


def _impulse_physics(engine_rng: random.Random, physics: Physics) -> Physics:
    """``laws="impulse"``: what only impulse_world.py reads (pair friction, flick spin, the speed law)."""
    eu = engine_rng.uniform
    return dataclasses.replace(
        physics,
        disc_disc_friction=eu(*PAIR_DISC_FRICTION_RANGE),
        flick_spin_rad_s=eu(*FLICK_SPIN_RANGE),
        speed_friction_slope=eu(*SPEED_FRICTION_SLOPE_RANGE),
    )


def _camera_truth(camera_rng: random.Random, quality: str) -> CameraTruth:
    """The overhead camera's hidden qualities: drawn for a named quality, or from the study's ranges."""
    if quality != "study":
        return draw_camera(camera_rng, quality)
    cu = camera_rng.uniform
    return CameraTruth(
        sigma_mm=cu(*CAMERA_SIGMA_RANGE),
        dropped_frames=cu(*CAMERA_DROPPED_RANGE),
        hand_s=cu(*CAMERA_HAND_RANGE),
        offset_mm=(cu(-1, 1) * CAMERA_OFFSET_MAX_MM, cu(-1, 1) * CAMERA_OFFSET_MAX_MM),
        arm_probability=cu(*CAMERA_ARM_RANGE),
    )


def classic_wall_faces(mat: MatConfig) -> tuple[WallSegment, ...]:
    """Inner faces of the classic closed walls, bottom, right, top, left (anticlockwise)."""
    g, w, h = mat.wall_gap_mm - WALL_RADIUS_MM, mat.width_mm, mat.height_mm
    c = [(-g, -g), (w + g, -g), (w + g, h + g), (-g, h + g)]
    return tuple(WallSegment(*c[i], *c[(i + 1) % 4]) for i in range(4))


def _draw_walls(rng: random.Random, mat: MatConfig) -> tuple[tuple[WallSegment, ...] | None, str]:
    if rng.random() < CLASSIC_WALLS_PROBABILITY:
        return None, "closed"
    faces = classic_wall_faces(mat)
    gapped = rng.sample(range(4), rng.choice((1, 2)))
    open_side = None
    if rng.random() < OPEN_SIDE_PROBABILITY / (1.0 - CLASSIC_WALLS_PROBABILITY):
        open_side = rng.choice([i for i in range(4) if i not in gapped])
    segments: list[WallSegment] = []
    words: list[str] = []
    for i, face in enumerate(faces):
        if i == open_side:
            words.append(f"{SIDES[i]} open")
            continue
        if i not in gapped:
            segments.append(face)
            continue
        # The gap lies within the mat's own stretch of the side, so a piece can reach it from the mat.
        span = mat.width_mm if i % 2 == 0 else mat.height_mm
        gap = rng.uniform(*WALL_GAP_RANGE)
        centre = rng.uniform(gap / 2, span - gap / 2)
        along = centre if i < 2 else span - centre  # faces run anticlockwise: top and left run backwards
        length = math.hypot(face.x2_mm - face.x1_mm, face.y2_mm - face.y1_mm)
        start = along + (length - span) / 2 - gap / 2  # from the face's first end
        segments.append(_part(face, 0.0, start / length))
        segments.append(_part(face, (start + gap) / length, 1.0))
        words.append(f"{SIDES[i]} gap {gap:.0f} mm at {centre - gap / 2:.0f}-{centre + gap / 2:.0f}")
    return tuple(segments), "; ".join(words)


def _part(face: WallSegment, a: float, b: float) -> WallSegment:
    dx, dy = face.x2_mm - face.x1_mm, face.y2_mm - face.y1_mm
    return WallSegment(face.x1_mm + a * dx, face.y1_mm + a * dy, face.x1_mm + b * dx, face.y1_mm + b * dy)


def _draw_boxes(
    rng: random.Random, mat: MatConfig
) -> tuple[tuple[FixedObstacle, ...], tuple[dict[str, float], ...]]:
    tagged_radius = _tagged_obstacle_radius()
    obstacles: list[FixedObstacle] = []
    boxes: list[dict[str, float]] = []
    for _ in range(rng.randint(0, MAX_BOXES)):
        for _attempt in range(500):
            length, width = rng.uniform(*BOX_LENGTH_RANGE), rng.uniform(*BOX_WIDTH_RANGE)
            angle = rng.uniform(0.0, 180.0)
            x, y = rng.uniform(0, mat.width_mm), rng.uniform(0, mat.height_mm)
            corners = box_corners(x, y, length, width, angle)
            if not all(
                EDGE_STRIP_MM <= cx <= mat.width_mm - EDGE_STRIP_MM
                and EDGE_STRIP_MM <= cy <= mat.height_mm - EDGE_STRIP_MM
                for cx, cy in corners
            ):
                continue
            if any(
                point_polygon_distance(spot.x_mm, spot.y_mm, corners) < tagged_radius + BOX_CLEARANCE_MM
                for spot in mat.obstacles
            ):
                continue
            if any(polygon_gap(corners, other.points) < BOX_CLEARANCE_MM for other in obstacles):
                continue
            obstacles.append(FixedObstacle("polygon", x, y, 0.0, corners))
            boxes.append({"x_mm": x, "y_mm": y, "length_mm": length, "width_mm": width, "angle_deg": angle})
            break
    return tuple(obstacles), tuple(boxes)


@functools.cache
def _tagged_obstacle_radius() -> float:
    return load_piece_classes()["obstacle"].radius_mm


# ---- playing on a hidden table ----
def hidden_table(
    seed: int, table_index: int, sensors: str = "reference", laws: str = "shared", camera: str = "study"
) -> HiddenTable:
    """The hidden table number ``table_index`` of the set drawn with ``seed`` (with these sensors: the
    reference ones unless a sensor change is being weighed). ``laws="varied"``: the sensor and contact laws
    differ from the model's as well as their constants; ``laws="impulse"``: those varied laws on another
    physics engine (impulse_world.py), whose friction couples sliding and spin and depends on speed.
    ``camera``: the overhead camera's quality where the sensors have one (``CAMERA_QUALITY_NAMES``)."""
    if laws not in LAWS:
        raise ValueError(f"laws must be one of {', '.join(LAWS)}, not {laws!r}")
    return draw_hidden_table(
        random.Random(f"hidden-table/{seed}/{table_index}"),
        sensors=load_sensor_config(sensors),
        laws_rng=random.Random(f"hidden-laws/{seed}/{table_index}") if laws != "shared" else None,
        engine_rng=random.Random(f"hidden-engine/{seed}/{table_index}") if laws == "impulse" else None,
        camera_rng=random.Random(f"hidden-camera/{seed}/{table_index}"),
        camera_quality=camera,
    )


def table_shots(
    seed: int,
    table_index: int,
    shots: int,
    pieces: int | Sequence[int] = DEFAULT_PIECES,
    sensors: str = "reference",
    laws: str = "shared",
    camera: str = "study",
) -> Iterator[SimulatedShot]:
    """The shots of one hidden table in play order: rooms set up, played shot after shot, tidied between.

    ``pieces`` is the room size, or sizes to draw each room's from. Monsters hit directly by the heroes'
    side die now and then; when too few are left the players set up the next room on the same table.
    Deterministic for a seed.
    """
    table = hidden_table(seed, table_index, sensors, laws, camera)
    lab = table.lab(seed=random.Random(f"hidden-lab/{seed}/{table_index}").randrange(2**31))
    rng = random.Random(f"hidden-shots/{seed}/{table_index}")
    sizes = (pieces,) if isinstance(pieces, int) else tuple(pieces)
    monsters = _new_room(lab, rng, sizes)
    played = 0
    while played < shots:
        if sum(m in lab.specs for m in monsters) < MIN_MONSTERS:
            monsters = _new_room(lab, rng, sizes)
        speed_range = (500.0, 3000.0) if rng.random() < 0.5 else None
        try:
            shot = random_shot(lab, rng, monsters, speed_range=speed_range)
        except RuntimeError:
            continue  # no room beside the shooter for a ranged piece: the players pick another shot
        played += 1
        yield shot
        tidy_after_shot(lab, shot)
        flicked = shot.trace.declaration.flicked
        if shot.trace.spec(flicked).side == "heroes":
            for hit in sorted(shot.truth.direct_hits):
                if hit in monsters and hit in lab.specs and rng.random() < KILL_PROBABILITY:
                    _remove_with_covers(lab, hit)


def _new_room(lab: ShotLab, rng: random.Random, sizes: Sequence[int]) -> list[str]:
    # Covers (ice) first: removing a host would set its ice down on the mat.
    for pid in sorted(lab.world.pieces, key=lambda p: lab.world.pieces[p].covering is None):
        lab.remove(pid)
    return populate_room(
        lab,
        rng,
        rng.choice(sizes),
        frozen=1 if rng.random() < FROZEN_ROOMS else 0,
        shadows=1 if rng.random() < SHADOW_ROOMS else 0,
    )


def _remove_with_covers(lab: ShotLab, piece_id: str) -> None:
    for pid in list(lab.world.pieces):
        if lab.world.pieces[pid].covering == piece_id:
            lab.remove(pid)
    lab.remove(piece_id)
