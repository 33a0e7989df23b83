"""The core's messages: every problem is a code with parameters (:class:`Message`),
gathered per field in :class:`Problems`. The words of each code are in the project's one
translation catalogue (``locale/*/LC_MESSAGES/django.po``): English here as the msgid, the
Russian where translators edit every other text of the app.

Part of the pure core ``scoring.rules`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from events.boards import (
    Seat,
)
from events.catalogue import gettext_noop, pgettext, translated, translated_in
from scoring.rules.names import (
    TERMS,
    Contract,
)

# --- Messages -----------------------------------------------------------------------------


#: code → its text in English, the msgid of the project's one translation catalogue
#: (locale/*/LC_MESSAGES/django.po, where translators give the Russian); parameters in
#: braces are filled in by :meth:`Message.render`.
MESSAGES: dict[str, str] = {
    # input shape
    "json": gettext_noop("cannot parse JSON: {detail}"),
    "empty": gettext_noop("empty input: JSON expected"),
    "not_object": gettext_noop("a JSON object is expected"),
    "not_list": gettext_noop("a list is expected"),
    "required": gettext_noop("this field is required"),
    "unknown_field": gettext_noop("unknown field"),
    "choice": gettext_noop("«{value}» is not allowed; use one of: {choices}"),
    "seat": gettext_noop("«{value}» is not a seat; seats are W, N, E, S"),
    "trick_count": gettext_noop("a trick count is a whole number, not negative"),
    "amount": gettext_noop("an amount is a number, not negative"),
    "positive": gettext_noop("a number above 0 is needed"),
    "whole": gettext_noop("a whole number from {minimum} up is needed"),
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
    "seats_count": gettext_noop("there are exactly three different active seats out of W, N, E, S"),
    "seats_mismatch": gettext_noop(
        "the active seats are the declarer and the two defenders: {seats}"
    ),
    "board_seats": gettext_noop("this deal of the set is played by {seats}"),
    "board_players": gettext_noop("a table has 3 or 4 players"),
    "board_number": gettext_noop("the deals of a set are numbered 1 to {count}"),
    "first_hand_inactive": gettext_noop("first hand is one of the active seats"),
    "first_hand_dealer_left": gettext_noop("first hand sits on the dealer's left, that is {seat}"),
    # Nothing chosen yet is asked for, not counted («… а указано 0» read as a fault).
    "defenders_required": gettext_noop("choose the two defenders: whist or pass for each"),
    "defenders_count": gettext_noop("there must be two defenders, not {count}"),
    "declarer_defends": gettext_noop("the declarer cannot be a defender"),
    "invite_needs_whist": gettext_noop(
        "only a whisting defender can invite: only a passer is invited, and only when the other defender whists"
    ),
    "seat_not_active": gettext_noop("{seat} does not play this deal"),
    # tricks
    "tricks_required": gettext_noop("give the tricks: the deal was played"),
    "tricks_missing": gettext_noop("the number of tricks is missing"),
    "tricks_sum": gettext_noop("the tricks must add up to 10, they add up to {total}"),
    "passer_takes_none": gettext_noop(
        "a passer who was not invited does not play: his cards are out of play, he takes no tricks"
    ),
    "no_play_tricks": gettext_noop(
        "both defenders passed — no play: the declarer has 10 tricks, the defenders 0"
    ),
    # the talon (docs/game.md §2.7)
    "talon_format": gettext_noop("the talon is two cards, e.g. «SA H7»"),
    "talon_card": gettext_noop(
        "«{value}» is not a card: a card is a suit (S, C, D, H) and a rank (7, 8, 9, 10, J, Q, K, A), e.g. SA"
    ),
    "talon_twice": gettext_noop("the talon is two different cards"),
    "talon_no_talon": gettext_noop(
        "with «{contract}» nobody takes the talon: it is recorded only with a numeric contract"
    ),
    # auction
    "call_format": gettext_noop(
        'a call is an object {{"seat": "N", "call": "one"}} or a string «N one»'
    ),
    "auction_over": gettext_noop("the auction is already over"),
    "auction_first_hand": gettext_noop("first hand — {seat} — opens the auction"),
    "out_of_turn": gettext_noop("it is {seat}'s turn to speak"),
    "passed_for_good": gettext_noop("{seat} has passed, and a pass is final"),
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
    "auction_unfinished": gettext_noop("the auction is not over: it is {seat}'s turn"),
    "auction_game_suits": gettext_noop(
        "two players bid «game» — give each «game» call its suit to decide who plays"
    ),
    "auction_mismatch": gettext_noop("the auction gives {got}, the score sheet says {entered}"),
    "auction_game_trump": gettext_noop(
        "the auction gives «game» in {suit}, the score sheet names {trump} as trump"
    ),
    # comparing
    "scores_empty": gettext_noop("at least one result is needed"),
    "score_value": gettext_noop("a result is a number or an artificial score A+, A, A-"),
    "expected_small": gettext_noop(
        "the expected number of results is not below the actual one ({count})"
    ),
    "same_length": gettext_noop("there must be as many items as results ({count})"),
    "percent": gettext_noop("a percentage is a number from 0 to 100"),
}


def number(value: Fraction | int, places: int | None = None) -> int | float:
    """An exact amount for JSON: ``int`` when whole, else a float (rounded to ``places``
    decimals if given)."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(value) if places is None else round(float(value), places)


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
    if isinstance(value, Seat):
        return value.value
    if isinstance(value, (_Phrase, _Text)):
        return value.render(lang)
    if isinstance(value, StrEnum):
        if value.value in TERMS:
            return translated_in("game term", value.value, lang)
        return value.value
    if isinstance(value, (tuple, list)):
        words = [_word(v, lang) for v in value]
        last = " " + translated_in("list", pgettext("list", "or"), lang) + " "
        return ", ".join(words[:-1]) + last + words[-1] if len(words) > 1 else "".join(words)
    if isinstance(value, Fraction):
        return str(number(value))
    return str(value)


def word(value: object, lang: str = "ru") -> str:
    """A seat, suit, contract, bid or decision as a word of the language (``ru`` or
    ``en``): the words the messages use, for pages that show a score sheet."""
    return _word(value, lang)


@dataclass(frozen=True)
class Message:
    """One problem: a code from :data:`MESSAGES` and its parameters."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, lang: str = "ru") -> str:
        template = translated(MESSAGES[self.code], lang)
        return template.format(**{k: _word(v, lang) for k, v in self.params.items()})


class Problems:
    """Everything wrong with an input, by field name (the JSON path)."""

    def __init__(self) -> None:
        self.by_field: dict[str, list[Message]] = {}

    def add(self, field_name: str, code: str, **params: object) -> None:
        self.by_field.setdefault(field_name, []).append(Message(code, params))

    def merge(self, other: Problems, prefix: str = "", skip: Iterable[str] = ()) -> None:
        """Take ``other``'s problems, field names prefixed; fields under ``skip`` are left out."""
        skipped = set(skip)
        for name, messages in other.by_field.items():
            if name.split(".")[0] in skipped:
                continue
            full = f"{prefix}{name}" if name else prefix.rstrip(".")
            self.by_field.setdefault(full, []).extend(messages)

    def __bool__(self) -> bool:
        return bool(self.by_field)

    def __contains__(self, field_name: object) -> bool:
        return field_name in self.by_field

    def codes(self) -> dict[str, list[str]]:
        """field → message codes; what tests look at."""
        return {name: [m.code for m in messages] for name, messages in self.by_field.items()}

    def render(self, lang: str = "ru") -> dict[str, str]:
        """field → text; several problems of one field are joined with «; »."""
        return {
            name: "; ".join(m.render(lang) for m in messages)
            for name, messages in self.by_field.items()
        }

    def __repr__(self) -> str:
        return f"Problems({self.codes()!r})"


class InvalidInput(ValueError):
    """An input broke a rule; ``problems`` says which, by field."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        super().__init__(problems.render("en"))

    def render(self, lang: str = "ru") -> dict[str, str]:
        return self.problems.render(lang)
