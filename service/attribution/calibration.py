"""A table's calibration: what its own shots have taught about its mat, and how sure that is.

Every real mat differs from the model's built-in constants: the speed of sound in its neoprene, each piezo's
timing and gain, how loud a contact sounds, how its discs slide and bounce. A :class:`TableCalibration`
holds the table's belief about each, starting from wide priors (or a guided calibration) and tightened by
:func:`service.attribution.learning.learn_from_shot` after each attributed shot, from that shot's own evidence
— never from ground truth, which a real table does not have.

The file (``smartmat attribute --table CAL.json``, and the daemon's ``--calibration``) is JSON, documented in
docs/calibration.md. Its ``digest`` names the exact calibration a shot was read with; every attribution
reports it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TextIO

from jsonschema.protocols import Validator

from service.common import schema_check
from service.common.atomic_file import write_atomically

from .acoustics import SPEED_GRID, SPEED_STEPS, KeptEvent
from .camera_quality import CameraQuality, camera_quality_from_json
from .reliability import RefereeRecord, record_from_json

FORMAT = "smartmat-table-calibration"
VERSION = 2  # 2: the referee's answers (``referee``); a version 1 file reads as one with none yet
READABLE_VERSIONS = (1, 2)

# Wide priors: what any neoprene mat with wooden discs may be (docs/calibration.md).
PRIOR_SPEED_RANGE = (0.25, 1.2)  # mm/µs: neoprene and cloth-topped foam, 250-1200 m/s
PRIOR_JITTER_US = 45.0
PRIOR_JITTER_DOF = 4.0
PRIOR_LOUDNESS_SD = 0.8  # log-scale sd of how loud a contact is against the model's nominal loudness
PRIOR_FRICTION_SD = 0.22  # log-scale sd of the sliding friction against the model's 0.40 (0.25-0.55)
PRIOR_DISC_RESTITUTION_SD = 0.10
PRIOR_WALL_RESTITUTION_SD = 0.22

# When the calibration is settled enough for shots to be applied without the referee.
SETTLED_SPEED_LOG_SD = 0.10
# ... or the speed's uncertainty moves a located impact less than the mat's timing noise already blurs it:
# a speed off by a share s moves a placed impact by about s times the paths' difference to two piezos
# (typically this far on a mat of the reference size), while the noise blurs it by speed × jitter.
TYPICAL_PATH_DIFFERENCE_MM = 400.0
SETTLED_SPEED_LOG_SD_MAX = 0.25  # however noisy the timing, a speed this unsure still waits
SETTLED_MIN_SHOTS = 5
INFORMATIVE_BOUND_Z = 2.0  # a censored reading this far above the belief's mean barely moves it
GUIDED = "guided"


class CalibrationFileError(ValueError):
    """A calibration file that cannot be read; names the file and the key."""


@dataclass(frozen=True)
class Belief:
    """A Gaussian belief about the log of a scale factor against the model's nominal value."""

    mean: float = 0.0
    sd: float = 1.0
    shots: int = 0  # how many shots contributed

    @property
    def scale(self) -> float:
        return math.exp(self.mean)

    def update(self, mean: float, sd: float) -> Belief:
        """Combine with one shot's estimate (a likelihood with that mean and sd)."""
        p0, p1 = 1 / self.sd**2, 1 / sd**2
        return Belief((self.mean * p0 + mean * p1) / (p0 + p1), math.sqrt(1 / (p0 + p1)), self.shots + 1)

    def below(self, bound: float, sd: float, outlier: float = 0.0) -> Belief:
        """Combine with a reading that fell below ``bound`` (with that sd): a contact the board did not hear.

        The likelihood is ``outlier + (1 - outlier) * Phi((bound - x) / sd)``: with a chance that the contact
        was heard after all but not recognised, one loud "unheard" contact cannot drag the belief down. The
        exact posterior is not Gaussian; this keeps its mean and variance (the probit update)."""
        v = self.sd**2
        s = math.sqrt(v + sd**2)
        z = (bound - self.mean) / s
        cdf = 0.5 * math.erfc(-z / math.sqrt(2))
        pdf = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
        evidence = outlier + (1 - outlier) * cdf
        if evidence < 1e-12:  # the belief is far off: move it to the bound rather than divide by nothing
            return Belief(bound, self.sd, self.shots + 1)
        ratio = pdf / max(cdf, 1e-300)
        censored_mean = self.mean - v / s * ratio
        censored_var = v * (1 - v / s**2 * ratio * (ratio + z))
        w = (1 - outlier) * cdf / evidence  # the share of the posterior that believes the silence
        mean = (1 - w) * self.mean + w * censored_mean
        second = (1 - w) * (v + self.mean**2) + w * (censored_var + censored_mean**2)
        # Only a bound the belief had to reckon with, and believed, counts as a reading learnt from.
        informative = z < INFORMATIVE_BOUND_Z and w >= 0.5
        return Belief(mean, math.sqrt(max(second - mean**2, 1e-6)), self.shots + informative)

    def to_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 6), "sd": round(self.sd, 6), "shots": self.shots}


@dataclass(frozen=True)
class SensorStats:
    """Running sums of one piezo's relative loudness."""

    log_gain_sum: float = 0.0
    gain_n: int = 0


def _uniform_speed_prior() -> tuple[float, ...]:
    lo, hi = PRIOR_SPEED_RANGE
    # Flat inside the range; a soft fall-off outside so a mat beyond it can still be learnt.
    out = []
    for v in SPEED_GRID:
        beyond = max(0.0, math.log(lo / v), math.log(v / hi))
        out.append(-0.5 * (beyond / 0.05) ** 2)
    return tuple(out)


@dataclass(frozen=True)
class TableCalibration:
    table: str = ""
    shots: int = 0  # shots learnt from
    source: str = "wide priors"  # wide priors | guided | learnt from play
    speed_loglik: tuple[float, ...] = field(default_factory=_uniform_speed_prior)
    jitter_ss_us2: float = PRIOR_JITTER_US**2 * PRIOR_JITTER_DOF
    jitter_dof: float = PRIOR_JITTER_DOF
    sensors: tuple[tuple[int, SensorStats], ...] = ()
    offsets_us: tuple[tuple[int, float], ...] = ()  # each piezo's lag against the others (solve_joint)
    # The well-heard events the sound speed and lags are refitted from (raw arrivals, newest last).
    acoustic_events: tuple[KeptEvent, ...] = ()
    wall_loudness: Belief = Belief(0.0, PRIOR_LOUDNESS_SD)
    disc_loudness: Belief = Belief(0.0, PRIOR_LOUDNESS_SD)
    friction: Belief = Belief(0.0, PRIOR_FRICTION_SD)
    disc_restitution: Belief = Belief(0.0, PRIOR_DISC_RESTITUTION_SD)
    wall_restitution: Belief = Belief(0.0, PRIOR_WALL_RESTITUTION_SD)
    flick_sounds: tuple[int, int] = (0, 0)  # (shots whose flick was heard, shots where it could have been)
    camera: CameraQuality = field(default_factory=CameraQuality)  # its overhead camera's, if it has one
    # What the table's referee answered about held shots, and each gate's record against it (reliability.py).
    referee: RefereeRecord = RefereeRecord()

    # ---- what attribution reads ----
    @property
    def speed_mm_per_us(self) -> float:
        return self._speed_moments()[0]

    @property
    def speed_log_sd(self) -> float:
        return self._speed_moments()[1]

    def _speed_moments(self) -> tuple[float, float]:
        top = max(self.speed_loglik)
        w = [math.exp(x - top) for x in self.speed_loglik]
        total = sum(w)
        logs = [math.log(v) for v in SPEED_GRID]
        mean = sum(a * b for a, b in zip(w, logs, strict=True)) / total
        var = sum(a * (b - mean) ** 2 for a, b in zip(w, logs, strict=True)) / total
        return math.exp(mean), math.sqrt(max(var, 0.0))

    @property
    def jitter_us(self) -> float:
        return max(15.0, math.sqrt(self.jitter_ss_us2 / self.jitter_dof))

    def sensor_offsets_us(self) -> dict[int, float]:
        """Each piezo's timing lag against the others (their sum is zero), as last refitted."""
        return dict(self.offsets_us)

    def sensor_gains(self) -> dict[int, float]:
        raw = {sid: s.log_gain_sum / (s.gain_n + 4) for sid, s in self.sensors}
        if not raw:
            return {}
        mean = sum(raw.values()) / len(raw)
        return {sid: math.exp(g - mean) for sid, g in raw.items()}

    @property
    def flick_sound_rate(self) -> float:
        heard, chances = self.flick_sounds
        return (heard + 0.5) / (chances + 2.0)

    @property
    def settled(self) -> bool:
        return not self.unsettled_reasons()

    def unsettled_reasons(self) -> list[str]:
        """In words, why shots should still wait for the referee (empty when the calibration is settled)."""
        out: list[str] = []
        if self.source == BUILT_IN:
            return out
        # A guided calibration fitted the speed and lags from taps at known points (service/guided): it does
        # not need shots of play to trust them, only the speed's own uncertainty below.
        if self.shots < SETTLED_MIN_SHOTS and self.source != GUIDED:
            out.append(f"the table has been calibrated from {self.shots} shots so far")
        if self.speed_log_sd > self.speed_settles_at:
            out.append(f"the mat's sound speed is still uncertain (±{self.speed_log_sd:.0%})")
        return out

    @property
    def speed_settles_at(self) -> float:
        """The sound speed's uncertainty (log sd) below which knowing it better would not place impacts
        better: ±10 %, or more where the timing noise blurs a placed impact more than the speed's doubt.
        Every placed event carries both in its sigma, so an unsure speed already makes readings humbler; on
        a mat with noisy timing a tighter speed changes little, and it is also slow to learn (docs)."""
        blur = self.speed_mm_per_us * self.jitter_us / TYPICAL_PATH_DIFFERENCE_MM
        return min(SETTLED_SPEED_LOG_SD_MAX, max(SETTLED_SPEED_LOG_SD, blur))

    # ---- file ----
    def to_json(self) -> dict[str, Any]:
        body = {
            "format": FORMAT,
            "v": VERSION,
            "table": self.table,
            "shots": self.shots,
            "source": self.source,
            "summary": self.summary(),
            "speed_grid_mm_per_us": [round(v, 6) for v in SPEED_GRID],
            "speed_loglik": [round(x, 4) for x in self.speed_loglik],
            "timing": {"ss_us2": round(self.jitter_ss_us2, 3), "dof": round(self.jitter_dof, 3)},
            "sensors": [
                {
                    "id": sid,
                    "offset_us": round(dict(self.offsets_us).get(sid, 0.0), 2),
                    "log_gain_sum": round(dict(self.sensors).get(sid, SensorStats()).log_gain_sum, 5),
                    "gain_n": dict(self.sensors).get(sid, SensorStats()).gain_n,
                }
                for sid in sorted({sid for sid, _ in self.sensors} | {sid for sid, _ in self.offsets_us})
            ],
            "acoustic_events": [
                {
                    "arrivals": [[sid, t] for sid, t in event.arrivals],
                    "at": None if event.anchor is None else [round(v, 1) for v in event.anchor],
                }
                for event in self.acoustic_events
            ],
            "wall_loudness": self.wall_loudness.to_json(),
            "disc_loudness": self.disc_loudness.to_json(),
            "friction": self.friction.to_json(),
            "disc_restitution": self.disc_restitution.to_json(),
            "wall_restitution": self.wall_restitution.to_json(),
            "flick_sounds": list(self.flick_sounds),
            "referee": self.referee.to_json(),
        }
        if self.camera != CameraQuality():
            body["camera"] = self.camera.to_json()  # a table without a camera writes the file as before
        return body

    def summary(self) -> dict[str, Any]:
        """The figures a person reads: estimates with their uncertainty and how many shots they rest on."""
        return {
            "settled": self.settled,
            "unsettled_because": self.unsettled_reasons(),
            "sound_speed_m_per_s": round(self.speed_mm_per_us * 1000),
            "sound_speed_uncertainty": round(self.speed_log_sd, 4),
            "sound_speed_settles_at": round(self.speed_settles_at, 4),
            "timing_jitter_us": round(self.jitter_us, 1),
            "sensor_offsets_us": {str(k): round(v, 1) for k, v in sorted(self.sensor_offsets_us().items())},
            "sensor_gains": {str(k): round(v, 3) for k, v in sorted(self.sensor_gains().items())},
            "wall_loudness_x": round(self.wall_loudness.scale, 3),
            "disc_loudness_x": round(self.disc_loudness.scale, 3),
            "sliding_friction_x": round(self.friction.scale, 3),
            "disc_restitution_x": round(self.disc_restitution.scale, 3),
            "wall_restitution_x": round(self.wall_restitution.scale, 3),
            "flick_sound_rate": round(self.flick_sound_rate, 3),
            "disc_loudness_shots": self.disc_loudness.shots,
            "referee": self.referee.summary(),
        }

    @property
    def digest(self) -> str:
        """A short name of this exact calibration, recorded with every shot read with it."""
        if self.shots == 0 and self.source == "wide priors":
            return "wide-priors"
        text = json.dumps({k: v for k, v in self.to_json().items() if k != "summary"}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]


def wide_priors(table: str = "") -> TableCalibration:
    return TableCalibration(table=table)


BUILT_IN = "built-in constants"


def built_in_calibration() -> TableCalibration:
    """The model's own constants taken as known: the simulated mat of ``smartmat run`` is built to them.

    A real table should not use this: it starts from :func:`wide_priors` or a guided calibration and learns.
    """
    speed = 0.8
    return TableCalibration(
        table="built-in",
        source=BUILT_IN,
        speed_loglik=tuple(-0.5 * (math.log(v / speed) / 0.01) ** 2 for v in SPEED_GRID),
        jitter_ss_us2=30.0**2 * 50,
        jitter_dof=50,
        wall_loudness=Belief(0.0, 0.1),
        disc_loudness=Belief(0.0, 0.1),
        friction=Belief(0.0, 0.08),
        disc_restitution=Belief(0.0, 0.05),
        wall_restitution=Belief(0.0, 0.05),
        flick_sounds=(0, 50),
    )


@cache
def _calibration_schema() -> Validator:
    return schema_check.validator("service.attribution.schemas", "calibration")


def _speed_loglik_from_json(data: dict[str, Any], fail: Callable[[str, str], Exception]) -> list[float]:
    """The sound speed's log-likelihood over the grid, checked against the grid this build uses."""
    grid = data["speed_grid_mm_per_us"]
    if len(grid) != SPEED_STEPS or any(abs(v - g) > 1e-4 * g for v, g in zip(grid, SPEED_GRID, strict=False)):
        raise fail(
            "speed_grid_mm_per_us", "not the grid this build uses; recalibrate or start from wide priors"
        )
    loglik = data["speed_loglik"]
    if len(loglik) != SPEED_STEPS:
        raise fail("speed_loglik", f"expected {SPEED_STEPS} numbers")
    return [float(x) for x in loglik]


def _kept_events_from_json(raw_events: list[dict[str, Any]]) -> list[KeptEvent]:
    """The well-heard events a table keeps to refit its sound speed and lags (``acoustic_events``)."""
    events = []
    for event in raw_events:
        at = event.get("at")
        anchor = None if at is None else (float(at[0]), float(at[1]), float(at[2]))
        events.append(KeptEvent(tuple((sid, float(t)) for sid, t in event["arrivals"]), anchor))
    return events


def calibration_from_json(data: Any, where: str = "calibration") -> TableCalibration:
    """A calibration from its file's JSON: the format and version first, then the shape (service/attribution/
    schemas/calibration.schema.json), then what the schema cannot say (the speed grid this build uses, the
    camera's regions, answers agreeing no more often than given). A version 1 file has no ``referee``."""

    def fail(key: str, problem: str) -> CalibrationFileError:
        return CalibrationFileError(f"{where}: {key}: {problem}")

    if not isinstance(data, dict):
        raise fail("(file)", "expected a JSON object")
    if data.get("format") != FORMAT:
        raise fail("format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    if data.get("v") not in READABLE_VERSIONS:
        raise fail(
            "v", f"unsupported calibration version {data.get('v')!r} (this build reads {READABLE_VERSIONS})"
        )
    schema_check.check(_calibration_schema(), data, where, CalibrationFileError, top="(file)")

    def belief(key: str) -> Belief:
        return Belief(float(data[key]["mean"]), float(data[key]["sd"]), data[key]["shots"])

    loglik = _speed_loglik_from_json(data, fail)
    timing = data["timing"]
    sensors = [(s["id"], SensorStats(float(s["log_gain_sum"]), s["gain_n"])) for s in data["sensors"]]
    offsets = [(s["id"], float(s["offset_us"])) for s in data["sensors"]]
    heard, chances = data["flick_sounds"]
    return TableCalibration(
        table=data.get("table", ""),
        shots=data["shots"],
        source=data.get("source", "learnt from play"),
        speed_loglik=tuple(loglik),
        jitter_ss_us2=float(timing["ss_us2"]),
        jitter_dof=float(timing["dof"]),
        sensors=tuple(sorted(sensors)),
        offsets_us=tuple(sorted(offsets)),
        acoustic_events=tuple(_kept_events_from_json(data.get("acoustic_events", []))),
        wall_loudness=belief("wall_loudness"),
        disc_loudness=belief("disc_loudness"),
        friction=belief("friction"),
        disc_restitution=belief("disc_restitution"),
        wall_restitution=belief("wall_restitution"),
        flick_sounds=(heard, chances),
        camera=camera_quality_from_json(data.get("camera"), fail),
        referee=record_from_json(data.get("referee"), fail),
    )


def load_calibration(path: Path | str, *, missing_ok: bool = True) -> TableCalibration:
    """The table's calibration; a missing file is the wide priors (a new table) when ``missing_ok``."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if missing_ok:
            return wide_priors(path.stem)
        raise CalibrationFileError(f"{path}: no such calibration file") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CalibrationFileError(f"{path}: not a calibration file (not valid JSON: {exc})") from None
    return calibration_from_json(data, str(path))


def save_calibration(calibration: TableCalibration, path: Path | str) -> None:
    """Write atomically (temporary file, fsync, rename): a power cut leaves the old file or the new one."""

    def write(handle: TextIO) -> None:
        json.dump(calibration.to_json(), handle, indent=1)
        handle.write("\n")

    write_atomically(Path(path), write)
