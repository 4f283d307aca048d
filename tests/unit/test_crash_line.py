"""A game's crash report as the log's one line: the exception raised, and where, from a plain Python
traceback and from a Rich one (a Textual game's), never a fragment of its box."""

from __future__ import annotations

from war_tui.serving.crash import crash_summary

RICH_REPORT = """\
╭─────────────────────────────── Traceback (most recent call last) ────────────────────────────────╮
│ /srv/war_tui/ui/lobby.py:88 in render_row                                                        │
│                                                                                                  │
│ ❱  88 │   │   return Text.from_markup(name)                                                      │
│                                                                                                  │
│ ╭─────────────────────────────── locals ───────────────────────────────╮                         │
│ │ name = '[/]'                                                         │                         │
│ ╰──────────────────────────────────────────────────────────────────────╯                         │
│ /venv/lib/python3.11/site-packages/rich/markup.py:174 in render                                  │
│                                                                                                  │
│ ❱ 174 │   │   │   │   │   │   raise MarkupError(                                                 │
│   175 │   │   │   │   │   │   │   f"closing tag '[/]' at position {position} has nothing to cl   │
╰──────────────────────────────────────────────────────────────────────────────────────────────────╯
MarkupError: closing tag '[/]' at position 0 has nothing to close
"""

PLAIN_REPORT = """\
Traceback (most recent call last):
  File "/srv/war_tui/app.py", line 12, in main
    run()
  File "/srv/war_tui/game.py", line 40, in run
    raise RuntimeError("fell over")
RuntimeError: fell over
"""


def test_a_rich_traceback_is_summed_up_as_the_exception_and_its_last_place():
    assert crash_summary(RICH_REPORT.splitlines()) == (
        "MarkupError: closing tag '[/]' at position 0 has nothing to close at markup.py:174"
    )


def test_a_rich_traceback_cut_before_the_exception_line_names_no_box_fragment():
    summary = crash_summary(RICH_REPORT.splitlines()[:-1])
    assert not any(ch in summary for ch in "│╭╰─❱") and summary.endswith(" at markup.py:174"), summary


def test_a_plain_traceback_is_summed_up_as_before():
    assert crash_summary(PLAIN_REPORT.splitlines()) == "RuntimeError: fell over at game.py:40"
