"""Where the statistics file may be: not through a dangling link; read-only files and folders are read."""

from __future__ import annotations

from pathlib import Path

from war_tui.cli import main
from war_tui.stats import StatsStore


def test_a_dangling_link_is_refused_and_nothing_is_created_at_its_target(tmp_path: Path, capsys):
    target = tmp_path / "elsewhere" / "stats.sqlite3"
    target.parent.mkdir()
    link = tmp_path / "stats.sqlite3"
    link.symlink_to(target)
    store = StatsStore.open(link)
    assert not store.enabled
    assert store.disabled_reason == f"{link} is a link to {target}, which does not exist; it was left untouched"
    assert not target.exists() and not list(target.parent.iterdir())
    assert main(["stats", "--stats-db", str(link)]) == 2
    assert "is a link to" in capsys.readouterr().err
    assert not target.exists()


def test_a_link_to_a_real_file_is_followed(tmp_path: Path):
    target = tmp_path / "real.sqlite3"
    StatsStore.open(target)
    link = tmp_path / "stats.sqlite3"
    link.symlink_to(target)
    assert StatsStore.open(link).enabled
