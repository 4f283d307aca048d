"""Test modules share helpers through helper modules (tests/support/, the helper modules beside the tests),
never by importing one another: a test module imported elsewhere runs its tests' imports and autouse
fixtures in a module that did not ask for them."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imported_test_modules(root: Path) -> list[str]:
    """Each ``file:line module`` under ``root`` that imports a test module (one named ``test_*``)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            found += [
                f"{path.relative_to(root)}:{node.lineno} {name}"
                for name in names
                if any(part.startswith("test_") for part in name.split("."))
            ]
    return found


def test_no_test_module_imports_another_test_module():
    assert imported_test_modules(TESTS) == []
