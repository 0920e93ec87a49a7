"""deploy/install.sh's HTTPS block: a real table gets its own certificate in /etc/smartmat/tls, readable by
the service, and smartmat.env points the service at it; an image built with --root gets none (each machine
needs a key of its own). The settings it writes are the ones `smartmat run` reads."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"
pytestmark = pytest.mark.timeout(120)


def plan(*args: str) -> list[str]:
    for name in ("systemd-sysusers", "systemctl"):
        if not (shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")):
            pytest.fail(f"{name} is missing: it comes with systemd; ./deploy/smartmat test installs it")
    done = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def test_a_real_install_makes_the_certificate_and_points_the_service_at_it() -> None:
    lines = plan()
    actions = [line[2:] for line in lines if line.startswith("+ ")]
    expected = [
        r"systemd-sysusers /etc/sysusers.d/smartmat.conf",  # the group the key is given to
        r".*pip install -q --no-deps --no-build-isolation /opt/smartmat",  # the command that makes it
        r"install -d -m 750 -g smartmat /etc/smartmat/tls",
        r"/opt/smartmat/\.venv/bin/smartmat dashboard make-cert --dir /etc/smartmat/tls",
        r"chgrp smartmat /etc/smartmat/tls/key\.pem",
        r"chmod 640 /etc/smartmat/tls/key\.pem",
        r"add_setting SMARTMAT_TLS_CERT=/etc/smartmat/tls/cert\.pem /etc/smartmat/smartmat\.env",
        r"add_setting SMARTMAT_TLS_KEY=/etc/smartmat/tls/key\.pem /etc/smartmat/smartmat\.env",
        r"systemctl enable smartmat\.service",
    ]
    positions = []
    for pattern in expected:
        found = [i for i, action in enumerate(actions) if re.fullmatch(pattern, action)]
        assert found, f"no action {pattern!r} in:\n" + "\n".join(lines)
        positions.append(found[0])
    assert positions == sorted(positions), "\n".join(actions)


def test_an_image_built_with_root_gets_no_shared_key(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    lines = plan("--root", str(root))
    assert not [line for line in lines if line.startswith("+ ") and "make-cert" in line]
    assert any(line.startswith("# not with --root:") and "key of its own" in line for line in lines)


def test_the_settings_install_writes_are_the_ones_smartmat_run_and_dashboard_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from service.app import cli as daemon_cli
    from web_dashboard import cli

    monkeypatch.setenv("SMARTMAT_TLS_CERT", "/etc/smartmat/tls/cert.pem")
    monkeypatch.setenv("SMARTMAT_TLS_KEY", "/etc/smartmat/tls/key.pem")
    for module, argv in ((daemon_cli, ["run"]), (cli, ["dashboard"])):
        parser = argparse.ArgumentParser()
        module.register_cli(parser.add_subparsers(dest="command"))
        args = parser.parse_args(argv)
        assert args.tls_cert == Path("/etc/smartmat/tls/cert.pem"), module.__name__
        assert args.tls_key == Path("/etc/smartmat/tls/key.pem"), module.__name__
