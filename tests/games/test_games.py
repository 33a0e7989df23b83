"""The games' one interface (scoring/games/__init__.py): a JSON deal goes to its game by
``rules.game``; the Austrian game stays exactly as before; the Russian core's words are in
the one catalogue in both languages."""

import re

import pytest

from events.catalogue import translated
from scoring.games import (
    AUSTRIAN_GAME,
    GAMES,
    RUSSIAN_GAME,
    InvalidInput,
    austrian,
    game_named,
    settle_json,
)
from scoring.games.russian import MESSAGES, word
from scoring.games.russian.names import BIDS, MISERE, PASSED, Defence

LESNOY = {
    "rules": {"pot": "running", "pot_before": 130, "limit": 100, "ante": 10},
    "declarer": "N",
    "contract": "one",
    "trump": "spades",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}
SOCHI = {
    "rules": {"game": "sochi"},
    "declarer": "N",
    "contract": "6S",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}


def test_each_game_name_has_its_game():
    assert GAMES == {
        "austrian": AUSTRIAN_GAME,
        "sochi": RUSSIAN_GAME,
        "leningrad": RUSSIAN_GAME,
        "rostov": RUSSIAN_GAME,
    }
    assert game_named(None) is AUSTRIAN_GAME
    with pytest.raises(KeyError):
        game_named("bridge")


def test_a_deal_without_a_game_is_austrian_exactly_as_before():
    assert settle_json(LESNOY) == austrian.settle_json(LESNOY)
    assert settle_json(LESNOY) == {
        "scores": {"N": 60, "E": 30, "S": -90},
        "failed": ["S"],
        "pot_after": 130,
    }


def test_austrian_may_be_named():
    named = dict(LESNOY, rules=dict(LESNOY["rules"], game="austrian"))
    assert settle_json(named) == austrian.settle_json(LESNOY)


def test_an_austrian_deals_problems_are_as_before():
    bad = dict(LESNOY, contract="seven", rules={"pot": "running"})
    with pytest.raises(InvalidInput) as ours:
        settle_json(bad)
    with pytest.raises(InvalidInput) as theirs:
        austrian.settle_json(bad)
    assert ours.value.render() == theirs.value.render()
    assert set(ours.value.render()) == {"contract", "rules.pot_before"}


def test_a_russian_deal_goes_to_the_russian_core():
    assert settle_json(SOCHI)["scores"] == {"N": 5.33, "E": -0.67, "S": -4.67}
    assert settle_json(dict(SOCHI, rules={"game": " Leningrad "}))["scores"]["N"] == 10.67


@pytest.mark.parametrize("game", ["bridge", 3, None, ""])
def test_an_unknown_game_is_named_as_such(game):
    with pytest.raises(InvalidInput) as caught:
        settle_json(dict(SOCHI, rules={"game": game}))
    assert caught.value.problems.codes() == {"rules.game": ["choice"]}
    assert "sochi" in caught.value.render("en")["rules.game"]


def test_a_game_settles_its_own_deals():
    deal = RUSSIAN_GAME.from_json(SOCHI)
    assert not RUSSIAN_GAME.check(deal)
    assert RUSSIAN_GAME.to_json(RUSSIAN_GAME.settle(deal))["pool"] == {"N": 2, "E": 0, "S": 0}
    deal = AUSTRIAN_GAME.from_json(LESNOY)
    assert AUSTRIAN_GAME.to_json(AUSTRIAN_GAME.settle(deal)) == austrian.settle_json(LESNOY)


def test_every_message_has_both_languages_in_the_one_catalogue():
    for code, en in MESSAGES.items():
        ru = translated(en, "ru")
        assert en and ru != en, code
        assert any("а" <= ch <= "я" for ch in ru.lower()), code
        assert set(re.findall(r"{(\w+)}", ru)) == set(re.findall(r"{(\w+)}", en)), code


def test_the_games_words_in_both_languages():
    assert [word(b, "ru") for b in BIDS[:6]] == ["6♠", "6♣", "6♦", "6♥", "6БК", "7♠"]
    assert word(BIDS[-1], "en") == "10NT"
    assert (word(MISERE), word(MISERE, "en")) == ("мизер", "misere")
    assert (word(PASSED), word(PASSED, "en")) == ("распасы", "all-pass")
    assert [word(d) for d in Defence] == ["вист", "пас", "полвиста"]
    assert [word(d, "en") for d in Defence] == ["whist", "pass", "half whist"]


def test_a_games_form_without_its_words_is_refused_when_defined():
    import pytest

    from scoring.games.forms import SheetForm

    with pytest.raises(TypeError, match="word, contract_choices"):

        class Bare(SheetForm):
            pass
