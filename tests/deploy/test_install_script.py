"""deploy/install.sh, run for real into a temporary root (--root) and as a plan (--dry-run): the files a real
table needs land where systemd, Mosquitto and udev read them, the service user exists, and a dry run changes
nothing. Neither needs root nor touches the machine outside the temporary folder."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if found is None:
        pytest.fail(
            f"{name} is missing: it comes with systemd (sudo apt-get install systemd); "
            "./deploy/smartmat test installs it"
        )
    return found


def install(*args: str) -> subprocess.CompletedProcess[str]:
    tool("systemd-sysusers"), tool("systemctl")
    done = subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def passwd_entry(root: Path, user: str) -> list[str]:
    for line in (root / "etc" / "passwd").read_text().splitlines():
        if line.split(":")[0] == user:
            return line.split(":")
    raise AssertionError(f"no user {user} in {root}/etc/passwd")


def group_members(root: Path, group: str) -> list[str]:
    for line in (root / "etc" / "group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == group:
            return [m for m in fields[3].split(",") if m]
    raise AssertionError(f"no group {group} in {root}/etc/group")


def test_install_into_a_root_puts_every_file_where_it_is_read(tmp_path: Path) -> None:
    root = tmp_path / "root"
    install("--root", str(root))

    # The unit, enabled for boot (the link systemctl enable makes), and the service user it runs as.
    unit = root / "etc/systemd/system/smartmat.service"
    assert unit.read_bytes() == (REPO / "deploy/systemd/smartmat.service").read_bytes()
    wants = root / "etc/systemd/system/multi-user.target.wants/smartmat.service"
    assert wants.is_symlink() and os.readlink(wants) == "/etc/systemd/system/smartmat.service"
    text = unit.read_text()
    assert re.search(r"^User=smartmat$", text, re.MULTILINE)
    name, _, uid, gid, _, home, shell = passwd_entry(root, "smartmat")
    assert int(uid) < 1000 and home == "/var/lib/smartmat" and shell.endswith("nologin")  # a system user
    assert "smartmat" in group_members(root, "dialout")  # the mat's serial port

    # Mosquitto: the listener with passwords and ACLs, and the ACL file where the config says it is.
    conf = root / "etc/mosquitto/conf.d/smartmat.conf"
    assert conf.read_bytes() == (REPO / "deploy/mosquitto/smartmat.conf").read_bytes()
    settings = dict(
        line.split(None, 1) for line in conf.read_text().splitlines() if line and not line.startswith("#")
    )
    assert settings["allow_anonymous"] == "false"
    acl = root / settings["acl_file"].lstrip("/")
    assert acl.read_bytes() == (REPO / "deploy/mosquitto/acl").read_bytes()
    assert settings["password_file"] == "/etc/mosquitto/smartmat/passwords"  # make-passwords.sh writes it

    # The table's settings, the broker passwords private; the udev rule naming the mat /dev/smartmat.
    assert (root / "etc/smartmat/table.yaml").read_bytes() == (REPO / "content/tables/demo.yaml").read_bytes()
    env = root / "etc/smartmat/smartmat.env"
    assert env.read_bytes() == (REPO / "deploy/smartmat.env.example").read_bytes()
    assert stat.S_IMODE(env.stat().st_mode) == 0o600
    env_names = {line.split("=", 1)[0] for line in env.read_text().splitlines() if "=" in line}
    assert set(re.findall(r"\$\{(\w+)\}", text)) <= env_names, "the unit uses a setting the env file lacks"
    rules = (root / "etc/udev/rules.d/99-smartmat.rules").read_text()
    assert 'SYMLINK+="smartmat"' in rules and "/dev/smartmat" in env.read_text()

    # The program, with the lock a real table installs from, without the checkout's baggage.
    program = root / "opt/smartmat"
    assert (program / "pyproject.toml").is_file() and (program / "requirements/run.lock").is_file()
    assert (program / "service/daemon/daemon.py").is_file()
    assert not [p.name for p in program.iterdir() if p.name.startswith(".")]
    assert not list(program.rglob("__pycache__"))


def test_a_second_install_keeps_the_tables_settings(tmp_path: Path) -> None:
    root = tmp_path / "root"
    install("--root", str(root))
    table = root / "etc/smartmat/table.yaml"
    env = root / "etc/smartmat/smartmat.env"
    table.write_text("table: my-table\n")
    env.write_text("SMARTMAT_MQTT_URL=mqtt://daemon:mine@127.0.0.1:1883\n")
    env.chmod(0o644)
    install("--root", str(root))
    assert table.read_text() == "table: my-table\n"
    assert env.read_text() == "SMARTMAT_MQTT_URL=mqtt://daemon:mine@127.0.0.1:1883\n"
    assert stat.S_IMODE(env.stat().st_mode) == 0o600  # made private again
    assert [line for line in (root / "etc/passwd").read_text().splitlines() if line.startswith("smartmat:")]
    assert len(group_members(root, "dialout")) == 1


def test_a_dry_run_prints_every_action_and_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    into_root = install("--dry-run", "--root", str(root)).stdout
    assert list(root.iterdir()) == [], "a dry run created files"
    assert f"{root}/etc/systemd/system/smartmat.service" in into_root

    plan = install("--dry-run").stdout  # the plan for this machine; as the test's user, no root needed
    actions = [line[2:] for line in plan.splitlines() if line.startswith("+ ")]
    expected = [
        r".*apt-get install .*\bmosquitto\b.*",
        r"systemd-sysusers /etc/sysusers.d/smartmat.conf",
        r"python3 -m venv --system-site-packages /opt/smartmat/\.venv",
        r".*pip install -q --require-hashes -r /opt/smartmat/requirements/run\.lock",
        r"install -D -m 600 \S+/deploy/smartmat\.env\.example /etc/smartmat/smartmat\.env",
        r"install -D -m 644 \S+/deploy/mosquitto/smartmat\.conf /etc/mosquitto/conf\.d/smartmat\.conf",
        r"install -D -m 644 \S+/deploy/mosquitto/acl /etc/mosquitto/smartmat/acl",
        r"install -D -m 644 \S+/deploy/systemd/smartmat\.service /etc/systemd/system/smartmat\.service",
        r"systemctl daemon-reload",
        r"systemctl enable smartmat\.service",
    ]
    for pattern in expected:
        assert any(re.fullmatch(pattern, action) for action in actions), f"no action {pattern!r} in:\n{plan}"
    # In that order: the user before the files it owns, the unit before it is enabled.
    positions = [next(i for i, a in enumerate(actions) if re.fullmatch(p, a)) for p in expected]
    assert positions == sorted(positions), plan
    assert "demo.lock" not in plan and "test.lock" not in plan  # a real table gets no demo extra


def test_it_refuses_to_change_the_machine_unless_root() -> None:
    if os.geteuid() == 0:
        result = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", str(INSTALL)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    else:
        result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "--dry-run" in result.stderr and result.stdout == ""
