"""The code's own rules: lint clean, the rules core free of I/O (import contracts), typed cores type-check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def run(*command: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=170)


def test_the_rules_core_does_no_io_and_only_the_transport_opens_a_serial_port(tmp_path: Path) -> None:
    result = run(str(BIN / "lint-imports"), tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_lint(tmp_path: Path) -> None:
    result = run(str(BIN / "ruff"), "check", "--no-cache", ".", tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_typed_cores_pass_mypy_strict(tmp_path: Path) -> None:
    result = run(str(BIN / "mypy"), "--cache-dir", str(tmp_path / "mypy-cache"), tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
