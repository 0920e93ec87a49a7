"""What the guided calibration found, kept beside the calibration file: when, how well, the mat confirmed.

The calibration file itself (service/attribution/calibration.py) says what attribution believes; this small
JSON file next to it (``<calibration>.guided.json``) says when a referee last calibrated the table and with
what figures, so the console and the set-up health check can show the calibration's age.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from service.attribution.calibration import TableCalibration
from service.common import schema_check
from service.common.atomic_file import write_atomically

log = logging.getLogger(__name__)

FORMAT = "smartmat-guided-calibration"
STALE_AFTER_S = 7 * 24 * 3600  # a week: mats are rolled up, moved and warmed between events


def report_path(calibration_path: Path | str) -> Path:
    path = Path(calibration_path)
    return path.with_name(f"{path.stem}.guided.json")


def save_report(
    calibration_path: Path | str, at: datetime, figures: dict[str, Any], mat: dict[str, Any]
) -> Path:
    """Write atomically (a power cut leaves the old report or the new one)."""
    path = report_path(calibration_path)
    body = {
        "format": FORMAT,
        "v": 1,
        "at": at.astimezone(UTC).isoformat(),
        "figures": figures,
        "mat": mat,
    }
    write_atomically(path, lambda handle: json.dump(body, handle, indent=1))
    return path


def load_report(calibration_path: Path | str) -> dict[str, Any] | None:
    """The last guided calibration's report, or None (never calibrated, or the report is unreadable: logged
    with the file and key, service/guided/schemas/guided_report.schema.json; the table then asks for a guided
    calibration, as for one never calibrated)."""
    path = report_path(calibration_path)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    found = schema_check.problem(schema_check.validator("service.guided.schemas", "guided_report"), data)
    if found is not None:
        log.warning("%s: %s (the report is ignored)", path, found)
        return None
    report: dict[str, Any] = data
    return report


def age_text(seconds: float) -> str:
    if seconds < 120:
        return "just now"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes ago"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} hours ago"
    return f"{seconds / 86400:.0f} days ago"


def calibration_status(
    calibration: TableCalibration | None, report: dict[str, Any] | None, now: datetime
) -> dict[str, Any]:
    """The table's calibration as the console shows it: its source, shots, settled or not, and its age.

    ``calibration`` None: the simulated mat's built-in constants; ``report``: :func:`load_report`'s."""
    if calibration is None:
        return {
            "source": "built-in constants",
            "ok": True,
            "text": "the simulated mat's built-in constants (nothing to calibrate)",
        }
    status: dict[str, Any] = {
        "source": calibration.source,
        "shots": calibration.shots,
        "settled": calibration.settled,
        "unsettled_because": calibration.unsettled_reasons(),
        "sound_speed_m_per_s": round(calibration.speed_mm_per_us * 1000),
        "sound_speed_uncertainty": round(calibration.speed_log_sd, 4),
        # What the referee's answers have taught (docs/calibration.md, "What the referee's answers teach").
        "labelled_shots": calibration.referee.labelled,
        "labelled_agreed": calibration.referee.agreed,
        "disc_loudness_x": round(calibration.disc_loudness.scale, 3),
        "disc_loudness_contacts": calibration.disc_loudness.shots,
    }
    if report is None:
        status.update(ok=False, guided_at=None, text="never calibrated with the guided routine")
        return status
    at = datetime.fromisoformat(report["at"])
    age = max(0.0, (now - at).total_seconds())
    figures = report.get("figures") or {}
    good = bool(figures.get("good"))
    status.update(
        guided_at=report["at"],
        age_s=round(age),
        age_text=age_text(age),
        figures=figures,
        mat=report.get("mat"),
        ok=good and age <= STALE_AFTER_S,
        text=f"calibrated {age_text(age)}"
        + ("" if good else ", with weak figures")
        + (": calibrate again before play" if age > STALE_AFTER_S else ""),
    )
    return status
