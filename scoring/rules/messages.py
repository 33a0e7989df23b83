"""The core's messages: every problem is a code with parameters (:class:`Message`),
gathered per field in :class:`Problems`; the words of each code in Russian and English.

Part of the pure core ``scoring.rules`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from events.boards import (
    Seat,
)
from scoring.rules.names import (
    _RU_WORDS,
    Contract,
)

# --- Messages -----------------------------------------------------------------------------

#: code → (Russian, English). Parameters in braces are rendered by :meth:`Message.render`.
MESSAGES: dict[str, tuple[str, str]] = {
    # input shape
    "json": ("не удалось разобрать JSON: {detail}", "cannot parse JSON: {detail}"),
    "empty": ("пустой ввод: ожидается JSON", "empty input: JSON expected"),
    "not_object": ("ожидается объект JSON", "a JSON object is expected"),
    "not_list": ("ожидается список", "a list is expected"),
    "required": ("обязательное поле", "this field is required"),
    "unknown_field": ("неизвестное поле", "unknown field"),
    "choice": (
        "«{value}» не подходит; допустимо: {choices}",
        "«{value}» is not allowed; use one of: {choices}",
    ),
    "seat": (
        "«{value}» — не место за столом; места: W, N, E, S",
        "«{value}» is not a seat; seats are W, N, E, S",
    ),
    "trick_count": (
        "число взяток — целое неотрицательное число",
        "a trick count is a whole number, not negative",
    ),
    "amount": ("нужна сумма — число не меньше 0", "an amount is a number, not negative"),
    "positive": ("нужно число больше 0", "a number above 0 is needed"),
    "whole": (
        "нужно целое число не меньше {minimum}",
        "a whole number from {minimum} up is needed",
    ),
    # rules of the event
    "suit_order": (
        "порядок мастей — все четыре масти по разу, от младшей к старшей, или seed / pagat",
        "the suit order lists all four suits once, low to high, or is seed / pagat",
    ),
    "field_not_for_pot": (
        "поле не относится к котлу «{pot}»",
        "this field does not belong to the «{pot}» pot",
    ),
    # contract
    "trump_required": ("укажите козырь", "name the trump"),
    "trump_below_level": (
        "при «{level}» козырь — {allowed}",
        "after «{level}» the trump must be {allowed}",
    ),
    "game_in_hearts": (
        "«игра» — в любой масти, кроме червей: для червей есть заявка «червы»",
        "«game» is played in any suit but hearts: hearts have their own bid «hearts»",
    ),
    "hearts_trump": (
        "при заявке «червы» козырь — только червы",
        "with the bid «hearts» the trump is hearts",
    ),
    "passed_out_field": (
        "в распасованной сдаче нет {what}: все спасовали в торговле, никто не играет",
        "a passed-out deal has no {what}: everybody passed in the auction, nobody plays",
    ),
    "game_trump_below_level": (
        "«игра» после «{level}» в торговле: козырь не ниже достигнутого — {allowed}",
        "«game» after «{level}» in the auction: the trump is not below the level reached — "
        "{allowed}",
    ),
    # seats and defence
    "seats_required": (
        "укажите три активных места распасованной сдачи",
        "give the three active seats of the passed-out deal",
    ),
    "seats_count": (
        "активных мест — ровно три разных из W, N, E, S",
        "there are exactly three different active seats out of W, N, E, S",
    ),
    "seats_mismatch": (
        "активные места — разыгрывающий и два защитника: {seats}",
        "the active seats are the declarer and the two defenders: {seats}",
    ),
    "board_seats": (
        "в этой сдаче комплекта играют {seats}",
        "this deal of the set is played by {seats}",
    ),
    "board_players": ("за столом 3 или 4 игрока", "a table has 3 or 4 players"),
    "board_number": (
        "в комплекте сдачи с 1 по {count}",
        "the deals of a set are numbered 1 to {count}",
    ),
    "first_hand_inactive": (
        "первая рука — одно из активных мест",
        "first hand is one of the active seats",
    ),
    "first_hand_dealer_left": (
        "первая рука — слева от сдающего, то есть {seat}",
        "first hand sits on the dealer's left, that is {seat}",
    ),
    "defenders_count": (
        "защитников должно быть двое, а указано {count}",
        "there must be two defenders, not {count}",
    ),
    "declarer_defends": (
        "разыгрывающий не может быть защитником",
        "the declarer cannot be a defender",
    ),
    "invite_needs_whist": (
        "пригласить может только вистующий: приглашённым бывает лишь пасующий, "
        "когда другой защитник вистует",
        "only a whisting defender can invite: only a passer is invited, "
        "and only when the other defender whists",
    ),
    "seat_not_active": ("{seat} не участвует в этой сдаче", "{seat} does not play this deal"),
    # tricks
    "tricks_required": (
        "укажите взятки: сдача разыгрывалась",
        "give the tricks: the deal was played",
    ),
    "tricks_missing": ("не указано число взяток", "the number of tricks is missing"),
    "tricks_sum": (
        "взятки должны в сумме давать 10, а дают {total}",
        "the tricks must add up to 10, they add up to {total}",
    ),
    "passer_takes_none": (
        "пасующий без приглашения не играет: его карты вне игры, взяток у него нет",
        "a passer who was not invited does not play: his cards are out of play, he takes no tricks",
    ),
    "no_play_tricks": (
        "оба защитника спасовали — розыгрыша нет: разыгрывающему 10 взяток, защитникам 0",
        "both defenders passed — no play: the declarer has 10 tricks, the defenders 0",
    ),
    # auction
    "call_format": (
        'заявка — объект {{"seat": "N", "call": "one"}} или строка «N one»',
        'a call is an object {{"seat": "N", "call": "one"}} or a string «N one»',
    ),
    "auction_over": ("торговля уже окончена", "the auction is already over"),
    "auction_first_hand": (
        "торговлю начинает первая рука — {seat}",
        "first hand — {seat} — opens the auction",
    ),
    "out_of_turn": ("сейчас слово за {seat}", "it is {seat}'s turn to speak"),
    "passed_for_good": (
        "{seat} уже спасовал, а пас — окончательный",
        "{seat} has passed, and a pass is final",
    ),
    "numbers_by_one": (
        "цифры повышаются по одной, без скачков: сейчас можно только «{next}»",
        "numbers rise by one with no jumps: only «{next}» now",
    ),
    "no_number_above_four": ("выше «четыре» цифр нет", "there is no number above «four»"),
    "number_after_game": (
        "«игру» перебивает только «игра» или «червы», цифрой её не перебить",
        "only «game» or «hearts» overcalls «game», a number cannot",
    ),
    "no_talon_after_number": (
        "назвавший цифру не может потом заявить «{call}»: игра без прикупа заявляется "
        "при первом слове",
        "a player who named a number cannot bid «{call}» later: a no-talon bid is made "
        "at the first turn to speak",
    ),
    "hold_needs_number": (
        "«здесь» говорит только тот, кто уже назвал цифру",
        "only a player who has named a number can hold",
    ),
    "hold_nothing": (
        "держать нечего: старшая заявка сейчас — «{call}»",
        "nothing to hold: the highest call now is «{call}»",
    ),
    "hold_priority": (
        "«здесь» может сказать только тот, кто говорил раньше {seat}: {speaker} должен "
        "назвать «{next}» или спасовать",
        "only a player who spoke before {seat} can hold: {speaker} must name «{next}» or pass",
    ),
    "hold_priority_four": (
        "«здесь» может сказать только тот, кто говорил раньше {seat}, а выше «четыре» цифр "
        "нет: {speaker} может только спасовать",
        "only a player who spoke before {seat} can hold, and there is no number above «four»: "
        "{speaker} can only pass",
    ),
    "outbid_no_hold": (
        "«здесь» может сказать только тот, кто говорил раньше {seat}: цифру {speaker} "
        "перебили, и теперь {speaker} может только спасовать",
        "only a player who spoke before {seat} can hold: {speaker} was outbid and can only pass",
    ),
    "outbid_number": (
        "цифру {speaker} перебили: теперь {speaker} может только сказать «здесь» или "
        "спасовать, назвать цифру выше нельзя",
        "{speaker} was outbid: he may only hold or pass, not name a higher number",
    ),
    "outbid_number_pass": (
        "цифру {speaker} перебили, а «здесь» может сказать только тот, кто говорил раньше "
        "{seat}: теперь {speaker} может только спасовать",
        "{speaker} was outbid, and only a player who spoke before {seat} can hold: "
        "{speaker} can only pass",
    ),
    "game_suit_below_level": (
        "«игра» после «{level}»: масть не ниже достигнутой в торговле — {allowed}",
        "«game» after «{level}»: the suit is not below the level reached — {allowed}",
    ),
    "auction_unfinished": (
        "торговля не окончена: слово за {seat}",
        "the auction is not over: it is {seat}'s turn",
    ),
    "auction_game_suits": (
        "«игру» заявили двое — укажите масть в каждой заявке «игра», чтобы решить, кто играет",
        "two players bid «game» — give each «game» call its suit to decide who plays",
    ),
    "auction_mismatch": (
        "по торговле — {got}, а в протоколе — {entered}",
        "the auction gives {got}, the score sheet says {entered}",
    ),
    "auction_game_trump": (
        "по торговле «игра» в масти {suit}, а козырь в протоколе — {trump}",
        "the auction gives «game» in {suit}, the score sheet names {trump} as trump",
    ),
    # comparing
    "scores_empty": ("нужен хотя бы один результат", "at least one result is needed"),
    "score_value": (
        "результат — число или искусственный результат A+, A, A-",
        "a result is a number or an artificial score A+, A, A-",
    ),
    "expected_small": (
        "ожидаемое число результатов не меньше фактического ({count})",
        "the expected number of results is not below the actual one ({count})",
    ),
    "same_length": (
        "элементов должно быть столько же, сколько результатов ({count})",
        "there must be as many items as results ({count})",
    ),
    "percent": ("процент — число от 0 до 100", "a percentage is a number from 0 to 100"),
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
    """A word of a message in both languages (the name of a field, say)."""

    ru: str
    en: str

    def render(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru


#: What a passed-out deal lacks, by field: the object of «в распасованной сдаче нет …».
_PASSED_OUT_FIELDS = {
    "declarer": _Text("разыгрывающего", "declarer"),
    "trump": _Text("козыря", "trump"),
    "defenders": _Text("защитников", "defenders"),
    "tricks": _Text("взяток", "tricks"),
}


@dataclass(frozen=True)
class _Phrase:
    declarer: Seat | None
    contract: Contract | None

    def render(self, lang: str) -> str:
        if self.contract is Contract.PASSED or self.contract is None:
            return "распас" if lang == "ru" else "passed out"
        word = _word(self.contract, lang)
        if self.declarer is None:
            return f"«{word}»"
        return (
            f"{self.declarer} играет «{word}»"
            if lang == "ru"
            else f"{self.declarer} plays «{word}»"
        )


def _word(value: object, lang: str) -> str:
    if isinstance(value, Seat):
        return value.value
    if isinstance(value, (_Phrase, _Text)):
        return value.render(lang)
    if isinstance(value, StrEnum):
        return _RU_WORDS.get(value.value, value.value) if lang == "ru" else value.value
    if isinstance(value, (tuple, list)):
        words = [_word(v, lang) for v in value]
        last = " или " if lang == "ru" else " or "
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
        ru, en = MESSAGES[self.code]
        template = en if lang == "en" else ru
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
