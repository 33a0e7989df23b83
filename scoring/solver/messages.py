"""The solver's messages: a problem is a code with parameters, worded in English here (the
msgid of the project's one catalogue, ``locale/*/LC_MESSAGES/django.po``) and shown in
Russian through :mod:`events.catalogue`. Several texts are the rules core's own msgids, so
they share its translations.

Part of the pure core ``scoring.solver``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from events.catalogue import gettext_noop, translated
from scoring.games.common.messages import SHARED as RULES_MESSAGES

#: The input's shape is worded as the rules core words it (the same msgids).
_SHAPE = ("json", "empty", "not_object", "not_list", "required", "unknown_field", "seat", "choice")

MESSAGES: dict[str, str] = {
    **{code: RULES_MESSAGES[code] for code in _SHAPE},
    # the position
    "hand_count": gettext_noop("give the hands of three seats, not {count}"),
    "unknown_card": gettext_noop(
        "«{value}» is not a card: a card is a suit letter S, C, D or H and a rank 7, 8, 9, 10, J, Q, K or A (SA, H10)"
    ),
    "hand_size": gettext_noop("a hand holds 1 to 10 cards"),
    "unequal_hands": gettext_noop("the hands must hold as many cards each: {counts}"),
    "card_twice": gettext_noop("a card is given twice: {cards}"),
    "talon_size": gettext_noop("the talon has exactly 2 cards"),
    "declarer_seat": gettext_noop("the declarer is one of the seats given hands: {seats}"),
    "defence_seat": gettext_noop(
        "«{value}» is not allowed: the defence is «both» or the seat of the lone defender, {seats}"
    ),
    "declarer_missing": gettext_noop(
        "give the declarer with the trump, or leave out both for the whole table of a deal"
    ),
    "trump_missing": gettext_noop(
        "give the trump with the declarer, or leave out both for the whole table of a deal"
    ),
    "whole_table": gettext_noop(
        "the whole table is analysed for a full deal: three hands of 10 cards and the talon"
    ),
    "table_defence": gettext_noop("the whole table is analysed with both defenders playing"),
    # the game's play rules (the Russian game: first hand leads, both defenders play)
    "leader_missing": gettext_noop(
        "give the seat that leads the first trick (first hand), one of: {seats}"
    ),
    "leader_seat": gettext_noop("the first trick is led by one of the seats in play: {seats}"),
    "declarer_leads": gettext_noop(
        "in this game the declarer leads the first trick: leave out the leader"
    ),
    "both_defend": gettext_noop(
        "in this game both defenders play (a lone whister plays his partner's cards too): "
        "leave out the defence or give «both»"
    ),
    "no_misere": gettext_noop("misere is not played in this game"),
    "strain_missing": gettext_noop(
        "give the trump (spades, clubs, diamonds, hearts or notrump) or the contract "
        "«misere» with the declarer, or leave out all three for the whole table of a deal"
    ),
    "declarer_for_strain": gettext_noop(
        "give the declarer with the trump or the contract, or leave out all three for the "
        "whole table of a deal"
    ),
    "trump_and_contract": gettext_noop(
        "give the trump or the contract, not both: «{trump}» and «{contract}» disagree"
    ),
    "contract": gettext_noop(
        "«{value}» is not a contract: misere, or a bid from 6S to 10NT (6♠, 7БК)"
    ),
    "passed_not_analysed": gettext_noop(
        "all-pass play (распасы) is not analysed: three players each taking as few tricks "
        "as he can have no single double-dummy value"
    ),
}


@dataclass(frozen=True)
class Message:
    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, lang: str = "ru") -> str:
        return translated(MESSAGES[self.code], lang).format(**self.params)


class PositionError(ValueError):
    """A position that breaks the rules: ``errors`` maps each field (``hands.N``,
    ``declarer``, ``talon``, …) to what is wrong, in English; :meth:`render` words it in
    a language. Given plain texts, they are shown as they are in every language."""

    def __init__(self, errors: Mapping[str, str | Message | list[Message]]):
        self.messages: dict[str, list[Message | str]] = {}
        for name, value in errors.items():
            self.messages[name] = list(value) if isinstance(value, list) else [value]
        self.errors = self.render("en")
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.errors.items()))

    def render(self, lang: str = "ru") -> dict[str, str]:
        return {
            name: "; ".join(m if isinstance(m, str) else m.render(lang) for m in messages)
            for name, messages in self.messages.items()
        }

    def prefixed(self, prefix: str) -> dict[str, list[Message | str]]:
        return {f"{prefix}{name}": messages for name, messages in self.messages.items()}


class Problems:
    """Problems gathered by field before one :class:`PositionError` is raised."""

    def __init__(self) -> None:
        self.by_field: dict[str, list[Message | str]] = {}

    def add(self, name: str, code: str, **params: object) -> None:
        self.by_field.setdefault(name, []).append(Message(code, params))

    def __bool__(self) -> bool:
        return bool(self.by_field)

    def __contains__(self, name: object) -> bool:
        return name in self.by_field

    def raise_if_any(self) -> None:
        if self.by_field:
            raise PositionError(self.by_field)
