"""``war_tui.tables`` loads a module only when one of its names is asked for: its three lists of names (the
type checker's imports, where each lives, ``__all__``) name the same things, each from the module it says."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import war_tui.tables as tables


def test_every_name_is_listed_in_all_three_places_and_lives_where_it_says():
    package = Path(tables.__file__)
    checked: dict[str, str] = {}
    for node in ast.walk(ast.parse(package.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is not None:
            checked.update({alias.name: node.module for alias in node.names})
    homes = tables._HOMES  # what the module itself reads
    assert checked == homes
    assert sorted(tables.__all__) == sorted(homes)
    for name, home in homes.items():
        assert getattr(tables, name) is getattr(importlib.import_module(f"war_tui.tables.{home}"), name)
