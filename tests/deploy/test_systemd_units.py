"""The systemd units in deploy/systemd/ pass `systemd-analyze verify`, as systemd itself would load them on
the table's machine, and say what the daemon relies on: notify, the watchdog, Mosquitto first."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNITS = sorted((REPO / "deploy" / "systemd").glob("*.service"))


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.fail(
            "systemd-analyze is missing, so the units cannot be verified: sudo apt-get install systemd "
            "(./deploy/smartmat test installs it)"
        )
    return found


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    sections: dict[str, dict[str, list[str]]] = {}
    section = ""
    for raw in text.splitlines():  # a key may repeat (Environment=), which configparser would refuse
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            sections.setdefault(section, {})
            continue
        key, _, value = line.partition("=")
        sections[section].setdefault(key.strip(), []).append(value.strip())
    return sections


def verify(tmp_path: Path, units: dict[str, str]) -> tuple[int, str]:
    """Run `systemd-analyze verify` on ``units`` (name -> text) installed in a root of their own, next to this
    machine's systemd units (targets, mosquitto.service); the programs they start are stand-ins there."""
    analyze = systemd_analyze()
    places = (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))
    system = next((d for d in places if d.is_dir()), None)
    if system is None:
        pytest.fail("systemd's own units are missing (/usr/lib/systemd/system): sudo apt-get install systemd")
    root = tmp_path / "root"
    shutil.copytree(system, root / "usr/lib/systemd/system", symlinks=True)
    (root / "lib").symlink_to("usr/lib")
    if not (root / "usr/lib/systemd/system/mosquitto.service").exists():
        # Debian's mosquitto package ships this unit; without the package, a stand-in of the same kind.
        (root / "usr/lib/systemd/system/mosquitto.service").write_text(
            "[Unit]\nDescription=Mosquitto MQTT Broker\n"
            "[Service]\nType=notify\nExecStart=/usr/sbin/mosquitto\n"
        )
    etc = root / "etc/systemd/system"
    etc.mkdir(parents=True)
    for name, text in units.items():
        (etc / name).write_text(text)
        for command in re.findall(r"^Exec\w+=[-@:+!]*(/\S+)", text, re.MULTILINE):
            program = root / command.lstrip("/")
            if not program.exists():
                program.parent.mkdir(parents=True, exist_ok=True)
                program.write_text("#!/bin/sh\n")
                program.chmod(0o755)
    done = subprocess.run(
        [analyze, "verify", f"--root={root}", "--man=no", *units],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path, unit: Path) -> None:
    rc, output = verify(tmp_path, {unit.name: unit.read_text()})
    ours = [line for line in output.splitlines() if unit.name in line or unit.stem in line]
    assert rc == 0 and not ours, output


def test_the_check_does_catch_a_broken_unit(tmp_path: Path) -> None:
    text = (REPO / "deploy/systemd/smartmat.service").read_text()
    broken = text.replace("WatchdogSec=30", "WatchdogSec=thirty").replace("Restart=always", "Restrat=always")
    assert broken != text
    rc, output = verify(tmp_path, {"smartmat.service": broken})
    complaints = [line for line in output.splitlines() if "smartmat.service" in line]
    assert len(complaints) >= 2, output  # one per broken line, whatever systemd's words


def test_the_service_notifies_is_watched_and_runs_after_mosquitto() -> None:
    settings = unit_settings((REPO / "deploy/systemd/smartmat.service").read_text())
    unit, service = settings["Unit"], settings["Service"]
    assert service["Type"] == ["notify"] and service["NotifyAccess"] == ["main"]
    assert int(service["WatchdogSec"][0]) >= 10  # seconds: room for a slow Pi between pings
    assert "mosquitto.service" in " ".join(unit["Requires"]).split()
    assert "mosquitto.service" in " ".join(unit["After"]).split()
    assert service["Restart"] == ["always"]  # a watchdog kill is a restart, not the end
    # A real table: it reads the mat's serial port, so it never starts a stand-in broker.
    assert "--serial" in service["ExecStart"][0].split()
    # The user's own groups apply (dialout; gpio where it exists): no group the machine may lack is named.
    assert "SupplementaryGroups" not in service
