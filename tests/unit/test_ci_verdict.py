"""CI gives the same verdict for the same commit: under CI=true (as .ci/run sets it) every property test draws
the same examples each run, while a developer's run keeps exploring new ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

# The settings as tests/conftest.py loads them, then one test's examples.
DRAW = """
import json, sys
sys.path.insert(0, sys.argv[1])
import conftest  # noqa: F401  (loads the profile)
from hypothesis import given, strategies as st

drawn = []

@given(st.text())
def names(name):
    drawn.append(name)

names()
print(json.dumps(drawn))
"""


def examples(tmp_path: Path, ci: str | None) -> list[str]:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run(
        [sys.executable, "-c", DRAW, str(TESTS)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_ci_draws_the_same_examples_every_run(tmp_path):
    assert examples(tmp_path, "true") == examples(tmp_path, "true")


def test_a_developers_run_explores_new_examples(tmp_path):
    assert examples(tmp_path, None) != examples(tmp_path, None)


def test_ci_run_runs_every_test_as_ci():
    script = (TESTS.parent / ".ci" / "run").read_text()
    assert "\nexport CI=true\n" in script
    assert script.index("\nexport CI=true\n") < script.index("-m pytest")
