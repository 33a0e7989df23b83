"""The messages every game's core and every pure core above them share: a problem is a code
with parameters (:class:`Message`), gathered per field in :class:`Problems` and raised as
the one :class:`InvalidInput` (a field → its messages), so that callers — the ``settle``
command, the sheets, the API — handle every game's problems alike.

The words are in the project's one translation catalogue (``locale/*/LC_MESSAGES/django.po``):
English here as the msgid, the Russian there. :data:`SHARED` holds the texts both games word
alike — the input's shape, the seats, the defence's count, the tricks, the talon, the
auction's turns — so both games (and the solver, the ladder, the comparison) share their
translations. A game's core subclasses :class:`Message` with its own table and words and
:class:`Problems` to hold it (``scoring.games.austrian.messages``,
``scoring.games.russian.messages``).

Part of the games' pure kernel ``scoring.games.common``: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from events.boards import Seat
from events.catalogue import gettext_noop, pgettext, translated, translated_in

#: code → its English text (the catalogue's msgid), worded alike by every game; parameters
#: in braces are filled in by :meth:`Message.render`.
SHARED: dict[str, str] = {
    "percent": gettext_noop("a percentage is a number from 0 to 100"),
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
    "seats_count": gettext_noop("there are exactly three different active seats out of W, N, E, S"),
    "seats_mismatch": gettext_noop(
        "the active seats are the declarer and the two defenders: {seats}"
    ),
    "board_seats": gettext_noop("this deal of the set is played by {seats}"),
    "board_players": gettext_noop("a table has 3 or 4 players"),
    "board_number": gettext_noop("the deals of a set are numbered 1 to {count}"),
    "first_hand_inactive": gettext_noop("first hand is one of the active seats"),
    "first_hand_dealer_left": gettext_noop("first hand sits on the dealer's left, that is {seat}"),
    "defenders_required": gettext_noop("choose the two defenders: whist or pass for each"),
    "defenders_count": gettext_noop("there must be two defenders, not {count}"),
    "declarer_defends": gettext_noop("the declarer cannot be a defender"),
    "seat_not_active": gettext_noop("{seat} does not play this deal"),
    "tricks_required": gettext_noop("give the tricks: the deal was played"),
    "tricks_missing": gettext_noop("the number of tricks is missing"),
    "tricks_sum": gettext_noop("the tricks must add up to 10, they add up to {total}"),
    "talon_format": gettext_noop("the talon is two cards, e.g. «SA H7»"),
    "talon_card": gettext_noop(
        "«{value}» is not a card: a card is a suit (S, C, D, H) and a rank (7, 8, 9, 10, J, Q, K, A), e.g. SA"
    ),
    "talon_twice": gettext_noop("the talon is two different cards"),
    "auction_over": gettext_noop("the auction is already over"),
    "auction_first_hand": gettext_noop("first hand — {seat} — opens the auction"),
    "out_of_turn": gettext_noop("it is {seat}'s turn to speak"),
    "passed_for_good": gettext_noop("{seat} has passed, and a pass is final"),
    "auction_unfinished": gettext_noop("the auction is not over: it is {seat}'s turn"),
    "auction_mismatch": gettext_noop("the auction gives {got}, the score sheet says {entered}"),
}


def number(value: Fraction | int, places: int | None = None) -> int | float:
    """An exact amount for JSON: ``int`` when whole, else a float (rounded to ``places``
    decimals if given)."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(value) if places is None else round(float(value), places)


def words_list(words: list[str], lang: str) -> str:
    """«a, b or c» in the language."""
    if len(words) < 2:
        return "".join(words)
    last = " " + translated_in("list", pgettext("list", "or"), lang) + " "
    return ", ".join(words[:-1]) + last + words[-1]


def plain_word(value: object, lang: str, word=None) -> str:
    """A message's parameter as a word: a seat by its letter, anything that renders itself
    (a phrase) in the language, a list as «a, b or c» (each by ``word``), an exact amount as
    its number, anything else as its text."""
    word = word or plain_word
    if isinstance(value, Seat):
        return value.value
    render = getattr(value, "render", None)
    if callable(render):
        return render(lang)
    if isinstance(value, (tuple, list)):
        return words_list([word(v, lang) for v in value], lang)
    if isinstance(value, Fraction):
        return str(number(value))
    return str(value)


@dataclass(frozen=True)
class Message:
    """One problem: a code from the class's :attr:`MESSAGES` and its parameters. A core
    subclasses it with its own table and words."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    MESSAGES: ClassVar[Mapping[str, str]] = SHARED

    @staticmethod
    def word(value: object, lang: str) -> str:
        return plain_word(value, lang)

    def render(self, lang: str = "ru") -> str:
        template = translated(self.MESSAGES[self.code], lang)
        return template.format(**{k: self.word(v, lang) for k, v in self.params.items()})


class Problems:
    """Everything wrong with an input, by field name (the JSON path). Holds messages of
    the class's :attr:`message` (a core's subclass names its own)."""

    message: ClassVar[type[Message]] = Message

    def __init__(self) -> None:
        self.by_field: dict[str, list[Message]] = {}

    def add(self, field_name: str, code: str, **params: object) -> None:
        if code not in self.message.MESSAGES:
            raise KeyError(f"no message {code!r}")
        self.by_field.setdefault(field_name, []).append(self.message(code, params))

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


__all__ = [
    "SHARED",
    "InvalidInput",
    "Message",
    "Problems",
    "number",
    "plain_word",
    "words_list",
]
