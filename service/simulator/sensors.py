"""What the mat's sensors make of the ground truth: NFC tag reads per antenna and piezo impacts.

The model and its parameters are described in docs/sensor-model.md; the parameter values live in
``content/hardware/sensors-*.yaml``. Everything random here draws from the model's own seeded RNG, so a
seeded simulation replays exactly.

A :class:`PiezoTruth` makes the piezos differ from their configuration the way real channels do (a constant
lag per channel, a gain per channel, an overall loudness, the click of the finger that flicks); the daemon is
only ever told the configuration. The default is the configuration exactly.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from service.mat.geometry import MatConfig, SensorConfig

from .world import Contact, ShotRecord

MERGE_WINDOW_US = 1000  # a piezo channel reports one impact per ring-down; later hits inside it are merged
DISC_KINDS = ("disc",)


def tag_uid(piece_id: str) -> bytes:
    """A stable 7-byte NFC UID for a simulated piece (real tags have factory UIDs; the content maps them)."""
    return b"\x04" + hashlib.sha1(piece_id.encode()).digest()[:6]


@dataclass(frozen=True)
class TagRead:
    """One antenna seeing one tag in one scan (the device's TAG_SEEN)."""

    col: int
    row: int
    uid: bytes
    rssi: int


@dataclass(frozen=True)
class Impact:
    """One piezo channel crossing its threshold (the device's IMPACT)."""

    sensor_id: int
    t_us: int
    amplitude: int  # peak ADC counts


@dataclass(frozen=True)
class PiezoTruth:
    """How the real piezo channels differ from the sensor configuration (which is all the daemon knows)."""

    timing_offsets_us: Mapping[int, float] = field(default_factory=dict)  # sensor id → constant lag
    gains: Mapping[int, float] = field(default_factory=dict)  # sensor id → amplitude multiplier
    amplitude_scale: float = 1.0  # every channel: how loudly this mat carries impacts
    # The finger's click: a contact at the flicked piece at t = 0 with this share of the flick's momentum
    # as impulse, heard at full coupling. 0: a silent flick.
    flick_click: float = 0.0
    # The laws themselves, which a real mat need not share with the configuration's (docs/sensor-model.md):
    falloff_law: str = "hyperbolic"  # amplitude with distance: "hyperbolic", "exponential" or "inverse_sqrt"
    falloff_mm: float | None = None  # that law's length; None: the configuration's amplitude_falloff_mm
    rise_time_us: float = 0.0  # a wave front ramps up over this: a soft hit crosses the threshold later
    timing_tail_dof: float = 0.0  # timing noise: Student-t with these degrees of freedom; 0: Gaussian
    rssi_noise_scale: float = 1.0  # the NFC readers' signal noise against the configuration's


class SensorModel:
    def __init__(
        self, config: SensorConfig, mat: MatConfig, *, seed: int = 0, truth: PiezoTruth | None = None
    ) -> None:
        self.config = config
        self.mat = mat
        self.truth = truth or PiezoTruth()
        self.rng = random.Random(seed)
        self.cols, self.rows = config.grid_shape(mat)
        self.origin = config.grid_origin(mat)
        self.piezos = config.piezo_positions(mat)

    # ---- NFC ----------------------------------------------------------------------------------------------
    def cell_centre(self, col: int, row: int) -> tuple[float, float]:
        pitch = self.config.nfc.pitch_mm
        return (self.origin[0] + col * pitch, self.origin[1] + row * pitch)

    @property
    def scan_duration_us(self) -> int:
        return self.cols * self.rows * self.config.nfc.scan_time_per_cell_us

    def scan(self, positions: Mapping[str, tuple[float, float]]) -> list[TagRead]:
        """One full scan of the reader grid: every antenna reports the tags it sees, with signal strength."""
        nfc = self.config.nfc
        reads: list[TagRead] = []
        reach = math.ceil(nfc.read_range_mm / nfc.pitch_mm)
        for piece_id, (x, y) in sorted(positions.items()):
            if self.rng.random() < nfc.missed_read:
                continue  # the tag was detuned or shadowed in this whole scan
            uid = tag_uid(piece_id)
            c0 = round((x - self.origin[0]) / nfc.pitch_mm)
            r0 = round((y - self.origin[1]) / nfc.pitch_mm)
            for col in range(max(0, c0 - reach), min(self.cols, c0 + reach + 1)):
                for row in range(max(0, r0 - reach), min(self.rows, r0 + reach + 1)):
                    cx, cy = self.cell_centre(col, row)
                    distance = math.hypot(x - cx, y - cy)
                    if distance > nfc.read_range_mm or self.rng.random() < nfc.cell_dropout:
                        continue
                    noise = self.rng.gauss(0, nfc.rssi_noise * self.truth.rssi_noise_scale)
                    rssi = nfc.rssi_at_zero - nfc.rssi_per_mm * distance + noise
                    reads.append(TagRead(col, row, uid, int(min(127, max(-128, round(rssi))))))
        return reads

    # ---- piezo ----
    def flick_sounds(self, shot: ShotRecord) -> list[Contact]:
        """The finger's click at the start of a shot, as a contact the piezos hear (none when silent)."""
        if self.truth.flick_click <= 0.0:
            return []
        x, y = shot.flick_at
        impulse = self.truth.flick_click * shot.flick_momentum
        return [Contact(0.0, x, y, shot.flicked, "finger", "flick", impulse, shot.speed_mm_s)]

    def impacts(self, contacts: Iterable[Contact], start_us: int, duration_s: float) -> list[Impact]:
        """Impacts the piezo channels report for a shot's contacts, plus the false triggers of the period."""
        pz = self.config.piezo
        truth = self.truth
        raw: list[Impact] = []
        for contact in contacts:
            for sensor_id, distance, median, gain in self.carried(contact):
                amplitude = (median * self.rng.lognormvariate(0, 0.15)) * gain
                if amplitude < pz.detection_threshold:
                    continue
                arrival = (
                    contact.t_s * 1e6
                    + distance / pz.wave_speed_mm_per_us
                    + truth.timing_offsets_us.get(sensor_id, 0.0)
                    + truth.rise_time_us * pz.detection_threshold / amplitude
                )
                raw.append(
                    Impact(
                        sensor_id,
                        start_us + round(arrival + self.timing_noise(pz.timing_jitter_us)),
                        min(65535, round(amplitude)),
                    )
                )
        for sensor_id, _, _ in self.piezos:
            expected = pz.false_triggers_per_s * duration_s
            for _ in range(_poisson(self.rng, expected)):
                t = start_us + round(self.rng.uniform(0, duration_s) * 1e6)
                amplitude = pz.detection_threshold * self.rng.uniform(1.0, 2.5)
                raw.append(Impact(sensor_id, t, round(amplitude)))
        return _merge(sorted(raw, key=lambda i: (i.t_us, i.sensor_id)))

    def carried(self, contact: Contact) -> list[tuple[int, float, float, float]]:
        """How the contact reaches each piezo: (sensor id, distance mm, amplitude before the channel's gain
        and the per-impact noise, the channel's gain)."""
        pz, truth = self.config.piezo, self.truth
        coupling = pz.disc_disc_coupling if contact.kind in DISC_KINDS else 1.0
        strength = pz.impulse_scale * contact.impulse * coupling * truth.amplitude_scale
        out = []
        for sensor_id, sx, sy in self.piezos:
            distance = math.hypot(contact.x_mm - sx, contact.y_mm - sy)
            out.append(
                (sensor_id, distance, strength / self._weakening(distance), truth.gains.get(sensor_id, 1.0))
            )
        return out

    def _weakening(self, distance_mm: float) -> float:
        """How many times weaker an impact is at a piezo this far away."""
        length = self.truth.falloff_mm or self.config.piezo.amplitude_falloff_mm
        law = self.truth.falloff_law
        if law == "hyperbolic":
            return 1 + distance_mm / length
        if law == "exponential":
            return math.exp(distance_mm / length)
        if law == "inverse_sqrt":
            return math.sqrt(1 + distance_mm / length)
        raise ValueError(f"unknown amplitude fall-off law {law!r}")

    def timing_noise(self, sigma_us: float) -> float:
        """One arrival-time error of a piezo (Gaussian, or heavy-tailed with ``truth.timing_tail_dof``)."""
        dof = self.truth.timing_tail_dof
        if dof <= 0.0:
            return self.rng.gauss(0, sigma_us)
        # Student-t: a Gaussian over the root of a scaled chi-square (gammavariate(k/2, 2) is chi-square k).
        chi2 = self.rng.gammavariate(dof / 2.0, 2.0)
        return self.rng.gauss(0, sigma_us) / math.sqrt(chi2 / dof)


def _poisson(rng: random.Random, mean: float) -> int:
    limit, k, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return k


def _merge(impacts: list[Impact]) -> list[Impact]:
    last: dict[int, Impact] = {}
    out: list[Impact] = []
    for impact in impacts:
        previous = last.get(impact.sensor_id)
        if previous is not None and impact.t_us - previous.t_us < MERGE_WINDOW_US:
            continue  # still ringing from the previous hit
        last[impact.sensor_id] = impact
        out.append(impact)
    return out
