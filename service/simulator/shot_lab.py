"""Shots on the simulated mat turned into shot traces: the benchmark's and the tests' source of truth.

A :class:`ShotLab` (a bench mat; the table with players is ``service.simulator.table``) couples the
ground-truth world with the sensor model and does what the sensing layer does with the readings, so the
traces it makes look like live ones while the ground truth stays on the side for scoring.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_bridge.messages import ReaderGrid
from service.mat.geometry import (
    MatConfig,
    PieceClass,
    SensorConfig,
    load_mat,
    load_piece_classes,
    load_sensor_config,
)
from service.mat.trace import (
    Declaration,
    FixedObstacle,
    ImpactRecord,
    MatGeometry,
    PieceSpec,
    Scan,
    SeenPiece,
    ShotTrace,
    WallSegment,
)
from service.sensing.locate import calibration_for, locate
from service.sensing.tags import RegisteredPiece, TagRegistry
from service.simulator.camera import CameraModel, CameraTruth
from service.simulator.impulse_world import ImpulseWorld
from service.simulator.players import (
    RANGED_PLACEMENT_MM,
    PlannedShot,
    SimulatedPlayer,
    Skill,
    put_back_from_the_gutter,
)
from service.simulator.sensors import PiezoTruth, SensorModel, tag_uid
from service.simulator.table_edges import Physics
from service.simulator.world import ShotRecord, World

SETTLE_US = 200_000  # players wait a moment after the pieces stop before the post-shot scan


@dataclass(frozen=True)
class SimulatedShot:
    trace: ShotTrace
    truth: ShotRecord


class ShotLab:
    """A bench mat. By default the classic table; ``walls`` (inner faces, None: the classic closed rectangle),
    ``fixed_obstacles``, ``physics`` and ``piezo_truth`` make another one (see hidden_mats.py). The sensor
    configuration's piezo values are the truth the sensor model uses; only positions reach the trace."""

    def __init__(
        self,
        *,
        seed: int = 0,
        sensor_config: SensorConfig | str = "reference",
        mat: MatConfig | None = None,
        classes: dict[str, PieceClass] | None = None,
        perturb: bool = True,
        walls: Sequence[WallSegment] | None = None,
        fixed_obstacles: Sequence[FixedObstacle] = (),
        physics: Physics | None = None,
        piezo_truth: PiezoTruth | None = None,
        engine: str = "pymunk",
        camera_truth: CameraTruth | None = None,
    ) -> None:
        self.mat = mat or load_mat()
        self.sensor_config = (
            load_sensor_config(sensor_config) if isinstance(sensor_config, str) else sensor_config
        )
        self.classes = classes or load_piece_classes()
        engines = {"pymunk": World, "impulse": ImpulseWorld}
        if engine not in engines:
            raise ValueError(f"engine must be one of {', '.join(engines)}, not {engine!r}")
        self.world: World | ImpulseWorld = engines[engine](
            self.mat, seed=seed, perturb=perturb, walls=walls, obstacles=fixed_obstacles, physics=physics
        )
        self.sensors = SensorModel(self.sensor_config, self.mat, seed=seed + 7919, truth=piezo_truth)
        # The camera draws its noise from its own stream: the same table with and without it plays the same
        # shots and reads the same NFC and piezo noise.
        self.camera: CameraModel | None = None
        if self.sensor_config.camera is not None:
            self.camera = CameraModel(self.sensor_config.camera, camera_truth, seed=seed + 104_729)
            self.world.frame_period_s = 1.0 / self.camera.fps
        self.grid = ReaderGrid(
            cols=self.sensors.cols,
            rows=self.sensors.rows,
            pitch_mm=self.sensor_config.nfc.pitch_mm,
            origin_mm=self.sensors.origin,
        )
        self.specs: dict[str, PieceSpec] = {}
        self.clock_us = 1_000_000

    def place(
        self,
        piece_id: str,
        class_name: str,
        x_mm: float,
        y_mm: float,
        *,
        side: str,
        kind: str | None = None,
        shadow: bool = False,
        covering: str | None = None,
    ) -> None:
        piece_class = self.classes[class_name]
        kind = kind or class_name.split("-")[0]
        self.world.place(piece_id, piece_class, x_mm, y_mm, kind=kind, side=side, covering=covering)
        self.specs[piece_id] = PieceSpec(
            piece_id, piece_class.radius_mm, piece_class.mass_g, kind, side, shadow
        )

    def remove(self, piece_id: str) -> None:
        self.world.remove(piece_id)
        self.specs.pop(piece_id, None)

    def geometry(self) -> MatGeometry:
        """What the trace says of the table: its size, piezos, real walls and fixed obstacles."""
        classic = MatGeometry(
            self.mat.width_mm,
            self.mat.height_mm,
            self.mat.wall_gap_mm,
            self.sensor_config.piezo_positions(self.mat),
            obstacles=self.world.obstacles,
            piezo_threshold=self.sensor_config.piezo.detection_threshold,  # as a board states it in HELLO
        )
        walls = self.world.walls
        if walls is None or set(walls) == set(classic.wall_segments()):
            return classic  # the classic closed rectangle is the format's default: no ``walls`` key
        return MatGeometry(
            classic.width_mm,
            classic.height_mm,
            classic.wall_gap_mm,
            classic.sensors,
            obstacles=classic.obstacles,
            walls=walls,
            piezo_threshold=classic.piezo_threshold,
        )

    def scan(self) -> Scan:
        reads = self.sensors.scan(self.world.positions())
        self.clock_us += self.sensors.scan_duration_us
        # Exactly what the daemon's sensing layer does with a scan (service/sensing/locate.py).
        registry = TagRegistry([RegisteredPiece(pid, tag_uid(pid), "disc") for pid in self.world.pieces])
        seen = locate(reads, self.grid, registry, calibration_for(self.sensor_config.nfc))
        return Scan(self.clock_us, tuple(seen[pid] for pid in sorted(seen)))

    def pre_shot_scan(self, attempts: int = 3) -> Scan:
        """Before a shot the sensing layer rescans until every piece it knows of has been seen."""
        merged: dict[str, SeenPiece] = {}
        scan = self.scan()
        for _ in range(attempts):
            merged.update({p.piece: p for p in scan.pieces if p.piece not in merged})
            if len(merged) >= len(self.world.pieces):
                break
            scan = self.scan()
        return Scan(scan.t_us, tuple(merged[p] for p in sorted(merged)))

    def shoot(
        self,
        piece_id: str,
        angle_rad: float,
        speed_mm_s: float,
        *,
        shot: str = "melee",
        shooter: str | None = None,
        pre: Scan | None = None,
    ) -> SimulatedShot:
        pre = pre or self.pre_shot_scan()
        self.clock_us += self.sensors.rng.randrange(100_000, 600_000)  # the player lines up the flick
        start_us = self.clock_us
        truth = self.world.flick(piece_id, angle_rad, speed_mm_s)
        camera = None
        if self.camera is not None:
            # Seen from above, discs of one size look alike to a tracker (artwork is small and blurred).
            looks = {p: float(round(s.radius_mm)) for p, s in self.specs.items()}
            camera = self.camera.film(truth, start_us, looks)
        # The finger's click (when this mat's piezos hear one) is a sound, not a contact of the shot's truth.
        heard = self.sensors.flick_sounds(truth) + truth.contacts
        impacts = self.sensors.impacts(heard, start_us, truth.duration_s)
        self.clock_us += round(truth.duration_s * 1e6) + SETTLE_US
        post = self.scan()
        trace = ShotTrace(
            mat=self.geometry(),
            pieces=tuple(sorted(self.specs.values(), key=lambda s: s.piece)),
            pre=pre,
            declaration=Declaration(piece_id, shot, shooter),
            impacts=tuple(ImpactRecord(i.sensor_id, i.t_us, float(i.amplitude)) for i in impacts),
            post=post,
            camera=camera,
        )
        return SimulatedShot(trace, truth)

    def free_spot(
        self, rng: random.Random, radius: float, *, margin: float = 8.0, tries: int = 400
    ) -> tuple[float, float] | None:
        """A random spot on the mat clear of every piece and fixed obstacle by ``margin``."""
        for _ in range(tries):
            x = rng.uniform(radius + margin, self.mat.width_mm - radius - margin)
            y = rng.uniform(radius + margin, self.mat.height_mm - radius - margin)
            if self.is_clear(x, y, radius, margin=margin):
                return (x, y)
        return None

    def is_clear(self, x: float, y: float, radius: float, *, margin: float = 0.5) -> bool:
        """No piece and no fixed obstacle within ``margin`` of a disc of ``radius`` at (x, y)."""
        if self.world.fixed_clearance(x, y) < radius + margin:
            return False
        return all(
            math.hypot(x - px, y - py) >= radius + self.world.radius(pid) + margin
            for pid, (px, py) in self.world.positions().items()
            if self.world.pieces[pid].covering is None
        )


MONSTER_CLASSES = ("monster-extra-small", "monster-medium", "monster-medium", "monster-large")


def populate_room(
    table: ShotLab,
    rng: random.Random,
    n_pieces: int,
    *,
    heroes: int = 4,
    obstacles: bool = True,
    frozen: int = 0,
    shadows: int = 0,
) -> list[str]:
    """Set up a battle room: heroes, monsters of mixed sizes, the mat's obstacles; returns the monster ids."""
    if obstacles:
        for spot in table.mat.obstacles:
            table.place(spot.id, "obstacle", spot.x_mm, spot.y_mm, side="neutral")
    monsters: list[str] = []
    hero_ids = [f"hero-{i + 1}" for i in range(heroes)]
    for pid in hero_ids:
        where = table.free_spot(rng, table.classes["hero"].radius_mm)
        if where:
            table.place(pid, "hero", *where, side="heroes")
    count = 0
    while len(table.specs) < n_pieces and count < 3 * n_pieces:
        count += 1
        class_name = rng.choice(MONSTER_CLASSES)
        where = table.free_spot(rng, table.classes[class_name].radius_mm)
        if where is None:
            break
        pid = f"monster-{len(monsters) + 1}"
        shadow = len(monsters) < shadows
        table.place(pid, class_name, *where, side="overseer", kind="monster", shadow=shadow)
        monsters.append(pid)
    for i, host in enumerate(monsters[-frozen:] if frozen else []):
        hx, hy = table.world.position(host)
        table.place(f"ice-{i + 1}", "ice", hx, hy, side="heroes", covering=host)
    return monsters


def random_shot(
    table: ShotLab,
    rng: random.Random,
    monsters: list[str],
    *,
    speed_range: tuple[float, float] | None = None,
    skill: Skill | None = None,
) -> SimulatedShot:
    """One turn: a random character of a random side shoots (melee/rush, or a missile from a ranged piece)."""
    player = SimulatedPlayer(rng, skill)
    heroes = [p for p, s in table.specs.items() if s.side == "heroes" and s.kind == "hero"]
    monsters_on = [m for m in monsters if m in table.specs and table.world.pieces[m].covering is None]
    frozen_hosts = {
        table.world.pieces[c].covering for c in table.world.pieces if table.world.pieces[c].covering
    }
    if rng.random() < 0.6 or not monsters_on:
        shooter, enemies, side = rng.choice(heroes), monsters_on, "heroes"
    else:
        active = [m for m in monsters_on if m not in frozen_hosts] or monsters_on
        shooter, enemies, side = rng.choice(active), heroes, "overseer"
    pre = None
    if rng.random() < 0.3:
        plan = player.plan_ranged_shot(
            table.world, shooter, "ranged-1", table.classes["ranged"], enemies, side=side
        )
        if table.world.fixed_clearance(*table.world.position(plan.piece)) < table.world.radius(plan.piece):
            plan = _move_clear_of_fixed_obstacles(table, player, shooter, plan)
        table.specs["ranged-1"] = PieceSpec(
            "ranged-1", table.classes["ranged"].radius_mm, table.classes["ranged"].mass_g, "ranged", side
        )
        pre = table.pre_shot_scan()  # the sensing layer rescans after the ranged piece is put down
        shot, who = "missile", shooter
    else:
        plan = player.plan_character_shot(table.world, shooter, enemies)
        shot, who = rng.choice(("melee", "melee", "rush")), None
    speed = plan.speed_mm_s
    if speed_range is not None:
        speed = math.exp(rng.uniform(math.log(speed_range[0]), math.log(speed_range[1])))
    result = table.shoot(plan.piece, plan.angle_rad, speed, shot=shot, shooter=who, pre=pre)
    return result


def _move_clear_of_fixed_obstacles(
    table: ShotLab, player: SimulatedPlayer, shooter: str, plan: PlannedShot
) -> PlannedShot:
    """The players' placement landed on a fixed obstacle (they check only pieces): put it down beside the
    shooter elsewhere, as a person would, and aim again. The classic table has no fixed obstacles."""
    sx, sy = table.world.position(shooter)
    r_shooter, r_piece = table.world.radius(shooter), table.world.radius(plan.piece)
    table.world.move(plan.piece, -1000.0, -1000.0)  # lifted while the players look for room
    for _ in range(80):
        angle = player.rng.uniform(0, 2 * math.pi)
        distance = player.rng.uniform(r_shooter + r_piece + 1.0, RANGED_PLACEMENT_MM + r_piece)
        x, y = sx + distance * math.cos(angle), sy + distance * math.sin(angle)
        w, h = table.mat.width_mm, table.mat.height_mm
        if r_piece <= x <= w - r_piece and r_piece <= y <= h - r_piece and table.is_clear(x, y, r_piece):
            table.world.move(plan.piece, x, y)
            angle, speed = player.aim(table.world, plan.piece, plan.target)
            return PlannedShot(plan.piece, plan.target, angle, speed, placed_at=(x, y))
    if plan.placed_at is not None:
        table.world.move(plan.piece, *plan.placed_at)  # no room anywhere: the flick goes from where it was
    return plan


def tidy_after_shot(table: ShotLab, shot: SimulatedShot) -> None:
    """What the players do after a shot: lift the ranged piece and knocked-off ice, put strays on the edge."""
    for pid, where in shot.truth.left_mat.items():
        if pid in table.world.pieces:
            table.world.return_to_edge(pid, where)
    put_back_from_the_gutter(table.world)
    for pid in list(table.world.pieces):
        kind = table.specs[pid].kind if pid in table.specs else ""
        if kind == "ranged" or pid in shot.truth.covers_knocked_off:
            table.remove(pid)
