"""The lock files CI and the README install from agree with pyproject.toml's ranges, and pin every file."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"


def locked(name: str) -> dict[str, tuple[str, Marker | None, list[str]]]:
    """Each package a lock file pins: its version, its marker, and its hashes."""
    text = (LOCKS / name).read_text().replace("\\\n", " ")
    pins: dict[str, tuple[str, Marker | None, list[str]]] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        spec, _, options = line.partition(" --hash=")
        requirement = Requirement(spec.strip())
        (pin,) = requirement.specifier
        assert pin.operator == "==", line
        hashes = re.findall(r"sha256:[0-9a-f]{64}", line)
        pins[canonicalize_name(requirement.name)] = (pin.version, requirement.marker, hashes)
    return pins


def declared(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    if extra:
        wanted += project["optional-dependencies"][extra]
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    return [Requirement(text) for text in wanted + build]


@pytest.mark.parametrize(("lock", "extra"), [("run.txt", None), ("test.txt", "test")])
def test_each_declared_package_is_locked_within_its_range(lock: str, extra: str | None) -> None:
    pins = locked(lock)
    for requirement in declared(extra):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is not in requirements/{lock}: run scripts/relock --keep"
        version = pins[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements/{lock} pins {name}=={version}, outside pyproject.toml's {requirement}: run scripts/relock"
        )


@pytest.mark.parametrize("lock", ["run.txt", "test.txt", "oldest-textual.txt"])
def test_every_locked_package_has_its_hashes(lock: str) -> None:
    pins = locked(lock)
    assert pins
    for name, (_version, _marker, hashes) in pins.items():
        assert hashes, f"{name} in requirements/{lock} has no hash: pip's --require-hashes would refuse the file"


def test_the_run_lock_is_the_test_lock_for_what_they_share() -> None:
    """A player and CI run the same releases of the game's own dependencies."""
    run, test = locked("run.txt"), locked("test.txt")
    differ = {name: (run[name][0], test[name][0]) for name in run if test.get(name, ("",))[0] != run[name][0]}
    assert not differ


def test_the_oldest_textual_is_the_bottom_of_the_range() -> None:
    (version, _marker, _hashes) = locked("oldest-textual.txt")["textual"]
    (textual,) = (r for r in declared(None) if r.name == "textual")
    bottom = next(spec.version for spec in textual.specifier if spec.operator == ">=")
    assert Version(version) == Version(bottom)


def test_the_installed_set_is_the_locked_set() -> None:
    """What this suite runs on is what the lock says (CI installs from it): a drifted venv is named."""
    from importlib.metadata import PackageNotFoundError, version

    oldest = locked("oldest-textual.txt")["textual"][0]  # CI's second pass swaps Textual alone for it
    drift = []
    for name, (pinned, marker, _hashes) in locked("test.txt").items():
        if marker is not None and not marker.evaluate():
            continue
        try:
            have = version(name)
        except PackageNotFoundError:
            drift.append(f"{name}: not installed")
            continue
        if have != pinned and not (name == "textual" and have == oldest):
            drift.append(f"{name}: {have} installed, {pinned} locked")
    assert not drift, "install from requirements/test.txt (see README): " + "; ".join(drift)


def test_importing_the_ssh_door_prints_no_warning() -> None:
    """asyncssh names cryptography's deprecated DSA classes; a user's terminal and log must not hear of it."""
    result = subprocess.run(
        [sys.executable, "-W", "default", "-c", "import war_tui.ssh.server, war_tui.ssh.session"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert result.stderr == ""
