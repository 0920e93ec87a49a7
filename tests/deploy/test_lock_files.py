"""The lock files decide what is installed: every dependency in pyproject.toml is pinned there, with hashes.

`deploy/smartmat` installs `requirements/demo.lock` (for `run`: the runtime and the `demo` extra) or
`requirements/test.lock` (for `test`), and `deploy/install.sh` installs `requirements/run.lock` (a real table:
the runtime alone), each with `pip install --require-hashes`, then the project itself with `--no-deps`. A
dependency added to pyproject.toml without relocking would therefore be missing from the installed set; these
tests say so first, by name. requirements/README.md has the commands that refresh the locks.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[2]
LOCKS = REPO / "requirements"


@dataclass
class Pin:
    name: str
    version: str
    marker: str | None
    hashes: list[str] = field(default_factory=list)


def read_lock(path: Path) -> dict[str, Pin]:
    """The pins of a requirements file with hashes: `name==version [; marker] \\`, then `--hash=` lines."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip().removesuffix("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash="):
            assert current is not None, f"{path.name}: a hash before any requirement: {raw!r}"
            current.hashes.append(line.removeprefix("--hash="))
            continue
        assert not line.startswith("-"), f"{path.name}: an option the lock should not carry: {raw!r}"
        requirement, _, marker = line.partition(";")
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s=]+)", requirement.strip())
        assert match, f"{path.name}: not pinned with == to one version: {raw!r}"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"{path.name}: {name} is pinned twice"
        current = Pin(name, match.group(2), marker.strip() or None)
        pins[name] = current
    return pins


def declared(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    if extra is None:
        return [Requirement(text) for text in project["dependencies"]]
    return [Requirement(text) for text in project["optional-dependencies"][extra]]


CASES = [
    ("run.lock", declared(None)),
    ("demo.lock", declared(None) + declared("demo")),
    ("test.lock", declared(None) + declared("test")),
    ("camera.lock", declared(None) + declared("camera")),
]
LOCK_NAMES = [name for name, _ in CASES]


@pytest.mark.parametrize(("lock_name", "requirements"), CASES, ids=[name for name, _ in CASES])
def test_every_dependency_in_pyproject_is_pinned_with_hashes(
    lock_name: str, requirements: list[Requirement]
) -> None:
    pins = read_lock(LOCKS / lock_name)
    problems = []
    for requirement in requirements:
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            problems.append(f"{requirement.name} is not in requirements/{lock_name}: relock")
            continue
        if not pin.hashes:
            problems.append(f"{requirement.name}=={pin.version} has no --hash in requirements/{lock_name}")
        if not requirement.specifier.contains(Version(pin.version), prereleases=True):
            problems.append(
                f"requirements/{lock_name} pins {requirement.name}=={pin.version}, "
                f"outside pyproject.toml's {requirement.specifier}: relock"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lock_name", LOCK_NAMES)
def test_every_locked_package_has_sha256_hashes(lock_name: str) -> None:
    pins = read_lock(LOCKS / lock_name)
    assert pins, f"requirements/{lock_name} pins nothing"
    for pin in pins.values():
        assert pin.hashes, f"{pin.name}=={pin.version} has no hash in requirements/{lock_name}"
        for digest in pin.hashes:
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", digest), f"{pin.name}: not a sha256 hash: {digest}"


@pytest.mark.parametrize(
    ("smaller", "larger"),
    [
        ("run.lock", "demo.lock"),
        ("demo.lock", "test.lock"),
        ("run.lock", "camera.lock"),
        ("camera.lock", "test.lock"),
    ],
)
def test_the_locks_nest_and_agree_on_every_shared_version(smaller: str, larger: str) -> None:
    """run.lock ⊆ demo.lock ⊆ test.lock, one version of each package across the three."""
    small, large = read_lock(LOCKS / smaller), read_lock(LOCKS / larger)
    assert set(small) <= set(large), f"in {smaller}, not in {larger}: {sorted(set(small) - set(large))}"
    differ = {n: (small[n].version, large[n].version) for n in small if small[n].version != large[n].version}
    assert not differ, f"{smaller} and {larger} pin different versions: {differ}"


def test_the_demo_extra_stays_off_a_real_table_but_is_in_the_tests() -> None:
    demo = {canonicalize_name(r.name) for r in declared("demo")}
    assert demo, "pyproject.toml declares no demo extra"
    run = read_lock(LOCKS / "run.lock")
    assert not demo & set(run), f"run.lock (a real table) carries the demo extra: {sorted(demo & set(run))}"
    test = {canonicalize_name(r.name): r for r in declared("test")}
    for requirement in declared("demo"):  # the tests exercise the demo, with the same ranges
        name = canonicalize_name(requirement.name)
        assert name in test, f"the test extra lacks the demo extra's {requirement.name}"
        assert test[name].specifier == requirement.specifier, f"{requirement.name}: test, demo ranges differ"


def test_the_camera_extra_stays_off_a_table_without_a_camera_but_is_in_the_tests() -> None:
    camera = {canonicalize_name(r.name) for r in declared("camera")}
    assert camera, "pyproject.toml declares no camera extra"
    for lock in ("run.lock", "demo.lock"):
        carried = camera & set(read_lock(LOCKS / lock))
        assert not carried, f"{lock} (no camera) carries the camera extra: {sorted(carried)}"
    test = {canonicalize_name(r.name): r for r in declared("test")}
    for requirement in declared("camera"):  # the tests run the camera's vision on rendered frames
        name = canonicalize_name(requirement.name)
        assert name in test, f"the test extra lacks the camera extra's {requirement.name}"
        assert test[name].specifier == requirement.specifier, (
            f"{requirement.name}: test, camera ranges differ"
        )


def test_the_reader_catches_an_unpinned_or_unhashed_entry(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    lock.write_text("pyyaml>=6.0 \\\n    --hash=sha256:" + "0" * 64 + "\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="not pinned with =="):
        read_lock(lock)
    lock.write_text("pyyaml==6.0.4\nflask==3.1.3 \\\n    --hash=sha256:" + "1" * 64 + "\n", encoding="utf-8")
    pins = read_lock(lock)
    assert pins["pyyaml"].hashes == [] and pins["flask"].hashes == ["sha256:" + "1" * 64]


def test_set_up_installs_from_the_lock_with_hashes() -> None:
    script = (REPO / "deploy" / "smartmat").read_text(encoding="utf-8")
    assert '--require-hashes -r "$lock"' in script
    assert "--no-deps" in script
    assert re.search(r'\[ "\$lock" -nt "\$stamp" \]', script), "a changed lock must trigger a new set-up"
    # `run` is the demo (its stand-in broker comes with the demo extra); `test` has everything.
    locks = dict(re.findall(r'^\s*(run|test)\)\s*lock="(requirements/[a-z]+\.lock)"', script, re.MULTILINE))
    assert locks == {"run": "requirements/demo.lock", "test": "requirements/test.lock"}, locks


def test_a_real_table_is_installed_from_the_run_lock() -> None:
    script = (REPO / "deploy" / "install.sh").read_text(encoding="utf-8")
    installs = re.findall(r"--require-hashes -r \S*?requirements/([a-z]+\.lock)", script)
    assert installs and set(installs) == {"run.lock"}, installs
