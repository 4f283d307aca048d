"""Private names of Textual and Rich live in war_tui/ui/fastpath/ only: the screen code outside it uses public API.

Checked on the source (ast), so a private import or attribute can't slip into a
widget unnoticed: an upgrade of Textual can then only switch the fast path off.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "war_tui"
FAST_PATH = PACKAGE / "ui" / "fastpath"
SCREEN_CODE = sorted(path for path in (PACKAGE / "ui").rglob("*.py") if FAST_PATH not in path.parents)


def private_uses(source: str) -> list[str]:
    """Imports of private Textual/Rich modules, and ``x._name`` on anything but ``self``, ``cls`` or ``super()``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("textual", "rich"):
            if any(part.startswith("_") for part in node.module.split(".")):
                found.append(f"line {node.lineno}: from {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("textual", "rich") and "._" in alias.name:
                    found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            own = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
            inherited = isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"
            if not (own or inherited):
                found.append(f"line {node.lineno}: .{node.attr}")
    return found


@pytest.mark.parametrize("path", SCREEN_CODE, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_screen_code_outside_the_fast_path_uses_no_private_names(path):
    assert private_uses(path.read_text()) == []


def test_the_check_finds_a_private_import_and_attribute():
    source = "from textual._compositor import ChopsUpdate\nscreen._dirty_widgets.add(w)\nself._mine = 1\n"
    assert private_uses(source) == ["line 1: from textual._compositor", "line 2: ._dirty_widgets"]
