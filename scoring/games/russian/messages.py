"""The Russian game's messages: a problem is a code with parameters (:class:`Message`),
gathered per field in :class:`Problems` and raised as the rules cores' one
:class:`InvalidInput`, so that callers (the ``settle`` command, later the sheets and the
API) handle both games' problems alike. The words are in the project's one catalogue
(``locale/*/LC_MESSAGES/django.po``): English here as the msgid, the Russian there. The
input's shape, the seats, the tricks and the talon are worded as the Austrian core words
them (the same msgids, so the same translations).

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from events.boards import Seat
from events.catalogue import gettext_noop, pgettext, translated_in
from scoring.games.common import messages as common
from scoring.games.common.messages import SHARED, InvalidInput, words_list
from scoring.games.russian.conventions import Convention
from scoring.games.russian.names import Contract, Defence, Strain

#: code → its English text, the msgid of the catalogue; parameters in braces.
MESSAGES: dict[str, str] = {
    **SHARED,
    # input shape
    "boolean": gettext_noop("true or false is needed"),
    "contract_code": gettext_noop(
        "«{value}» is not a contract: a level 6 to 10 and a suit S, C, D, H or NT (6S … 10NT), misere or passed"
    ),
    "call_format": gettext_noop(
        'a call is an object {{"seat": "N", "call": "6S"}} or a string «N 6S»'
    ),
    "call_word": gettext_noop("«{value}» is not a call: a bid 6S … 10NT, misere, here or pass"),
    "tricks_max": gettext_noop("a deal has 10 tricks: at most 10"),
    # распасы, мизер, the checked 10
    "passed_declarer": gettext_noop("nobody declares on all-pass: everybody passed"),
    "passed_defenders": gettext_noop("all-pass has no defenders: everybody plays for himself"),
    "passed_talon": gettext_noop("on all-pass nobody takes the talon"),
    "seats_needed": gettext_noop(
        "give the three active seats («seats»): the sheet does not name them otherwise"
    ),
    "misere_defenders": gettext_noop(
        "a misere is not whisted: no defenders' decisions (the active seats go in «seats»)"
    ),
    "checked_ten": gettext_noop(
        "10 tricks are checked in this game: no whist and no half whist, the deal is always played"
    ),
    # defence
    "half_level": gettext_noop("half whist is only on a 6 or a 7"),
    "half_second": gettext_noop(
        "only the second defender may half-whist, after the first passed: {seat} speaks first"
    ),
    "half_after_pass": gettext_noop(
        "half whist only after the first defender passed, and {seat} whisted"
    ),
    "stalingrad": gettext_noop("«Stalingrad»: at 6♠ both defenders must whist"),
    "both_pass_tricks": gettext_noop(
        "both defenders passed: the deal is not played and counts as made, so no tricks are written"
    ),
    "half_tricks": gettext_noop("half whist: the deal is not played, so no tricks are written"),
    # the auction
    "bid_low": gettext_noop(
        "a bid must be higher than the highest so far, «{bid}» (only a senior player who has bid may equal it: «here»)"
    ),
    "misere_first": gettext_noop("misere is only a player's first bid"),
    "misere_then_pass": gettext_noop("{seat} bid misere: after it he may only pass"),
    "here_nothing": gettext_noop("nothing to equal: nobody has bid yet"),
    "here_needs_bid": gettext_noop("only a player who has bid may say «here»"),
    "here_not_at": gettext_noop("«here» is not said at «{bid}»"),
    "here_junior": gettext_noop(
        "only a player senior to {seat} (earlier from first hand) may equal his bid: {speaker} must bid higher or pass"
    ),
    "auction_plays_misere": gettext_noop("{seat} won the auction with misere: he plays misere"),
    "auction_no_misere": gettext_noop(
        "{seat} won the auction with «{bid}»: a numeric winner never orders misere"
    ),
    "auction_contract_low": gettext_noop(
        "the contract may not be lower than the winning bid «{bid}»"
    ),
}

# --- Words --------------------------------------------------------------------------------

_CONTEXT = "russian game"
_TERMS: dict[str, str] = {
    "misere": pgettext("russian game", "misere"),
    "passed": pgettext("russian game", "all-pass"),
    "NT": pgettext("russian game", "NT"),
    "whist": pgettext("russian game", "whist"),
    "pass": pgettext("russian game", "pass"),
    "half": pgettext("russian game", "half whist"),
    "here": pgettext("russian game", "here"),
    "sochi": pgettext("russian game", "Sochi"),
    "leningrad": pgettext("russian game", "Leningrad"),
    "rostov": pgettext("russian game", "Rostov"),
}
_SYMBOLS = {Strain.SPADES: "♠", Strain.CLUBS: "♣", Strain.DIAMONDS: "♦", Strain.HEARTS: "♥"}


def _term(key: str, lang: str) -> str:
    return translated_in(_CONTEXT, _TERMS[key], lang)


def _contract_word(contract: Contract, lang: str) -> str:
    if not contract.is_numeric:
        return _term(contract.code, lang)
    strain = contract.strain
    mark = _term("NT", lang) if strain is Strain.NOTRUMP else _SYMBOLS[strain]
    return f"{contract.level}{mark}"


@dataclass(frozen=True)
class Said:
    """What an auction or a sheet says: «N plays «6♠»», or распасы."""

    declarer: Seat | None
    contract: Contract

    def render(self, lang: str) -> str:
        word = _contract_word(self.contract, lang)
        if self.contract.is_passed or self.declarer is None:
            return word
        plays = translated_in("contract", pgettext("contract", "{declarer} plays «{word}»"), lang)
        return plays.format(declarer=self.declarer.value, word=word)


def word(value: object, lang: str = "ru") -> str:
    """A seat, contract, decision, call or convention as a word of the language (``ru`` or
    ``en``): the words the messages use, for pages that show a sheet."""
    if isinstance(value, Seat):
        return value.value
    if isinstance(value, Contract):
        return _contract_word(value, lang)
    if isinstance(value, Said):
        return value.render(lang)
    if isinstance(value, (Defence, Convention)) or (
        isinstance(value, StrEnum) and value.value in _TERMS
    ):
        return _term(value.value, lang)
    if isinstance(value, (tuple, list)):
        return words_list([word(v, lang) for v in value], lang)
    return str(value)


class Message(common.Message):
    """One problem of the Russian core: a code from :data:`MESSAGES` and its parameters."""

    MESSAGES = MESSAGES

    @staticmethod
    def word(value: object, lang: str) -> str:
        return word(value, lang)


class Problems(common.Problems):
    """Everything wrong with a Russian deal, by field name: the games' one collection,
    holding this game's :class:`Message`."""

    message = Message


__all__ = ["MESSAGES", "InvalidInput", "Message", "Problems", "Said", "word"]
