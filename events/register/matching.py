"""Matching a list's row to the persons of a register (issue 24; docs/register.md).

Never silent: :func:`propose` only proposes — «новый» (no such person), «найден» (one
person, the director confirms) or «несколько похожих» (he chooses). The rules:

1. **Identifier first.** A row carrying a club card or a federation number that a person of
   the register holds is that person, whatever the name says. Numbers held by two different
   persons make the row «several» (the director chooses).
2. **Then the name and the club.** Names are compared by :func:`name_key` (ё = е, case,
   spaces, hyphens and invisible characters ignored; the last name, first name and
   patronymic run together, so «Иванов Иван Иванович» typed as a first name «Иван
   Иванович» is the same key). A row and a person are namesakes when their keys are
   equal, or when one of the two has no patronymic and their keys without it are equal.

   - exactly one namesake, with the whole key equal, and the clubs agree → found. The clubs
     agree when their :func:`club_key` are equal, or when either is blank (a blank club says
     nothing: a pasted «Фамилия Имя» with no club, a person whose club is not known);
   - any other namesakes (two persons of one name, another club, a patronymic on one side
     only) → several, listing them all;
   - no namesake → new.

   A person holding a number of the row's kind, but not the row's number, is not «found»
   by the name (it may be his namesake): he is only «similar».

Pure: imports nothing from Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from events.names import strip_invisible

NEW = "new"
FOUND = "found"
SEVERAL = "several"

#: Spaces (any), hyphens and dashes a name may be typed with: all ignored by the keys.
_IGNORED = re.compile(r"[\s\-\u2010\u2011\u2012\u2013\u2014\u2212]+")


def _norm(text: str) -> str:
    # Invisible characters too (events.names): a name typed with a zero-width space is the
    # same name.
    return _IGNORED.sub("", strip_invisible(text or "").casefold().replace("ё", "е"))


def name_key(last: str, first: str, patronymic: str = "") -> str:
    """The key names are compared by: «Семёнов» = «Семенов» = «семенов», «Петров-Водкин» =
    «Петров Водкин»."""
    return _norm(last) + _norm(first) + _norm(patronymic)


def club_key(club: str) -> str:
    """The key clubs are compared by (the same rules as the names')."""
    return _norm(club)


def norm_identifier(value: str) -> str:
    """A number as compared and stored: spaces around and inside dropped, case kept."""
    return re.sub(r"\s+", "", value or "")


@dataclass(frozen=True)
class Candidate:
    """A person of the register as matching sees him."""

    id: int
    last_name: str
    first_name: str
    patronymic: str = ""
    club: str = ""
    #: (kind, value) pairs the person holds.
    identifiers: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Row:
    """A row of a list (or the add form) as matching sees it."""

    last_name: str
    first_name: str
    patronymic: str = ""
    club: str = ""
    identifiers: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Proposal:
    state: str
    #: The person found, or the similar ones (found: one; several: two or more, or one
    #: namesake that is not sure enough).
    persons: tuple[Candidate, ...] = field(default=())
    #: «identifier» or «name»: what the proposal rests on (empty for «new»).
    by: str = ""

    @property
    def person(self) -> Candidate | None:
        return self.persons[0] if self.state == FOUND else None


def _keys(last: str, first: str, patronymic: str) -> tuple[str, str, bool]:
    """(the whole key, the key without the patronymic, whether there is a patronymic)."""
    short = _norm(last) + _norm(first)
    return short + _norm(patronymic), short, bool(_norm(patronymic))


def lookup_keys(last: str, first: str, patronymic: str = "") -> set[str]:
    """The keys under which a name is looked up: two names can only be namesakes (see
    :func:`propose`) when they share one of these (the whole key, or it without the
    patronymic)."""
    whole, short, _has = _keys(last, first, patronymic)
    return {whole, short}


def propose(row: Row, candidates: Iterable[Candidate]) -> Proposal:
    """What the register proposes for ``row`` (see the module's rules)."""
    candidates = list(candidates)
    wanted = {(kind, norm_identifier(value)) for kind, value in row.identifiers if value}
    if wanted:
        holders = {c.id: c for c in candidates if c.identifiers & wanted}
        if len(holders) == 1:
            return Proposal(FOUND, tuple(holders.values()), "identifier")
        if holders:
            return Proposal(SEVERAL, tuple(holders.values()), "identifier")

    whole, short, has_patronymic = _keys(row.last_name, row.first_name, row.patronymic)
    row_club = club_key(row.club)
    wanted_kinds = {kind for kind, _value in wanted}
    namesakes: list[Candidate] = []
    sure: list[Candidate] = []
    for c in candidates:
        c_whole, c_short, c_has = _keys(c.last_name, c.first_name, c.patronymic)
        if c_whole == whole:
            namesakes.append(c)
            other_number = any(kind in wanted_kinds for kind, _v in c.identifiers)
            c_club = club_key(c.club)
            if not other_number and (not row_club or not c_club or c_club == row_club):
                sure.append(c)
        elif (not has_patronymic or not c_has) and c_short == short:
            namesakes.append(c)
    if not namesakes:
        return Proposal(NEW)
    if len(namesakes) == 1 and len(sure) == 1:
        return Proposal(FOUND, tuple(sure), "name")
    return Proposal(SEVERAL, tuple(namesakes), "name")
