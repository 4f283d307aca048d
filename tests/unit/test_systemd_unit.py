"""contrib/systemd/war-tui.service: a Type=notify unit, hardened, whose command line war-tui accepts as it is."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from war_tui.cli import build_parser

UNIT = Path(__file__).parents[2] / "contrib" / "systemd" / "war-tui.service"


def settings() -> dict[str, list[str]]:
    """Each key of the unit with its values (a key may repeat); continued lines joined."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().replace("\\\n", " ").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_is_notify_and_hardened():
    unit = settings()
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"] and unit["WatchdogSec"]
    assert unit["KillMode"] == ["mixed"]  # SIGTERM to the server alone: it ends its games with a goodbye
    assert unit["DynamicUser"] == ["yes"] and unit["NoNewPrivileges"] == ["yes"]
    assert unit["ProtectSystem"] == ["strict"] and unit["StateDirectory"] == ["war-tui"]
    assert unit["MemoryMax"] and unit["CapabilityBoundingSet"] == [""]


def test_its_command_line_is_one_war_tui_takes():
    argv = shlex.split(settings()["ExecStart"][0].replace("%S", "/var/lib").replace("%E", "/etc"))
    assert argv[0].endswith("/war-tui")
    args = build_parser().parse_args(argv[1:])
    assert args.command == "serve" and args.log_format == "json" and args.metrics is not None
    assert str(args.host_key).startswith("/var/lib/war-tui/")  # the state directory: writable under ProtectSystem


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verifies_it(tmp_path):
    war_tui = shutil.which("war-tui") or shutil.which("true")
    unit = tmp_path / "war-tui.service"
    unit.write_text(UNIT.read_text().replace("/usr/local/bin/war-tui", war_tui))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "war-tui.service" not in result.stderr, result.stderr  # no warning about the unit itself
