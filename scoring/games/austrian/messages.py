"""The core's messages: every problem is a code with parameters (:class:`Message`),
gathered per field in :class:`Problems`. The words of each code are in the project's one
translation catalogue (``locale/*/LC_MESSAGES/django.po``): English here as the msgid, the
Russian where translators edit every other text of the app.

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from events.boards import (
    Seat,
)
from events.catalogue import gettext_noop, pgettext, translated_in
from scoring.games.austrian.names import (
    TERMS,
    Contract,
)
from scoring.games.common import messages as common
from scoring.games.common.messages import SHARED, InvalidInput, number, plain_word

# --- Messages -----------------------------------------------------------------------------


#: code → its text in English, the msgid of the project's one translation catalogue
#: (locale/*/LC_MESSAGES/django.po, where translators give the Russian); parameters in
#: braces are filled in by :meth:`Message.render`.
MESSAGES: dict[str, str] = {
    **SHARED,
    # input shape
    # rules of the event
    "suit_order": gettext_noop(
        "the suit order lists all four suits once, low to high, or is seed / pagat"
    ),
    "field_not_for_pot": gettext_noop("this field does not belong to the «{pot}» pot"),
    # contract
    "trump_required": gettext_noop("name the trump"),
    "trump_below_level": gettext_noop("after «{level}» the trump must be {allowed}"),
    "game_in_hearts": gettext_noop(
        "«game» is played in any suit but hearts: hearts have their own bid «hearts»"
    ),
    "hearts_trump": gettext_noop("with the bid «hearts» the trump is hearts"),
    "passed_out_field": gettext_noop(
        "a passed-out deal has no {what}: everybody passed in the auction, nobody plays"
    ),
    "game_trump_below_level": gettext_noop(
        "«game» after «{level}» in the auction: the trump is not below the level reached — {allowed}"
    ),
    # seats and defence
    "seats_required": gettext_noop("give the three active seats of the passed-out deal"),
    # Nothing chosen yet is asked for, not counted («… а указано 0» read as a fault).
    "invite_needs_whist": gettext_noop(
        "only a whisting defender can invite: only a passer is invited, and only when the other defender whists"
    ),
    # tricks
    "passer_takes_none": gettext_noop(
        "a passer who was not invited does not play: his cards are out of play, he takes no tricks"
    ),
    "no_play_tricks": gettext_noop(
        "both defenders passed — no play: the declarer has 10 tricks, the defenders 0"
    ),
    # the talon (docs/game.md §2.7)
    "talon_no_talon": gettext_noop(
        "with «{contract}» nobody takes the talon: it is recorded only with a numeric contract"
    ),
    # auction
    "call_format": gettext_noop(
        'a call is an object {{"seat": "N", "call": "one"}} or a string «N one»'
    ),
    "numbers_by_one": gettext_noop("numbers rise by one with no jumps: only «{next}» now"),
    "no_number_above_four": gettext_noop("there is no number above «four»"),
    "number_after_game": gettext_noop("only «game» or «hearts» overcalls «game», a number cannot"),
    "no_talon_after_number": gettext_noop(
        "a player who named a number cannot bid «{call}» later: a no-talon bid is made at the first turn to speak"
    ),
    "hold_needs_number": gettext_noop("only a player who has named a number can hold"),
    "hold_nothing": gettext_noop("nothing to hold: the highest call now is «{call}»"),
    "hold_priority": gettext_noop(
        "only a player who spoke before {seat} can hold: {speaker} must name «{next}» or pass"
    ),
    "hold_priority_four": gettext_noop(
        "only a player who spoke before {seat} can hold, and there is no number above «four»: {speaker} can only pass"
    ),
    "outbid_no_hold": gettext_noop(
        "only a player who spoke before {seat} can hold: {speaker} was outbid and can only pass"
    ),
    "outbid_number": gettext_noop(
        "{speaker} was outbid: he may only hold or pass, not name a higher number"
    ),
    "outbid_number_pass": gettext_noop(
        "{speaker} was outbid, and only a player who spoke before {seat} can hold: {speaker} can only pass"
    ),
    "game_suit_below_level": gettext_noop(
        "«game» after «{level}»: the suit is not below the level reached — {allowed}"
    ),
    "auction_game_suits": gettext_noop(
        "two players bid «game» — give each «game» call its suit to decide who plays"
    ),
    "auction_game_trump": gettext_noop(
        "the auction gives «game» in {suit}, the score sheet names {trump} as trump"
    ),
    # comparing
}


def _said(declarer: Seat | None, contract: Contract | None) -> _Phrase:
    return _Phrase(declarer, contract)


@dataclass(frozen=True)
class _Text:
    """A word of a message marked for the catalogue under a context (the name of a field,
    say, in the case the message needs)."""

    context: str
    en: str

    def render(self, lang: str) -> str:
        return translated_in(self.context, self.en, lang)


#: What a passed-out deal lacks, by field: the object of «a passed-out deal has no …».
_PASSED_OUT_FIELDS = {
    "declarer": _Text("passed-out deal lacks", pgettext("passed-out deal lacks", "declarer")),
    "trump": _Text("passed-out deal lacks", pgettext("passed-out deal lacks", "trump")),
    "defenders": _Text("passed-out deal lacks", pgettext("passed-out deal lacks", "defenders")),
    "tricks": _Text("passed-out deal lacks", pgettext("passed-out deal lacks", "tricks")),
}


@dataclass(frozen=True)
class _Phrase:
    declarer: Seat | None
    contract: Contract | None

    def render(self, lang: str) -> str:
        if self.contract is Contract.PASSED or self.contract is None:
            return translated_in("game term", pgettext("game term", "passed out"), lang)
        word = _word(self.contract, lang)
        if self.declarer is None:
            return f"«{word}»"
        plays = translated_in("contract", pgettext("contract", "{declarer} plays «{word}»"), lang)
        return plays.format(declarer=self.declarer, word=word)


def _word(value: object, lang: str) -> str:
    if isinstance(value, StrEnum) and not isinstance(value, Seat):
        if value.value in TERMS:
            return translated_in("game term", value.value, lang)
        return value.value
    return plain_word(value, lang, _word)


def word(value: object, lang: str = "ru") -> str:
    """A seat, suit, contract, bid or decision as a word of the language (``ru`` or
    ``en``): the words the messages use, for pages that show a score sheet."""
    return _word(value, lang)


class Message(common.Message):
    """One problem of the Austrian core: a code from :data:`MESSAGES` and its parameters."""

    MESSAGES = MESSAGES

    @staticmethod
    def word(value: object, lang: str) -> str:
        return _word(value, lang)


class Problems(common.Problems):
    """Everything wrong with an Austrian deal, by field name (the JSON path)."""

    message = Message


__all__ = ["MESSAGES", "InvalidInput", "Message", "Problems", "number", "word"]
