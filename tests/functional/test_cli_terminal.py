"""The full-screen game needs a terminal that can place the cursor; without one the game says so in its
first line and goes on in the line mode (a game the line mode cannot play exits 2)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cli_helpers import war_tui_on_pty
from support.glass import Glass

TIMEOUT = 30


def started_on_pty(env_changes: dict[str, str | None], keys: bytes = b"", when: bytes | None = None) -> tuple[int, str]:
    """Run ``war-tui --seed 1`` with a pty as its stdin, stdout and stderr; send ``keys`` once the
    screen is up (or ``when`` was written); return the exit status and everything it wrote."""
    env = {**os.environ, "COLUMNS": "80", "LINES": "24"}
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    sent = False

    def type_keys_once_the_screen_is_up(seen: bytes) -> bytes:
        nonlocal sent
        ready = when in seen if when is not None else b"\x1b[?1049h" in seen and b"Battle" in seen
        if keys and not sent and ready:
            sent = True
            return keys
        return b""

    return war_tui_on_pty(["--seed", "1"], env, TIMEOUT, type_keys_once_the_screen_is_up)


def known_to_terminfo(term: str) -> bool:
    probe = f"import curses; curses.setupterm({term!r}, 1)"  # once per process: ncurses keeps the first
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=TIMEOUT).returncode == 0


def test_no_terminal_gives_the_line_mode_saying_why(tmp_path):
    out = tmp_path / "out.txt"
    with out.open("wb") as sink:
        done = subprocess.run(
            [sys.executable, "-m", "war_tui", "--seed", "1"], stdin=subprocess.DEVNULL, stdout=sink,
            stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
        )
    assert done.returncode == 0 and done.stderr == ""
    written = out.read_bytes()
    assert b"\x1b" not in written  # no escape codes drawn into the file
    lines = written.decode().splitlines()
    assert lines[0].startswith("war-tui: ") and "needs a terminal" in lines[0] and "line mode" in lines[0]
    assert lines[1] == "War, seed 1, standard rules."
    assert lines[-1] == "The input ended. Goodbye."


def test_no_terminal_for_two_players_is_one_line_and_exit_2(tmp_path):
    out = tmp_path / "out.txt"
    with out.open("wb") as sink:
        done = subprocess.run(
            [sys.executable, "-m", "war_tui", "--two-players"], stdin=subprocess.DEVNULL, stdout=sink,
            stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
        )
    assert done.returncode == 2
    assert out.read_bytes() == b""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("war-tui: ")
    assert "needs a terminal" in done.stderr
    assert "war-tui game" in done.stderr and "war-tui simulate" in done.stderr


def test_a_terminal_on_stdin_only_is_not_enough(tmp_path):
    master, slave = os.openpty()
    os.write(master, b"q\n")  # the keys waiting on the terminal: quit
    try:
        done = subprocess.run(
            [sys.executable, "-m", "war_tui", "--seed", "1"], stdin=slave, capture_output=True,
            text=True, timeout=TIMEOUT,
        )
    finally:
        os.close(slave)
        os.close(master)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert "needs a terminal" in first and "line mode" in first


@pytest.mark.app
@pytest.mark.terminal
@pytest.mark.parametrize(
    ("term", "words"),
    [("dumb", "TERM=dumb"), (None, "TERM is not set"), ("", "TERM is not set"), ("glasstty", "TERM=glasstty")],
    ids=["dumb", "unset", "empty", "glasstty"],
)
def test_a_terminal_that_cannot_place_the_cursor_gets_the_line_mode(term, words):
    if term == "glasstty" and not known_to_terminfo(term):
        pytest.skip("the terminal database here has no glasstty (a terminal with no cursor addressing)")
    code, text = started_on_pty({"TERM": term}, keys=b"q", when=b"Keys:")
    assert code == 0, text
    assert "\x1b" not in text  # the full screen was never opened, nor any escape sent
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[0].startswith("war-tui: ") and words in lines[0] and "line mode" in lines[0], text
    assert lines[1] == "War, seed 1, standard rules." and lines[-1] == "Goodbye."


@pytest.mark.app
@pytest.mark.terminal
def test_a_real_terminal_still_gets_the_game():
    code, text = started_on_pty({"TERM": "xterm-256color"}, keys=b"q")
    assert code == 0, text
    assert "\x1b[?1049h" in text and "Battle" in text


def board_on_screen(env_changes: dict[str, str | None]) -> list[str]:
    """The board's rows as a terminal shows them, the game started with ``env_changes`` and every locale
    variable (and Python's own locale switches) unset but those."""
    unset = {name: None for name in os.environ if name.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONCOERCE"))}
    code, text = started_on_pty({**unset, "TERM": "xterm-256color", **env_changes}, keys=b"q")
    assert code == 0, text
    glass = Glass((80, 24))
    glass.feed(text[: text.index("\x1b[?1049l")])  # up to the game's leaving the alternate screen
    rows = glass.rows
    assert any("Battle" in row for row in rows), "\n".join(rows)
    return rows


@pytest.mark.app
@pytest.mark.terminal
@pytest.mark.parametrize(
    ("locale", "drawn"),
    [({}, "ascii"), ({"LANG": "C"}, "ascii"), ({"LC_ALL": "C", "LANG": "C.UTF-8"}, "ascii"),
     ({"LANG": "C.UTF-8"}, "unicode"), ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, "unicode")],
    ids=["nothing-set", "LANG=C", "LC_ALL-wins", "LANG=C.UTF-8", "LC_CTYPE-wins"],
)
def test_the_locale_the_variables_name_decides_ascii_and_none_at_all_is_c(locale, drawn):
    """POSIX's rules: LC_ALL, then LC_CTYPE, then LANG; with none set the locale is C, not UTF-8 (whatever
    Python sets LC_CTYPE to for itself as it starts in it)."""
    text = "\n".join(board_on_screen(locale))
    assert text.isascii() is (drawn == "ascii"), text
