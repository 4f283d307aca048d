"""No test may read or write the real user's data or config folders: they point into pytest's tmp."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from war_tui.stats import default_path


def test_the_default_statistics_file_is_in_a_test_folder(tmp_path_factory):
    base = tmp_path_factory.getbasetemp()
    assert default_path().is_relative_to(base)
    for name in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        assert Path(os.environ[name]).is_relative_to(base), name


def test_a_child_process_finds_the_test_folder_too(tmp_path_factory):
    done = subprocess.run(
        [sys.executable, "-m", "war_tui", "stats", "--json"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert Path(json.loads(done.stdout)["db"]).is_relative_to(tmp_path_factory.getbasetemp())
