"""The Russian game's play (docs/analysis.md «Russian play rules»), as the solver and the
pages need it: its rules of play, the position a stored sheet played, and a contract read as
the solver's strain (``scoring.games.common.play``).

Pure: imports nothing from Django."""

from __future__ import annotations

from scoring.games.common.play import ALL_PASS, MISERE, NOTRUMP, SEATS, NoValue, PlayRules, Position
from scoring.games.russian.names import Strain, read_contract

#: The Russian game's play, Сочи, Ленинград and Ростов alike (docs/analysis.md «Russian play rules»).
RUSSIAN_PLAY = PlayRules(
    beat_led=False, declarer_leads=False, notrump=True, misere=True, lone_defence=False
)


#: The Russian strains by the solver's names.
STRAIN_NAMES = {
    Strain.SPADES: "spades",
    Strain.CLUBS: "clubs",
    Strain.DIAMONDS: "diamonds",
    Strain.HEARTS: "hearts",
    Strain.NOTRUMP: NOTRUMP,
}


def position(sheet: dict | None) -> Position | NoValue | None:
    """The position of a Russian sheet's essence (``scoring.games.russian.sheet.essence``): the
    declarer with the talon in the contract's strain or at мизер, both hands defending;
    :data:`ALL_PASS` for распасы; None for a deal not played (both defenders passed,
    полвиста)."""
    if not sheet:
        return None
    contract = read_contract(sheet.get("contract"))
    if contract is None:
        return None
    if contract.is_passed:
        return ALL_PASS
    declarer = sheet.get("declarer")
    if not isinstance(declarer, str) or declarer not in SEATS:
        return None
    defenders = sheet.get("defenders")
    # A checked 10 and мизер keep no decisions: always played. Otherwise somebody whisted.
    if defenders and not any(d == "whist" for d in defenders.values()):
        return None
    strain = MISERE if contract.is_misere else STRAIN_NAMES[contract.strain]
    return Position(declarer, strain, True)


def strain_of(value: object) -> tuple[str, bool] | NoValue | None:
    """A contract as the solver reads it: (its strain, whether it is мизер); :data:`ALL_PASS`
    for распасы (no double-dummy value); None for no contract of this game."""
    contract = read_contract(value)
    if contract is None:
        return None
    if contract.is_passed:
        return ALL_PASS
    if contract.is_misere:
        return NOTRUMP, True
    return STRAIN_NAMES[contract.strain], False
