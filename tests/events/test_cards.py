"""The cards core (docs/game.md §8): notation, PPN, and dealing from a seed, checked
against an independent implementation of the published dealing rule."""

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import cards

ORDER = [s + r for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def test_every_card_has_one_name_and_back():
    assert [cards.card_name(c) for c in range(32)] == ORDER
    assert all(cards.parse_card(name) == i for i, name in enumerate(ORDER))


@pytest.mark.parametrize("bad", ["ST", "s7", "H1", "10H", "", None, 7, "HA "])
def test_anything_else_is_not_a_card(bad):
    with pytest.raises(cards.CardError) as caught:
        cards.parse_card(bad)
    assert caught.value.code == "unknown_card"


def test_ppn_letters_follow_prefko():
    # prefko: 7♠…A♠ = 1…8, ♦ = 9…G, ♥ = H…O, ♣ = P…W.
    letters = {
        "S7": "1",
        "SA": "8",
        "D7": "9",
        "DA": "G",
        "H7": "H",
        "HA": "O",
        "C7": "P",
        "CA": "W",
    }
    for name, letter in letters.items():
        deal = cards.deal_from_seed("x", 1, 1, 1, "NES")
        text = deal.ppn()
        every = [c for hand in deal.hands for c in hand] + list(deal.talon)
        assert text[every.index(cards.parse_card(name))] == letter


def _independent_deal(seed, family, set_number, deal_number):
    """docs/game.md §8.2, written again from the text."""
    words, counter = [], 0

    def word():
        nonlocal counter
        if not words:
            digest = hashlib.sha256(
                f"{seed}:{family}:{set_number}:{deal_number}:{counter}".encode()
            ).digest()
            words.extend(int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4))
            counter += 1
        return words.pop(0)

    deck = list(ORDER)
    for i in range(31, 0, -1):
        bound = i + 1
        while True:
            w = word()
            if w < (2**32 // bound) * bound:
                break
        j = w % bound
        deck[i], deck[j] = deck[j], deck[i]
    return [set(deck[0:10]), set(deck[10:20]), set(deck[20:30])], set(deck[30:])


@settings(max_examples=40, deadline=None)
@given(
    st.text(alphabet="0123456789abcdef", min_size=1, max_size=64),
    st.integers(1, 3),
    st.integers(1, 40),
    st.integers(1, 4),
)
def test_dealing_follows_the_published_rule(seed, family, set_number, deal_number):
    dealt = cards.deal_from_seed(seed, family, set_number, deal_number, ("E", "S", "W"))
    hands, talon = _independent_deal(seed, family, set_number, deal_number)
    assert [{cards.card_name(c) for c in h} for h in dealt.hands] == hands
    assert {cards.card_name(c) for c in dealt.talon} == talon
    assert cards.from_ppn(dealt.ppn(), ("E", "S", "W")) == dealt


def test_boxes_differ_and_repeat():
    a = cards.deal_from_seed("s", 1, 1, 1, "NES")
    assert a == cards.deal_from_seed("s", 1, 1, 1, "NES")
    assert a != cards.deal_from_seed("s", 1, 1, 2, "NES")
    assert a != cards.deal_from_seed("s", 2, 1, 1, "NES")


def test_the_hash_is_sha256_of_the_seed():
    seed = cards.new_seed()
    assert len(seed) == 64 and int(seed, 16) >= 0
    assert cards.seed_hash(seed) == hashlib.sha256(seed.encode()).hexdigest()
    assert cards.seed_matches(seed, cards.seed_hash(seed).upper())
    assert not cards.seed_matches(seed + "0", cards.seed_hash(seed))


@pytest.mark.parametrize(
    "text, code",
    [
        ("1" * 32, "card_twice"),
        ("123", "ppn_length"),
        ("X" + "23456789ABCDEFGHIJKLMNOPQRSTUVW", "unknown_card"),
    ],
)
def test_a_bad_ppn_string_names_its_rule(text, code):
    with pytest.raises(cards.CardError) as caught:
        cards.from_ppn(text, "NES")
    assert caught.value.code == code


def test_check_deal_wants_ten_ten_ten_and_two():
    with pytest.raises(cards.CardError) as caught:
        cards.check_deal("NES", [range(0, 9), range(10, 20), range(20, 30)], [30, 31])
    assert caught.value.code == "hand_size"
