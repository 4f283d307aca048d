"""Names from clients are reduced before anyone sees them; table names follow one rule or are refused."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from war_tui.presentation.cells import cell_width
from war_tui.tables import TableNameError, parse_table_name, reduce_name, unique_name
from war_tui.tables.names import MAX_NAME_CHARACTERS, MAX_NAME_LENGTH, name_key


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("alice", "alice"),
        ("\x1b[31mred\x1b[0m", "[31mred[0m"),  # an escape sequence loses its ESC: inert text
        ("\x1b]0;owned\x07bob", "]0;ownedbob"),  # a title-setting sequence loses ESC and BEL
        ("山田", "山田"),  # letters of every script stay
        ("名前テスト名前テスト", "名前テスト名前テ"),  # cut to 16 cells: a wide character takes two
        ("ｆｕｌｌ", "ｆｕｌｌ"),
        ("jo\u0301se", "j\u00f3se"),  # composed (NFC)
        ("e" + "\u0301" * 40 + "x", "\u00e9\u0301\u0301x"),  # a flood of combining marks keeps two
        ("\u0301ann", "ann"),  # a mark with no letter to sit on goes
        ("\u202eann\u202c", "ann"),  # bidi overrides go
        ("a\u200bn\u2066n", "ann"),  # zero-width and isolate characters go
        ("a b\tc\nd\re", "abcde"),
        ("\ue000\U000f0000ann", "ann"),  # private use
        ("", "guest"),
        ("\u200b\u0301 ", "guest"),
        ("x" * 40, "x" * 16),
        ("Ann.Lee_2-b", "Ann.Lee_2-b"),
    ],
)
def test_user_names_keep_letters_and_lose_what_could_disturb_a_screen(raw, shown):
    assert reduce_name(raw) == shown


@given(st.text(max_size=200))
def test_a_reduced_name_is_always_short_and_safe(raw):
    name = reduce_name(raw)
    assert 1 <= cell_width(name) <= MAX_NAME_LENGTH
    assert len(name) <= MAX_NAME_CHARACTERS
    assert name.isprintable()
    assert all(unicodedata.category(ch) not in ("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs") for ch in name)
    assert reduce_name(name) == name


@pytest.mark.parametrize("raw", ["ann", "ANN", "Ann", "\uff41\uff4e\uff4e", "\u24d0\u24dd\u24dd", "a\u200bnn", "\u202eann"])
def test_names_the_same_after_nfkc_and_case_folding_are_one_name(raw):
    assert name_key(reduce_name(raw)) == name_key("ann")


@pytest.mark.parametrize("raw", ["ann!", "anne", "an", "\u0430nn"])
def test_other_names_are_other_names(raw):
    # (Cyrillic \u0430 looks like a but is another letter: a seat is never taken by a name anyway)
    assert name_key(reduce_name(raw)) != name_key("ann")


def test_a_name_already_taken_gets_a_suffix_within_sixteen_cells():
    assert unique_name("bob", {"alice"}) == "bob"
    assert unique_name("bob", {"bob"}) == "bob-2"
    assert unique_name("BOB", {"bob"}) == "BOB-2"
    assert unique_name("\uff42\uff4f\uff42", {"bob"}) == "\uff42\uff4f\uff42-2"
    assert unique_name("bob", {"bob", "bob-2"}) == "bob-3"
    long = "a" * 16
    assert unique_name(long, {long}) == "a" * 14 + "-2"
    assert unique_name("山田" * 4, {"山田" * 4}) == "山田山田山田山-2"


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


@pytest.mark.parametrize(
    "raw",
    [
        "\U0001f3fb",  # an emoji skin tone alone: hypothesis found it reduced to a name 0 cells wide
        "\U0001f3fb\U0001f3ff",
        "\u0301",  # a combining mark alone
        "\u0301\u0308\u20dd",
        "\u200d",  # a zero-width joiner alone
        "\ufe0f",  # a variation selector alone
        "\ufe0e\ufe0f",
        "\u200d\U0001f3fb\ufe0f",
    ],
)
def test_a_name_that_would_take_no_cell_is_the_fallback(raw):
    assert reduce_name(raw) == "guest"


@pytest.mark.parametrize(("raw", "shown", "cells"), [("a\U0001f3fb", "a\U0001f3fb", 1), ("\u2665\ufe0f" * 10, "\u2665\ufe0f" * 8, 16)])
def test_a_name_is_cut_to_sixteen_cells_as_the_screens_measure_them(raw, shown, cells):
    assert reduce_name(raw) == shown
    assert cell_width(reduce_name(raw)) == cells


@pytest.mark.parametrize("raw", ["[i]alice", "[b]alice[/b]", "[reverse]ALICE", "[link=//e]alice", "alice[/]"])
def test_a_name_that_markup_would_show_as_another_is_that_name(raw):
    """Shown as text, ``[i]alice`` reads as itself; were it ever read as markup it would look like alice."""
    assert name_key(reduce_name(raw)) == name_key("alice")
    assert unique_name(reduce_name(raw), {"alice"}) == reduce_name(raw)[: MAX_NAME_LENGTH - 2] + "-2"
    assert unique_name("alice", {reduce_name(raw)}) == "alice-2"


@pytest.mark.parametrize("raw", ["ann[2]", "[/]", "[1]ann"])
def test_brackets_that_are_no_tag_keep_a_name_apart(raw):
    assert name_key(raw) != name_key("ann")
    assert unique_name(raw, {"ann"}) == raw
