"""The layering people rely on: the rules engine and statistics never load the UI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_hold():
    """pyproject's import-linter contracts: engine and stats free of Textual/Rich, CLI loads Textual lazily."""
    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(lint).exists():
        pytest.skip("import-linter is not installed")
    done = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize("module", ["war_tui.core.engine", "war_tui.core.rules", "war_tui.core.cards", "war_tui.core.events"])
def test_engine_modules_load_without_textual(module):
    code = f"import sys, {module}; sys.exit(1 if any(m.split('.')[0] in ('textual', 'rich') for m in sys.modules) else 0)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_the_line_mode_never_loads_textual():
    """``war-tui --line`` is plain text: it plays a battle without importing Textual or Rich."""
    code = (
        "import sys\n"
        "from war_tui.cli import main\n"
        "code = main(['--line', '--seed', '1', '--no-config', '--no-stats'])\n"
        "sys.exit(3 if any(m.split('.')[0] in ('textual', 'rich') for m in sys.modules) else code)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=b"\nq\n", capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b" beats " in done.stdout


def test_lint_catches_a_name_imported_for_type_checking_but_used_at_run_time(tmp_path):
    """pyproject's ruff rules (TC004): the NameError ``war-tui simulate`` once had in every terminal fails
    the lint, not a user. The example is checked as if it were in the package, with the project's settings."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    example = (
        "from __future__ import annotations\n\n"
        "from typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n"
        "    from rich.progress import TaskID\n\n\n"
        "def first_task() -> TaskID:\n"
        "    return TaskID(0)\n"
    )
    done = subprocess.run(
        [ruff, "check", "--no-cache", "--output-format", "concise", "--stdin-filename", "war_tui/example.py", "-"],
        cwd=ROOT, input=example, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "TC004" in done.stdout and "TaskID" in done.stdout


def test_the_web_door_loads_no_asyncssh():
    """The web door and the game server it is given run without the SSH library loaded."""
    code = (
        "import sys\n"
        "import war_tui.web.server, war_tui.web.session, war_tui.serving.server, war_tui.serving.launcher\n"
        "sys.exit(3 if any(m.split('.')[0] == 'asyncssh' or m.startswith('war_tui.ssh') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0


def test_the_command_line_and_the_game_load_nothing_of_nats():
    """Every command's parser (serve-ssh's --nats included) is built with nats-py left unloaded: only a server
    that starts loads it."""
    code = (
        "import sys\n"
        "import war_tui.cli, war_tui.commands.play\n"
        "war_tui.cli.build_parser()\n"
        "sys.exit(3 if any(m.split('.')[0] == 'nats' or m in ('war_tui.cluster.node', 'war_tui.cluster.embedded')"
        " for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0
