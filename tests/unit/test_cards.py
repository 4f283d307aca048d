"""Card notation: what people type is read the way they meant it, and anything else is refused clearly."""

import random

import pytest

from war_tui.core.cards import (
    CardError,
    card_str,
    deal,
    format_cards,
    is_red,
    new_deck,
    parse_card,
    parse_cards,
    rank,
    shuffle,
    suit,
    validate_packets,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("2c", "2C"),
        ("TD", "TD"),
        ("td", "TD"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("Q♥", "QH"),
        ("k♠", "KS"),
        ("9♣", "9C"),
        ("J♦", "JD"),
        ("A♥\ufe0f", "AH"),  # emoji variation selector, as pasted from a phone
        ("10♠\ufe0e", "TS"),  # text variation selector
        ("  7d ", "7D"),
    ],
)
def test_a_card_is_read_in_every_accepted_spelling(text, expected):
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1H", "11S", "AX", "ASS", "ZZ", "10", "♥", "JOKER", "A♥♥"])
def test_a_bad_card_is_refused_with_a_message(text):
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert str(info.value)  # a message fit to show a person
    assert "\n" not in str(info.value)


def test_a_packet_is_read_top_card_first_with_spaces_or_commas():
    assert format_cards(parse_cards("AS, 10h  kd,Q♥️ 2c")) == "AS TH KD QH 2C"


def test_ranks_order_aces_high_and_suits_never_matter():
    two, ace = parse_card("2S"), parse_card("AC")
    assert rank(ace) == 12 and rank(two) == 0
    assert rank(parse_card("KH")) == rank(parse_card("KC"))
    assert suit(parse_card("AC")) == 0 and suit(parse_card("AS")) == 3
    assert is_red(parse_card("AH")) and is_red(parse_card("AD")) and not is_red(parse_card("AS"))


def test_every_card_has_one_two_character_name():
    names = [card_str(c) for c in new_deck()]
    assert len(set(names)) == 52
    assert all(len(n) == 2 for n in names)
    assert [parse_card(n) for n in names] == new_deck()


@pytest.mark.parametrize(
    ("p1", "p2", "message"),
    [
        ("AS KD", "AS 2C", "AS appears more than once"),
        ("AS AS", "2C", "AS appears more than once"),
        ("", "2C", "player 1's packet is empty"),
        ("2C", "", "player 2's packet is empty"),
    ],
)
def test_packets_with_a_repeated_card_or_nothing_in_them_are_refused(p1, p2, message):
    with pytest.raises(CardError, match=message):
        validate_packets(parse_cards(p1), parse_cards(p2))


def test_a_number_that_is_no_card_is_refused():
    with pytest.raises(CardError):
        validate_packets([52], [1])


def test_the_deal_alternates_player_one_first():
    p1, p2 = deal(list(range(52)))
    assert p1[:3] == [0, 2, 4] and p2[:3] == [1, 3, 5]
    assert len(p1) == len(p2) == 26


def test_the_shuffle_uses_only_random_so_a_seed_is_stable():
    """A shuffle is a permutation and repeats with its seed (the pinned deal is in test_engine_properties)."""
    deck = new_deck()
    shuffle(deck, random.Random(0))
    assert sorted(deck) == new_deck()
    again = new_deck()
    shuffle(again, random.Random(0))
    assert deck == again
