"""The rules of one Preference deal: contract, defence, tricks, auction and settlement.

Pure: imports nothing from Django. Plain dataclasses and enums in, plain data out. The rules
are those of seed 004 (the bidding and the whist) and of ``design/domain.md`` («The deal»,
«Settlement»); where both are silent the choice is written down as **decision** below.

Amounts are kept exact (``fractions.Fraction``), so a trick — A/10 — is never rounded. On the
way out (:func:`number`) an amount becomes an ``int`` when it is whole, else the nearest
``float`` (e.g. 13.5); the settlement itself never rounds.

Every check reports *all* problems it finds as :class:`Problems`: field name (the JSON path:
``trump``, ``defenders.E``, ``tricks.N``, ``auction.3``, ``rules.limit``) → messages. A
:class:`Message` is a code plus parameters; :meth:`Problems.render` gives the Russian text
(primary) or the English one.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction

from scoring.boards import (
    CLOCKWISE,
    BoardLayout,
    Seat,
    board_layout,
    clockwise_from,
    inferred_first_hand,
)

__all__ = [
    "AUSTRIAN_SUIT_ORDER",
    "SEED_SUIT_ORDER",
    "AuctionOutcome",
    "Bid",
    "Call",
    "Contract",
    "Deal",
    "Defence",
    "FixedPot",
    "InvalidInput",
    "Message",
    "Problems",
    "Rules",
    "RunningPot",
    "Seat",
    "Settlement",
    "Suit",
    "TrumpPot",
    "allowed_trumps",
    "reached_level",
    "answer_json_text",
    "check_auction",
    "deal_from_json",
    "number",
    "parse_amount",
    "parse_whole",
    "settle",
    "settle_json",
    "settlement_json",
    "stake_of",
    "validate",
    "word",
]


# --- Names --------------------------------------------------------------------------------


class Suit(StrEnum):
    SPADES = "spades"
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"


#: Low to high, as in seed 004: spades (1) < clubs (2) < diamonds (3) < hearts (4).
SEED_SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
#: pagat.com's Austrian page swaps spades and clubs.
AUSTRIAN_SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS)
SUIT_ORDERS: dict[str, tuple[Suit, ...]] = {"seed": SEED_SUIT_ORDER, "pagat": AUSTRIAN_SUIT_ORDER}


class Contract(StrEnum):
    ONE = "one"  # раз
    TWO = "two"  # два
    THREE = "three"  # три
    FOUR = "four"  # четыре
    GAME = "game"  # игра: no talon, any trump but hearts
    HEARTS = "hearts"  # червы: no talon, hearts trump
    PASSED = "passed"  # распас: all passed in the auction

    @property
    def level(self) -> int | None:
        """1–4 for the numeric contracts (the talon is taken), else None."""
        return _LEVELS.get(self.value)


_LEVELS = {"one": 1, "two": 2, "three": 3, "four": 4}
_LEVEL_CONTRACT = {1: Contract.ONE, 2: Contract.TWO, 3: Contract.THREE, 4: Contract.FOUR}


class Defence(StrEnum):
    """A defender's decision."""

    WHIST = "whist"  # вист: promises 2 tricks
    PASS = "pass"  # пас: cards out of play unless invited
    INVITED = "invited"  # a passer whom the other (whisting) defender invited


class Bid(StrEnum):
    """One call of the auction."""

    ONE = "one"
    TWO = "two"
    THREE = "three"
    FOUR = "four"
    HOLD = "hold"  # здесь / держу
    GAME = "game"  # игра — carries the bidder's suit
    HEARTS = "hearts"  # червы — ends the auction
    PASS = "pass"  # пас — out for good

    @property
    def level(self) -> int | None:
        return _LEVELS.get(self.value)


# Russian spellings accepted on input next to the English ones.
_SUIT_WORDS = {s.value: s for s in Suit} | {
    "пики": Suit.SPADES,
    "трефы": Suit.CLUBS,
    "бубны": Suit.DIAMONDS,
    "червы": Suit.HEARTS,
}
_CONTRACT_WORDS = {c.value: c for c in Contract} | {
    "раз": Contract.ONE,
    "два": Contract.TWO,
    "три": Contract.THREE,
    "четыре": Contract.FOUR,
    "игра": Contract.GAME,
    "червы": Contract.HEARTS,
    "распас": Contract.PASSED,
}
_DEFENCE_WORDS = {d.value: d for d in Defence} | {
    "вист": Defence.WHIST,
    "пас": Defence.PASS,
    "приглашён": Defence.INVITED,
    "приглашен": Defence.INVITED,
}
_BID_WORDS = {b.value: b for b in Bid} | {
    "раз": Bid.ONE,
    "два": Bid.TWO,
    "три": Bid.THREE,
    "четыре": Bid.FOUR,
    "здесь": Bid.HOLD,
    "держу": Bid.HOLD,
    "игра": Bid.GAME,
    "червы": Bid.HEARTS,
    "пас": Bid.PASS,
}
_SEAT_WORDS = {s.value: s for s in Seat}

# The Russian word for every enum value; the English text is the value itself. StrEnum
# members of different enums with the same value ("hearts") share the same word here.
_RU_WORDS = {
    "spades": "пики",
    "clubs": "трефы",
    "diamonds": "бубны",
    "hearts": "червы",
    "one": "раз",
    "two": "два",
    "three": "три",
    "four": "четыре",
    "game": "игра",
    "passed": "распас",
    "hold": "здесь",
    "pass": "пас",
    "whist": "вист",
    "invited": "приглашён",
    "fixed": "фиксированный",
    "running": "переходящий",
    "trump": "по козырю",
}


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


# --- Rules of the event -------------------------------------------------------------------


@dataclass(frozen=True)
class FixedPot:
    """Duplicate pot (the default for events): every deal settled against a fresh A."""

    stake: Fraction = Fraction(100)


@dataclass(frozen=True)
class RunningPot:
    """Club play at one table. ``pot_before`` already holds this deal's ante; ``ante`` is
    what the next dealer adds (the answer's ``pot_after`` is before it)."""

    pot_before: Fraction
    limit: Fraction | None = None
    ante: Fraction = Fraction(10)


DEFAULT_TRUMP_STAKES: Mapping[Suit, Fraction] = {
    Suit.CLUBS: Fraction(20),
    Suit.SPADES: Fraction(30),
    Suit.DIAMONDS: Fraction(40),
    Suit.HEARTS: Fraction(50),
}


@dataclass(frozen=True)
class TrumpPot:
    """Styrian variant: A depends on the trump."""

    stakes: Mapping[Suit, Fraction] = field(default_factory=lambda: dict(DEFAULT_TRUMP_STAKES))


Pot = FixedPot | RunningPot | TrumpPot


@dataclass(frozen=True)
class Rules:
    pot: Pot = field(default_factory=FixedPot)
    suit_order: tuple[Suit, ...] = SEED_SUIT_ORDER  # low to high


# --- The deal -----------------------------------------------------------------------------


def _as(kind: type[StrEnum], value: object):
    """``value`` as a member of ``kind`` (None stays None); ValueError if it is not one."""
    return value if value is None or isinstance(value, kind) else kind(value)


@dataclass(frozen=True)
class Call:
    """One call of the auction. A ``game`` call carries the suit its bidder would play, so
    that two «игра» bidders can be told apart (higher suit wins, on a tie the earlier)."""

    seat: Seat
    bid: Bid
    suit: Suit | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", _as(Seat, self.seat))
        object.__setattr__(self, "bid", _as(Bid, self.bid))
        object.__setattr__(self, "suit", _as(Suit, self.suit))


@dataclass(frozen=True)
class Deal:
    """One deal's score sheet. Any field may be None in a half-parsed input; :func:`validate`
    says what is missing."""

    contract: Contract | None
    declarer: Seat | None = None
    trump: Suit | None = None
    defenders: Mapping[Seat, Defence] = field(default_factory=dict)
    tricks: Mapping[Seat, int] | None = None
    seats: tuple[Seat, ...] | None = None  # the active seats; needed for a passed-out deal
    auction: tuple[Call, ...] | None = None
    first_hand: Seat | None = None
    board: BoardLayout | None = None
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        # Plain strings are welcome ("N", "whist"): the rules compare enum members.
        put = object.__setattr__
        put(self, "contract", _as(Contract, self.contract))
        put(self, "declarer", _as(Seat, self.declarer))
        put(self, "trump", _as(Suit, self.trump))
        put(self, "first_hand", _as(Seat, self.first_hand))
        put(self, "defenders", {_as(Seat, k): _as(Defence, v) for k, v in self.defenders.items()})
        if self.tricks is not None:
            put(self, "tricks", {_as(Seat, k): v for k, v in self.tricks.items()})
        if self.seats is not None:
            put(self, "seats", tuple(_as(Seat, s) for s in self.seats))
        if self.auction is not None:
            put(self, "auction", tuple(self.auction))


@dataclass(frozen=True)
class Settlement:
    stake: Fraction  # A
    scores: dict[Seat, Fraction]  # every active seat; a non-invited passer 0
    failed: tuple[Seat, ...]  # who paid A for failing an obligation
    pot_after: Fraction | None  # running pot only, before the next ante


@dataclass(frozen=True)
class AuctionOutcome:
    declarer: Seat | None  # None when passed out
    contract: Contract
    suit: Suit | None = None  # the winning «игра» call's suit, if given


# --- Contract -----------------------------------------------------------------------------


def allowed_trumps(
    contract: Contract, suit_order: Sequence[Suit] = SEED_SUIT_ORDER, reached: int = 0
) -> tuple[Suit, ...]:
    """The trumps a contract allows, low to high: a numeric one «not lower than the level»
    (rank ≥ level in ``suit_order``), «игра» any but hearts, «червы» hearts only.

    ``reached`` is the highest number named in the auction, when it is known. The trump
    rule holds «после покупки (если таковая была)», so for «игра» too: «игра» after «два»
    is in a suit of rank ≥ 2 that is not hearts (seed order: clubs or diamonds)."""
    if contract is Contract.HEARTS:
        return (Suit.HEARTS,)
    if contract is Contract.GAME:
        return tuple(s for s in suit_order[max(reached, 1) - 1 :] if s is not Suit.HEARTS)
    level = contract.level
    if level is None:
        return ()
    return tuple(suit_order[max(level, reached) - 1 :])


def reached_level(calls: Iterable[Call]) -> int:
    """The highest number named in an auction (0 when nobody named one)."""
    return max((call.bid.level or 0 for call in calls), default=0)


def _check_contract(deal: Deal, problems: Problems) -> None:
    contract, trump = deal.contract, deal.trump
    if deal.declarer is None:
        problems.add("declarer", "required")
    if contract is Contract.HEARTS:
        if trump is not None and trump is not Suit.HEARTS:
            problems.add("trump", "hearts_trump")
        return
    if trump is None:
        problems.add("trump", "trump_required")
    elif contract is Contract.GAME:
        if trump is Suit.HEARTS:
            problems.add("trump", "game_in_hearts")
    elif trump not in allowed_trumps(contract, deal.rules.suit_order):
        problems.add(
            "trump",
            "trump_below_level",
            level=contract,
            allowed=allowed_trumps(contract, deal.rules.suit_order),
        )


def _check_rules(rules: Rules, problems: Problems) -> None:
    order = tuple(rules.suit_order)
    if len(order) != 4 or set(order) != set(Suit):
        problems.add("rules.suit_order", "suit_order")
    pot = rules.pot
    if isinstance(pot, FixedPot):
        if pot.stake <= 0:
            problems.add("rules.stake", "positive")
    elif isinstance(pot, RunningPot):
        if pot.pot_before < 0:
            problems.add("rules.pot_before", "amount")
        if pot.limit is not None and pot.limit <= 0:
            problems.add("rules.limit", "positive")
        if pot.ante < 0:
            problems.add("rules.ante", "amount")
    elif isinstance(pot, TrumpPot):
        for suit in Suit:
            if suit not in pot.stakes:
                problems.add(f"rules.stakes.{suit}", "required")
            elif pot.stakes[suit] <= 0:
                problems.add(f"rules.stakes.{suit}", "positive")


# --- Seats, defence, tricks ---------------------------------------------------------------


def _check_seat_list(seats: Sequence[Seat], problems: Problems) -> frozenset[Seat] | None:
    if len(seats) != 3 or len(set(seats)) != 3:
        problems.add("seats", "seats_count")
        return None
    return frozenset(seats)


def _check_layout(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    """The board (if given) and the first hand agree with the active seats."""
    if active is None:
        return
    if deal.board is not None and set(deal.board.active_seats) != active:
        problems.add("board", "board_seats", seats=_in_order(deal.board.active_seats))
    if deal.first_hand is not None:
        inferred = inferred_first_hand(active)
        if deal.first_hand not in active:
            problems.add("first_hand", "first_hand_inactive")
        elif inferred is not None and deal.first_hand is not inferred:
            problems.add("first_hand", "first_hand_dealer_left", seat=inferred)
        elif deal.board is not None and deal.first_hand is not deal.board.first_hand:
            problems.add("first_hand", "first_hand_dealer_left", seat=deal.board.first_hand)


def _in_order(seats: Iterable[Seat]) -> tuple[Seat, ...]:
    chosen = set(seats)
    return tuple(s for s in CLOCKWISE if s in chosen)


def _check_seats(deal: Deal, problems: Problems) -> frozenset[Seat] | None:
    """Declarer and two defenders: three different seats. Returns them (None if broken)."""
    declarer, defenders = deal.declarer, deal.defenders
    active: frozenset[Seat] | None = None
    if len(defenders) != 2:
        problems.add("defenders", "defenders_count", count=len(defenders))
    if declarer is not None and declarer in defenders:
        problems.add(f"defenders.{declarer}", "declarer_defends")
    if declarer is not None and len(defenders) == 2 and declarer not in defenders:
        active = frozenset({declarer, *defenders})
    if deal.seats is not None:
        listed = _check_seat_list(deal.seats, problems)
        if listed is not None and active is not None and listed != active:
            problems.add("seats", "seats_mismatch", seats=_in_order(active))
    _check_layout(deal, active, problems)
    return active


def _check_defence(deal: Deal, problems: Problems) -> None:
    """«Invited» is a passer whom the other defender, a whister, invited. So it needs the
    other defender to whist; two «invited» or «invited» with «pass» are refused."""
    whisters = [s for s, d in deal.defenders.items() if d is Defence.WHIST]
    for seat, decision in deal.defenders.items():
        if decision is Defence.INVITED and [w for w in whisters if w is not seat] == []:
            problems.add(f"defenders.{seat}", "invite_needs_whist")


def _check_tricks(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    decisions = deal.defenders
    no_play = len(decisions) == 2 and all(d is Defence.PASS for d in decisions.values())
    tricks = deal.tricks
    if tricks is None:
        if not no_play:
            problems.add("tricks", "tricks_required")
        return
    broken = False
    for seat, count in tricks.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.add(f"tricks.{seat}", "trick_count")
            broken = True
        elif active is not None and seat not in active:
            problems.add(f"tricks.{seat}", "seat_not_active", seat=seat)
            broken = True
    if active is None or broken:
        return
    if no_play:
        if tricks.get(deal.declarer, 10) != 10 or any(tricks.get(s, 0) != 0 for s in decisions):
            problems.add("tricks", "no_play_tricks")
        return
    # A passer who was not invited may be left out: he takes none.
    passers = [s for s, d in decisions.items() if d is Defence.PASS]
    for seat in sorted(active - set(passers) - set(tricks), key=CLOCKWISE.index):
        problems.add(f"tricks.{seat}", "tricks_missing")
        broken = True
    for seat in passers:
        if tricks.get(seat, 0) != 0:
            problems.add(f"tricks.{seat}", "passer_takes_none")
    total = sum(tricks.values())
    if not broken and total != 10:
        problems.add("tricks", "tricks_sum", total=total)


def _check_passed_out(deal: Deal, problems: Problems) -> frozenset[Seat] | None:
    for name, value in (
        ("declarer", deal.declarer),
        ("trump", deal.trump),
        ("defenders", deal.defenders or None),
        ("tricks", deal.tricks),
    ):
        if value is not None:
            problems.add(name, "passed_out_field", what=_PASSED_OUT_FIELDS[name])
    active: frozenset[Seat] | None = None
    if deal.seats is not None:
        active = _check_seat_list(deal.seats, problems)
    elif deal.board is not None:
        active = frozenset(deal.board.active_seats)
    else:
        problems.add("seats", "seats_required")
    _check_layout(deal, active, problems)
    return active


# --- Auction ------------------------------------------------------------------------------

_NEW, _NUMBERED, _GAME, _PASSED = "new", "numbered", "game", "passed"


def check_auction(
    calls: Sequence[Call],
    active_seats: Iterable[Seat],
    first_hand: Seat | None = None,
    suit_order: Sequence[Suit] = SEED_SUIT_ORDER,
) -> tuple[AuctionOutcome | None, Problems]:
    """Run an auction by the rules of seed 004 and say what contract it yields.

    The players speak in turn, clockwise from first hand. Rules and our decisions:

    - Numbers rise by one with no jumps, from «раз» to «четыре».
    - A player whose number was outbid (someone named a higher number, or held above it)
      may only pass or hold: he never names a number again (seed: «он может спасовать или
      сказать здесь или держу»). If he cannot hold either (see below), he can only pass.
    - «здесь»/«держу» (hold) equals the highest number. Only a player who has already named a
      number may hold, only a number, and only against a player who spoke *after* him (the
      seed's «first» against «second»; decision: priority is the speaking order from first
      hand, as in the «игра» tie). The player held must then name the next number or pass;
      at «четыре» there is no next number, so he can only pass.
    - A pass is final: the passer is never asked again.
    - «игра» and «червы» only at a player's first turn (who named a number may not bid them).
      A «игра» call's suit is not below the number reached before it (the trump rule of
      domain.md «The deal» holds after «игра» too): after «два», not spades (seed order).
    - After «игра» numbers are over: the others, at their first turn, may bid «игра» or
      «червы» or pass; those who named a number can only pass. Decision: each «игра» call
      carries the suit its bidder would play and «игра» bidders do not speak again; the
      highest suit wins, on a tie the earlier speaker. A later «игра» in a lower or equal
      suit is legal (the bidder did not know the other's suit) — it simply loses.
    - «червы» ends the auction at once.
    - The auction ends when every player has passed (passed out), when one player holds the
      highest number and the others have passed, or when every player still in has bid
      «игра»; a shorter record is unfinished, a longer one has calls after the end.

    First hand is ``first_hand`` if known, else the first caller. Returns (outcome, problems);
    the outcome is None when the record breaks a rule (only the first bad call is reported:
    after it the auction has no meaning).
    """
    problems = Problems()
    active = set(active_seats)
    calls = list(calls)
    if not calls:
        first = first_hand or min(active, key=CLOCKWISE.index)
        problems.add("auction", "auction_unfinished", seat=first)
        return None, problems
    if first_hand is not None and calls[0].seat is not first_hand:
        problems.add("auction.0", "auction_first_hand", seat=first_hand)
        return None, problems
    first = first_hand or calls[0].seat
    if first not in active:
        problems.add("auction.0", "seat_not_active", seat=first)
        return None, problems
    order = clockwise_from(first, active)
    status = dict.fromkeys(order, _NEW)
    level, owner = 0, None  # the highest number and who holds it
    held: Seat | None = None  # whose bid the last «здесь» held: he names the next or passes
    games: list[tuple[Seat, Suit | None]] = []
    turn = 0  # index in ``order`` of who speaks now
    outcome: AuctionOutcome | None = None

    def priority(seat: Seat) -> int:
        return order.index(seat)

    for i, call in enumerate(calls):
        where = f"auction.{i}"
        if outcome is not None:
            problems.add(where, "auction_over")
            return None, problems
        speaker = order[turn]
        if call.seat not in active:
            problems.add(where, "seat_not_active", seat=call.seat)
            return None, problems
        if call.seat is not speaker:
            if status[call.seat] == _PASSED:
                problems.add(where, "passed_for_good", seat=call.seat)
            else:
                problems.add(where, "out_of_turn", seat=speaker)
            return None, problems
        bid = call.bid
        if bid is Bid.PASS:
            status[speaker] = _PASSED
        elif bid.level is not None:
            if games:
                problems.add(where, "number_after_game")
                return None, problems
            if status[speaker] == _NUMBERED and speaker is not held:
                # Outbid: only «здесь» or «пас» — and «здесь» only with priority.
                code = (
                    "outbid_number"
                    if priority(speaker) < priority(owner)
                    else ("outbid_number_pass")
                )
                problems.add(where, code, speaker=speaker, seat=owner)
                return None, problems
            if level == 4:
                problems.add(where, "no_number_above_four")
                return None, problems
            if bid.level != level + 1:
                problems.add(where, "numbers_by_one", next=_LEVEL_CONTRACT[level + 1])
                return None, problems
            level, owner, held = bid.level, speaker, None
            status[speaker] = _NUMBERED
        elif bid is Bid.HOLD:
            if status[speaker] != _NUMBERED:
                problems.add(where, "hold_needs_number")
                return None, problems
            if games:
                problems.add(where, "hold_nothing", call=Bid.GAME)
                return None, problems
            if priority(speaker) > priority(owner):
                if speaker is not held:
                    problems.add(where, "outbid_no_hold", speaker=speaker, seat=owner)
                elif level == 4:
                    problems.add(where, "hold_priority_four", speaker=speaker, seat=owner)
                else:
                    nxt = _LEVEL_CONTRACT[level + 1]
                    problems.add(where, "hold_priority", speaker=speaker, seat=owner, next=nxt)
                return None, problems
            owner, held = speaker, owner
        else:  # «игра» or «червы»
            if status[speaker] != _NEW:
                problems.add(where, "no_talon_after_number", call=bid)
                return None, problems
            if bid is Bid.HEARTS:
                outcome = AuctionOutcome(speaker, Contract.HEARTS, Suit.HEARTS)
                continue
            if call.suit is Suit.HEARTS:
                problems.add(f"{where}.suit", "game_in_hearts")
                return None, problems
            allowed = allowed_trumps(Contract.GAME, suit_order, level)
            if call.suit is not None and call.suit not in allowed:
                problems.add(
                    f"{where}.suit",
                    "game_suit_below_level",
                    level=_LEVEL_CONTRACT[level],
                    allowed=allowed,
                )
                return None, problems
            games.append((speaker, call.suit))
            status[speaker] = _GAME
        outcome = _auction_end(status, owner, level, games, suit_order, problems)
        if outcome is None and problems:
            return None, problems
        if outcome is None:
            turn = _next_turn(order, status, turn)
    if outcome is None:
        problems.add("auction", "auction_unfinished", seat=order[turn])
    return outcome, problems


def _next_turn(order: Sequence[Seat], status: Mapping[Seat, str], turn: int) -> int:
    for step in range(1, len(order) + 1):
        candidate = (turn + step) % len(order)
        if status[order[candidate]] in (_NEW, _NUMBERED):
            return candidate
    raise AssertionError("the auction should have ended")  # pragma: no cover


def _auction_end(
    status: Mapping[Seat, str],
    owner: Seat | None,
    level: int,
    games: Sequence[tuple[Seat, Suit | None]],
    suit_order: Sequence[Suit],
    problems: Problems,
) -> AuctionOutcome | None:
    """The outcome if the auction is over now, else None."""
    still_in = [s for s, st in status.items() if st in (_NEW, _NUMBERED)]
    if games:
        if still_in:
            return None
        if len(games) > 1 and any(suit is None for _, suit in games):
            problems.add("auction", "auction_game_suits")
            return None
        # Earlier speakers come first in ``games``: max() keeps the first of equal suits.
        seat, suit = max(games, key=lambda g: suit_order.index(g[1]) if g[1] is not None else -1)
        return AuctionOutcome(seat, Contract.GAME, suit)
    if not still_in:
        return AuctionOutcome(None, Contract.PASSED)
    if still_in == [owner]:
        return AuctionOutcome(owner, _LEVEL_CONTRACT[level])
    return None


def _check_deal_auction(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    if deal.auction is None or active is None:
        return
    first = deal.first_hand
    if first is None and deal.board is not None:
        first = deal.board.first_hand
    if first is None:
        first = inferred_first_hand(active)
    if first is not None and first not in active:
        return  # reported by _check_layout
    order = deal.rules.suit_order
    outcome, auction_problems = check_auction(deal.auction, active, first, order)
    problems.merge(auction_problems)
    if outcome is None:
        return
    # A declarer on a passed-out sheet, or a missing one, is its own field's problem
    # (passed_out_field, required): the auction is compared on what is left.
    declarer_differs = (
        deal.contract is not Contract.PASSED
        and deal.declarer is not None
        and outcome.declarer is not deal.declarer
    )
    if outcome.contract is not deal.contract or declarer_differs:
        problems.add(
            "auction",
            "auction_mismatch",
            got=_said(outcome.declarer, outcome.contract),
            entered=_said(deal.declarer, deal.contract),
        )
    elif (
        outcome.contract is Contract.GAME
        and outcome.suit is not None
        and deal.trump is not None
        and outcome.suit is not deal.trump
    ):
        problems.add("auction", "auction_game_trump", suit=outcome.suit, trump=deal.trump)
    elif outcome.contract is Contract.GAME and deal.trump not in (None, Suit.HEARTS):
        reached = reached_level(deal.auction)
        allowed = allowed_trumps(Contract.GAME, order, reached)
        if reached > 1 and deal.trump not in allowed:
            problems.add(
                "trump",
                "game_trump_below_level",
                level=_LEVEL_CONTRACT[reached],
                allowed=allowed,
            )


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


# --- Validation and settlement ------------------------------------------------------------


def _active_of(deal: Deal) -> frozenset[Seat] | None:
    if deal.contract is Contract.PASSED:
        if deal.seats is not None and len(set(deal.seats)) == 3 and len(deal.seats) == 3:
            return frozenset(deal.seats)
        return frozenset(deal.board.active_seats) if deal.board is not None else None
    if deal.declarer is None or len(deal.defenders) != 2 or deal.declarer in deal.defenders:
        return None
    return frozenset({deal.declarer, *deal.defenders})


def validate(deal: Deal) -> Problems:
    """Every rule the deal breaks (empty :class:`Problems` when it is a valid deal)."""
    problems = Problems()
    _check_rules(deal.rules, problems)
    if deal.contract is None:
        problems.add("contract", "required")
        return problems
    if deal.contract is Contract.PASSED:
        active = _check_passed_out(deal, problems)
    else:
        _check_contract(deal, problems)
        active = _check_seats(deal, problems)
        _check_defence(deal, problems)
        _check_tricks(deal, active, problems)
    _check_deal_auction(deal, active, problems)
    return problems


def stake_of(deal: Deal) -> Fraction:
    """A, the amount at stake: the fixed stake; min(pot, limit) or the whole running pot; or
    the trump's stake. Nothing is at stake in a passed-out deal."""
    pot = deal.rules.pot
    if deal.contract is Contract.PASSED:
        return Fraction(0)
    if isinstance(pot, FixedPot):
        return pot.stake
    if isinstance(pot, RunningPot):
        return pot.pot_before if pot.limit is None else min(pot.pot_before, pot.limit)
    trump = Suit.HEARTS if deal.contract is Contract.HEARTS else deal.trump
    return pot.stakes[trump]


def settle(deal: Deal) -> Settlement:
    """Who receives what. Raises :class:`InvalidInput` if the deal breaks a rule.

    - Every player who took part in the play (declarer, whisting defenders, an invited
      defender) receives A/10 per trick; both defenders passed → the declarer receives A.
    - Every player who fails his obligation pays A, even when the declarer failed too:
      declarer < 6 tricks; a whisting defender < 2 (decision: also when he whists alone
      without inviting); an inviter whose side took < 4 — this replaces his own 2 (the
      inviter «answers for all 4 defensive tricks»). Nobody pays A twice.
    - A passer who was not invited scores 0; a passed-out deal: everyone 0.
    - Running pot: pot_after = pot − A + A × failures (passed out: unchanged).
    """
    problems = validate(deal)
    if problems:
        raise InvalidInput(problems)
    return _settle_valid(deal)


def _settle_valid(deal: Deal) -> Settlement:
    pot = deal.rules.pot
    pot_before = pot.pot_before if isinstance(pot, RunningPot) else None
    if deal.contract is Contract.PASSED:
        active = _active_of(deal) or frozenset()
        scores = {seat: Fraction(0) for seat in _in_order(active)}
        return Settlement(Fraction(0), scores, (), pot_before)
    stake = stake_of(deal)
    declarer = deal.declarer
    # The defender on the declarer's left speaks first.
    defenders = clockwise_from(declarer, {declarer, *deal.defenders})[1:]
    decisions = deal.defenders
    whisters = [s for s in defenders if decisions[s] is Defence.WHIST]
    scores: dict[Seat, Fraction] = {declarer: Fraction(0)} | {s: Fraction(0) for s in defenders}
    failed: list[Seat] = []
    if not whisters:
        scores[declarer] = stake
    else:
        tricks = deal.tricks or {}
        per_trick = stake / 10
        invited = [s for s in defenders if decisions[s] is Defence.INVITED]
        for seat in (declarer, *whisters, *invited):
            scores[seat] = per_trick * tricks.get(seat, 0)
        if tricks.get(declarer, 0) < 6:
            failed.append(declarer)
        if invited:
            (inviter,) = whisters
            if tricks.get(inviter, 0) + tricks.get(invited[0], 0) < 4:
                failed.append(inviter)
        else:
            failed.extend(s for s in whisters if tricks.get(s, 0) < 2)
        for seat in failed:
            scores[seat] -= stake
    pot_after = None if pot_before is None else pot_before - stake + stake * len(failed)
    return Settlement(stake, scores, tuple(failed), pot_after)


# --- Numbers out --------------------------------------------------------------------------


def number(value: Fraction | int, places: int | None = None) -> int | float:
    """An exact amount for JSON: ``int`` when whole, else a float (rounded to ``places``
    decimals if given)."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(value) if places is None else round(float(value), places)


def settlement_json(settlement: Settlement) -> dict[str, object]:
    """``{"scores": {...}, "failed": [...]}`` plus ``"pot_after"`` for a running pot."""
    answer: dict[str, object] = {
        "scores": {seat.value: number(v) for seat, v in settlement.scores.items()},
        "failed": [seat.value for seat in settlement.failed],
    }
    if settlement.pot_after is not None:
        answer["pot_after"] = number(settlement.pot_after)
    return answer


# --- JSON in ------------------------------------------------------------------------------

_DEAL_FIELDS = (
    "rules",
    "declarer",
    "contract",
    "trump",
    "defenders",
    "tricks",
    "seats",
    "auction",
    "first_hand",
    "board",
)
_POT_FIELDS = {
    "fixed": {"stake"},
    "running": {"pot_before", "limit", "ante"},
    "trump": {"stakes"},
}
_DEPENDANTS = {
    "rules": {"trump"},
    "declarer": {"defenders", "tricks", "seats", "auction", "board", "first_hand"},
    "defenders": {"declarer", "tricks", "seats", "auction", "board", "first_hand"},
    "seats": {"auction", "board", "first_hand"},
    "board": {"auction", "seats", "first_hand"},
    "first_hand": {"auction"},
}
_POT_WORDS = {"fixed": "fixed", "duplicate": "fixed", "running": "running", "trump": "trump"}


class _Reader:
    """Reads one JSON value into typed parts, noting problems by field."""

    def __init__(self) -> None:
        self.problems = Problems()
        self.broken: set[str] = set()

    def fail(self, name: str, code: str, **params: object) -> None:
        self.problems.add(name, code, **params)
        self.broken.add(name.split(".")[0])

    def choice(
        self, value: object, words: Mapping[str, StrEnum], name: str, choices: Iterable[object]
    ):
        if isinstance(value, str) and value.strip().lower() in words:
            return words[value.strip().lower()]
        self.fail(name, "choice", value=shown(value), choices=", ".join(str(c) for c in choices))
        return None

    def seat(self, value: object, name: str) -> Seat | None:
        if isinstance(value, str) and value.strip().upper() in _SEAT_WORDS:
            return _SEAT_WORDS[value.strip().upper()]
        self.fail(name, "seat", value=shown(value))
        return None

    def amount(self, value: object, name: str, positive: bool = False) -> Fraction | None:
        parsed = parse_amount(value)
        if parsed is None or parsed < 0 or (positive and parsed == 0):
            self.fail(name, "positive" if positive else "amount")
            return None
        return parsed


def shown(value: object) -> str:
    """A bad input value as the user typed it, for a message."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def parse_amount(value: object) -> Fraction | None:
    """A JSON number (or numeric string) as an exact Fraction; None if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        return None
    try:
        parsed = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except InvalidOperation:
        return None
    # Amounts are money: a huge exponent would only make Fraction slow (10**10**8).
    if not parsed.is_finite() or parsed.adjusted() > 15:
        return None
    if parsed and parsed.normalize().as_tuple().exponent < -15:
        return None
    return Fraction(parsed)


def parse_whole(value: object) -> int | None:
    """A JSON whole number (6 or 6.0); None otherwise (booleans are not numbers)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and value.adjusted() <= 15:
        return int(value) if value == value.to_integral_value() else None
    return None


def _read_rules(data: object, r: _Reader) -> Rules:
    if data is None:
        return Rules()
    if not isinstance(data, dict):
        r.fail("rules", "not_object")
        return Rules()
    kind = r.choice(data.get("pot", "fixed"), _POT_WORDS, "rules.pot", _POT_FIELDS)
    order = SEED_SUIT_ORDER
    if "suit_order" in data:
        order = _read_suit_order(data["suit_order"], r) or SEED_SUIT_ORDER
    for key in data:
        if key in ("pot", "suit_order"):
            continue
        if not any(key in fields for fields in _POT_FIELDS.values()):
            r.fail(f"rules.{key}", "unknown_field")
        elif kind is not None and key not in _POT_FIELDS[kind]:
            r.fail(f"rules.{key}", "field_not_for_pot", pot=kind)
    if kind == "running":
        if "pot_before" not in data:
            r.fail("rules.pot_before", "required")
            before = Fraction(0)
        else:
            before = r.amount(data["pot_before"], "rules.pot_before") or Fraction(0)
        limit = data.get("limit")
        limit = None if limit is None else r.amount(limit, "rules.limit", positive=True)
        ante = r.amount(data.get("ante", 10), "rules.ante")
        pot: Pot = RunningPot(before, limit, Fraction(10) if ante is None else ante)
    elif kind == "trump":
        stakes = dict(DEFAULT_TRUMP_STAKES)
        given = data.get("stakes", {})
        if not isinstance(given, dict):
            r.fail("rules.stakes", "not_object")
            given = {}
        for key, value in given.items():
            suit = r.choice(key, _SUIT_WORDS, f"rules.stakes.{key}", Suit)
            amount = r.amount(value, f"rules.stakes.{key}", positive=True)
            if suit is not None and amount is not None:
                stakes[suit] = amount
        pot = TrumpPot(stakes)
    else:
        stake = r.amount(data.get("stake", 100), "rules.stake", positive=True)
        pot = FixedPot(Fraction(100) if stake is None else stake)
    return Rules(pot=pot, suit_order=order)


def _read_suit_order(value: object, r: _Reader) -> tuple[Suit, ...] | None:
    if isinstance(value, str) and value.strip().lower() in SUIT_ORDERS:
        return SUIT_ORDERS[value.strip().lower()]
    if isinstance(value, list):
        suits = [_SUIT_WORDS.get(v.strip().lower()) if isinstance(v, str) else None for v in value]
        if len(suits) == 4 and None not in suits and len(set(suits)) == 4:
            return tuple(suits)
    r.fail("rules.suit_order", "suit_order")
    return None


def _read_call(value: object, name: str, r: _Reader) -> Call | None:
    if isinstance(value, str):
        words = [w for w in re.split(r"[\s:,]+", value.strip()) if w]
        if len(words) not in (2, 3):
            r.fail(name, "call_format")
            return None
        value = {"seat": words[0], "call": words[1]} | (
            {"suit": words[2]} if len(words) == 3 else {}
        )
    if not isinstance(value, dict) or "seat" not in value or "call" not in value:
        r.fail(name, "call_format")
        return None
    for key in value:
        if key not in ("seat", "call", "suit"):
            r.fail(f"{name}.{key}", "unknown_field")
    seat = r.seat(value["seat"], f"{name}.seat")
    bid = r.choice(value["call"], _BID_WORDS, f"{name}.call", Bid)
    suit = None
    if value.get("suit") is not None:
        suit = r.choice(value["suit"], _SUIT_WORDS, f"{name}.suit", Suit)
        # Only «игра» carries a suit («червы» may repeat its own).
        if bid not in (None, Bid.GAME) and suit is not None and bid is not Bid.HEARTS:
            r.fail(f"{name}.suit", "unknown_field")
        elif bid is Bid.HEARTS and suit not in (None, Suit.HEARTS):
            r.fail(f"{name}.suit", "hearts_trump")
    if seat is None or bid is None:
        return None
    return Call(seat, bid, suit)


def _read_board(value: object, r: _Reader) -> BoardLayout | None:
    if not isinstance(value, dict):
        r.fail("board", "not_object")
        return None
    for key in value:
        if key not in ("players", "number"):
            r.fail(f"board.{key}", "unknown_field")
    players = parse_whole(value.get("players"))
    if players not in (3, 4):
        r.fail("board.players", "board_players")
        return None
    count = players
    num = parse_whole(value.get("number"))
    if num is None or not 1 <= num <= count:
        r.fail("board.number", "board_number", count=count)
        return None
    return board_layout(players, num)


def deal_from_json(data: object) -> Deal:
    """A :class:`Deal` from its JSON form, checked. Raises :class:`InvalidInput` with every
    problem (shape and rules) by field."""
    r = _Reader()
    if not isinstance(data, dict):
        r.fail("deal", "not_object")
        raise InvalidInput(r.problems)
    for key in data:
        if key not in _DEAL_FIELDS:
            r.fail(key, "unknown_field")
    rules = _read_rules(data.get("rules"), r)
    contract = None
    if "contract" not in data:
        r.fail("contract", "required")
    else:
        contract = r.choice(data["contract"], _CONTRACT_WORDS, "contract", Contract)
    declarer = None if data.get("declarer") is None else r.seat(data["declarer"], "declarer")
    trump = None
    if data.get("trump") is not None:
        trump = r.choice(data["trump"], _SUIT_WORDS, "trump", Suit)
    defenders: dict[Seat, Defence] = {}
    if data.get("defenders") is not None:
        if not isinstance(data["defenders"], dict):
            r.fail("defenders", "not_object")
        else:
            for key, value in data["defenders"].items():
                seat = r.seat(key, f"defenders.{key}")
                decision = r.choice(value, _DEFENCE_WORDS, f"defenders.{key}", Defence)
                if seat is not None and decision is not None:
                    defenders[seat] = decision
    tricks: dict[Seat, int] | None = None
    if data.get("tricks") is not None:
        if not isinstance(data["tricks"], dict):
            r.fail("tricks", "not_object")
        else:
            tricks = {}
            for key, value in data["tricks"].items():
                seat = r.seat(key, f"tricks.{key}")
                count = parse_whole(value)
                if count is None or count < 0:
                    r.fail(f"tricks.{key}", "trick_count")
                elif seat is not None:
                    tricks[seat] = count
    seats = None
    if data.get("seats") is not None:
        if not isinstance(data["seats"], list):
            r.fail("seats", "not_list")
        else:
            read = [r.seat(v, f"seats.{i}") for i, v in enumerate(data["seats"])]
            seats = tuple(s for s in read if s is not None) if None not in read else None
    auction = None
    if data.get("auction") is not None:
        if not isinstance(data["auction"], list):
            r.fail("auction", "not_list")
        else:
            read_calls = [_read_call(v, f"auction.{i}", r) for i, v in enumerate(data["auction"])]
            auction = tuple(read_calls) if None not in read_calls else None
    first_hand = None
    if data.get("first_hand") is not None:
        first_hand = r.seat(data["first_hand"], "first_hand")
    board = None if data.get("board") is None else _read_board(data["board"], r)
    deal = Deal(
        contract=contract,
        declarer=declarer,
        trump=trump,
        defenders=defenders,
        tricks=tricks,
        seats=seats,
        auction=auction,
        first_hand=first_hand,
        board=board,
        rules=rules,
    )
    if contract is not None:
        # Rules that lean on a field broken on input are not checked: its problem is reported.
        skip = set(r.broken)
        for source, dependants in _DEPENDANTS.items():
            if source in r.broken:
                skip |= dependants
        r.problems.merge(validate(deal), skip=skip)
    if r.problems:
        raise InvalidInput(r.problems)
    return deal


def settle_json(data: object) -> dict[str, object]:
    """JSON deal in, JSON answer out; raises :class:`InvalidInput`."""
    return settlement_json(_settle_valid(deal_from_json(data)))


# --- Batches of JSON requests -------------------------------------------------------------


def answer_json_text(
    text: str, handle: Callable[[object], dict[str, object]], lang: str = "ru"
) -> tuple[bool, object]:
    """Answer a JSON text holding one request (an object) or a list of them.

    Returns (ok, answer): the answer (a list for a list) or ``{"errors": {field: text}}``;
    in a list, field names are prefixed with the request's index (``0.tricks``). Never
    raises on bad input.
    """
    problems = Problems()
    if not text.strip():
        problems.add("json", "empty")
        return False, {"errors": problems.render(lang)}
    try:
        data = json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError) as error:
        problems.add("json", "json", detail=str(error))
        return False, {"errors": problems.render(lang)}
    if isinstance(data, list):
        answers = []
        for i, item in enumerate(data):
            try:
                answers.append(handle(item))
            except InvalidInput as error:
                problems.merge(error.problems, prefix=f"{i}.")
        if problems:
            return False, {"errors": problems.render(lang)}
        return True, answers
    try:
        return True, handle(data)
    except InvalidInput as error:
        return False, {"errors": error.render(lang)}
