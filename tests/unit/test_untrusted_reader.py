"""The one reader of records from NATS: bounded before parsing, one exception, a log that a flood cannot fill."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from war_tui.untrusted import (
    BadRecord,
    BadRecords,
    fields,
    finite,
    plain_text,
    read_json,
    text,
    too_deep,
    whole,
)

HOSTILE = [
    b"[" * 3000,  # the record: RecursionError in every reader
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"[" * 17 + b"]" * 17,
    b'{"total": NaN}',
    b'{"total": Infinity}',
    b'{"total": -Infinity}',
    b'{"total": 1e999}',
    b'{"total": -1e400}',
    b"9" * 5000,  # past Python's digits for an int
    b"\xff\xfe",
    b'{"a": "\xc3"}',
    b"",
    b"{",
    b'"unterminated [[[[[[[[[[[[[[[[[[[[[[[[[[',
    b" " * 9000,
]


@pytest.mark.parametrize("record", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_record_is_one_bad_record_never_another_exception(record):
    with pytest.raises(BadRecord) as caught:
        read_json(record, max_bytes=8192)
    # The reason never echoes the record.
    assert str(caught.value) and "[[[" not in str(caught.value) and len(str(caught.value)) < 80


def test_a_bad_record_is_a_value_error_so_older_handlers_catch_it_too():
    assert issubclass(BadRecord, ValueError)


def test_records_within_the_bounds_are_read_as_they_are():
    assert read_json(b'{"node": "n1", "seats": [[null, "ab"], [1.5, -2]]}', max_bytes=100) == {
        "node": "n1", "seats": [[None, "ab"], [1.5, -2]],
    }
    assert read_json("[" * 16 + "]" * 16, max_bytes=100) == [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]
    assert read_json(b"[[]]", max_bytes=10, max_depth=2) == [[]]


def test_brackets_inside_strings_are_no_nesting_and_escaped_quotes_do_not_end_a_string():
    inside = json.dumps({"name": "[" * 500 + '\\"' + "{" * 500}).encode()
    assert read_json(inside, max_bytes=10_000)["name"].startswith("[[[")
    assert not too_deep(inside, 1)
    assert too_deep(b'["\\"", [[]]]', 2)


def test_size_is_bounded_before_anything_is_parsed():
    with pytest.raises(BadRecord, match="past 10"):
        read_json(b"[1,2,3,4,5,6]", max_bytes=10)


def test_the_checkers_give_each_field_its_range():
    record = fields({"a": 1, "b": "x"}, "record", required=("a",), allowed=("a", "b"))
    assert whole(record["a"], "a", 0, 52) == 1
    for bad in (True, 1.0, -1, 53, None, "1"):
        with pytest.raises(BadRecord):
            whole(bad, "a", 0, 52)
    assert finite(3, "seconds", 0, 10) == 3.0
    for bad in (float("nan"), float("inf"), -0.5, 11, False, "2"):
        with pytest.raises(BadRecord):
            finite(bad, "seconds", 0, 10)
    with pytest.raises(BadRecord, match="has no a"):
        fields({}, "record", required=("a",))
    with pytest.raises(BadRecord, match="should not have"):
        fields({"a": 1, "z": 2}, "record", allowed=("a",))
    with pytest.raises(BadRecord):
        fields([], "record")


def test_text_fields_refuse_escapes_lengths_and_forms():
    assert text("oak", "table", 24, re.compile("[a-z]+")) == "oak"
    for bad in ("\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x1b[2J", "a\u202eb", "x" * 25, 5, None):
        with pytest.raises(BadRecord):
            text(bad, "table", 24)
    with pytest.raises(BadRecord, match="form"):
        text("OAK", "table", 24, re.compile("[a-z]+"))


def test_plain_text_drops_every_escape_and_keeps_letters_and_line_breaks():
    assert plain_text("ann\x1b]0;pwned\x07 [b]bob[/b]\r\n山 é\u202e\u200b\u00a0z") == "ann]0;pwned [b]bob[/b]\n山 é z"
    assert plain_text("\x1b[2J\x1b[H") == "[2J[H"  # the escape is gone; what is left is letters
    same = "all printable: nothing to do"
    assert plain_text(same) is same


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_bad_record_log_has_a_flood_budget_of_its_own():
    lines: list[str] = []
    clock = Clock()
    bad = BadRecords(lines.append, burst=3, period=10.0, clock=clock)
    for number in range(1000):
        bad(f"record {number} skipped")
    assert lines == ["record 0 skipped", "record 1 skipped", "record 2 skipped"]
    bad.flush()  # within the period: nothing yet
    assert len(lines) == 3
    clock.now = 10.0
    bad.flush()
    assert lines[3] == "flood: 997 more bad records from NATS skipped in 10 s, not logged one by one"
    bad("record 1000 skipped")
    assert lines[4:] == ["record 1000 skipped"]
    assert bad.count == 1001


def test_a_record_read_again_at_each_poll_is_told_once():
    lines: list[str] = []
    bad = BadRecords(lines.append, clock=Clock())
    for _ in range(5):
        bad("the session record 'sessions.x' is skipped", seen=("sessions.x", 7))
    bad("the session record 'sessions.x' is skipped", seen=("sessions.x", 8))  # written again: a new record
    assert len(lines) == 2 and bad.count == 2


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(item) for item in value.values()), default=0)
    return 0


TEXTS = st.text(alphabet='[]{}"\\ab\x1b', max_size=6)
VALUES = st.recursive(
    st.none() | st.integers() | TEXTS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
    max_leaves=30,
)


@given(VALUES, st.integers(min_value=0, max_value=8))
def test_the_scan_counts_the_nesting_the_parser_would_meet(value, most):
    """Brackets, quotes and backslashes inside strings are no nesting; every bracket outside them is."""
    assert too_deep(json.dumps(value).encode(), most) == (depth(value) > most)
