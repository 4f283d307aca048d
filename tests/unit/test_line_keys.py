"""The line mode's keys apply in the order they come, however many arrive in one read."""

from __future__ import annotations

import pytest

from war_tui.line.keys import MAX_LINE, MAX_SEQUENCE, Command, KeyReader

LEFT, RIGHT, HOME, END, DELETE = "\x1b[D", "\x1b[C", "\x1b[H", "\x1b[F", "\x1b[3~"
BACK = "\x7f"


@pytest.mark.parametrize("typed, command", [
    (f"fl{BACK}{BACK}score\n", Command.SCORE),  # a word typed over
    (f"abc{BACK * 3}help\n", Command.HELP),
    (f"qxit{LEFT}{LEFT}{BACK}u\n", Command.QUIT),  # the x erased between q and it
    (f"quitzz{LEFT}{LEFT}{DELETE}{DELETE}\n", Command.QUIT),
    (f"uto{HOME}a{END}\n", Command.AUTO),
    (f"core{LEFT * 4}s{RIGHT}\n", Command.SCORE),
    ("\x1bOD" "\x1bOC" "score\n", Command.SCORE),  # SS3 arrows (application cursor keys) move too
    ("help me\x17\x17score\n", Command.SCORE),  # ctrl+w: a word at a time
    ("quit\x15auto\n", Command.AUTO),  # ctrl+u: all before the cursor
    ("autox\x01\x0bscore\n", Command.SCORE),  # ctrl+a, ctrl+k: all after the cursor
    (f"sc{BACK}{BACK}{BACK}{BACK}\n", Command.FLIP),  # more backspaces than letters: an empty line
    ("\x1b[1;5Dscore\n", Command.SCORE),  # ctrl+left is a key, not letters
    ("\x1b[200~score\x1b[201~\n", Command.SCORE),  # a bracketed paste is its text
])
def test_a_line_sent_with_its_edits_in_one_read_is_the_line_they_make(typed, command):
    reader = KeyReader(lines=True)
    assert reader.feed(typed) == [command]


def test_the_same_edits_split_across_reads_make_the_same_line():
    typed = f"qxit{LEFT}{LEFT}{BACK}u\n"
    for cut in range(1, len(typed)):
        reader = KeyReader(lines=True)
        assert reader.feed(typed[:cut]) + reader.feed(typed[cut:]) == [Command.QUIT], cut


def test_single_keys_read_an_escape_sequence_as_one_key():
    reader = KeyReader(lines=False)
    assert reader.feed(f"{LEFT}s{RIGHT}\x1bOAa") == [
        Command.UNKNOWN, Command.SCORE, Command.UNKNOWN, Command.UNKNOWN, Command.AUTO,
    ]
    assert reader.feed("\x1b") == [Command.UNKNOWN]  # the escape key alone
    assert reader.feed("f") == [Command.FLIP]


def test_an_escape_sequence_that_never_ends_is_bounded():
    reader = KeyReader(lines=False)
    assert reader.feed("\x1b[" + "1" * (MAX_SEQUENCE * 10)) == []
    assert reader.feed("~") == []  # its end: the whole of it dropped
    assert reader.feed("s") == [Command.SCORE]
    lines = KeyReader(lines=True)
    lines.feed("\x1b[" + "1" * 100_000)
    assert len(lines._line) <= MAX_LINE


def test_plus_and_minus_are_the_speed_keys_as_keys_and_as_lines():
    assert KeyReader(lines=False).feed("+-=_") == [Command.FASTER, Command.SLOWER, Command.FASTER, Command.SLOWER]
    lines = KeyReader(lines=True)
    assert lines.feed("+\n-\nfaster\nslower\n") == [Command.FASTER, Command.SLOWER, Command.FASTER, Command.SLOWER]
