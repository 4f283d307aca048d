"""Names from clients are reduced before anyone sees them; table names follow one rule or are refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from war_tui.tables import TableNameError, parse_table_name, reduce_name, unique_name
from war_tui.tables.names import MAX_NAME_LENGTH


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("alice", "alice"),
        ("\x1b[31mred\x1b[0m", "31mred0m"),  # an escape sequence loses its ESC and brackets
        ("\x1b]0;owned\x07bob", "0ownedbob"),  # a title-setting sequence too
        ("名前テスト", "guest"),  # wide characters: nothing left, the fallback name
        ("ｆｕｌｌｗｉｄｔｈ", "guest"),
        ("jo\u0301se", "jose"),  # a combining accent is dropped
        ("a b\tc\nd\re", "abcde"),
        ("", "guest"),
        ("x" * 40, "x" * 16),
        ("Ann.Lee_2-b", "Ann.Lee_2-b"),
    ],
)
def test_user_names_keep_only_safe_characters(raw, shown):
    assert reduce_name(raw) == shown


@given(st.text(max_size=200))
def test_a_reduced_name_is_always_short_and_safe(raw):
    name = reduce_name(raw)
    assert 1 <= len(name) <= MAX_NAME_LENGTH
    assert all(ch.isascii() and (ch.isalnum() or ch in "._-") for ch in name)


def test_a_name_already_taken_gets_a_suffix_within_sixteen_characters():
    assert unique_name("bob", {"alice"}) == "bob"
    assert unique_name("bob", {"bob"}) == "bob-2"
    assert unique_name("bob", {"bob", "bob-2"}) == "bob-3"
    long = "a" * 16
    assert unique_name(long, {long}) == "a" * 14 + "-2"


@pytest.mark.parametrize(("raw", "name"), [("oak", "oak"), ("OAK", "oak"), ("table-7", "table-7"), ("x" * 24, "x" * 24)])
def test_good_table_names_are_case_folded(raw, name):
    assert parse_table_name(raw) == name


@pytest.mark.parametrize(
    "raw", ["", "x" * 25, "oak tree", "oak_tree", "oak.", "\x1b[2J", "oak\n", "\u212a" "ey", "straße", "ＯＡＫ", "../etc"]
)
def test_other_table_names_are_refused_with_the_rule(raw):
    with pytest.raises(TableNameError) as refusal:
        parse_table_name(raw)
    message = str(refusal.value)
    assert "1-24 characters of a-z, 0-9 and -" in message
    assert "\x1b" not in message and "\n" not in message.rstrip()
