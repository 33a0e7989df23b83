"""A game's play, as the double-dummy solver (``scoring.solver``) and the pages need it: the
play rules (:class:`PlayRules`) and, from a stored sheet, the position its table played
(:class:`Position`) — each game gives both (``scoring.games.Game.play`` and
``Game.position``), so that neither the solver's callers nor the pages ask which game it is.

Each game's folder gives its own rules and positions (``scoring.games.<kind>.play``):

- The Austrian game (docs/game.md §2.5): the duty to beat, the declarer leads, no БК, no
  мизер, a lone whister may play alone; a contract of «игра» or червы is played without the
  talon, «раз» … «четыре» with it.
- The Russian game (docs/analysis.md «Russian play rules»): no duty to beat, first hand
  leads, БК and мизер, a lone whister plays both hands; the declarer always takes the
  talon; распасы are played by everyone for himself and have no double-dummy value.

Light and pure: imports nothing from Django, nor numpy (the pages import it).
"""

from __future__ import annotations

from dataclasses import dataclass

from events.cards import SUIT_NAMES

#: The strain without a trump (БК), and мизер's column of a whole table.
NOTRUMP = "notrump"
MISERE = "misere"
#: The seats a sheet may name.
SEATS = "WNES"


@dataclass(frozen=True)
class PlayRules:
    """A game's rules of play, as the solver needs them.

    - ``beat_led``: following suit, a player must beat the card led if he can (Austrian);
      without it any card of the suit will do (Russian);
    - ``declarer_leads``: the declarer leads the first trick (Austrian); otherwise the
      position names its leader — first hand, whatever the contract (Russian);
    - ``notrump``: БК (no trump) is a strain;
    - ``misere``: мизер is played (the declarer undertakes to take no trick);
    - ``lone_defence``: a lone whister may play alone, his partner's cards out of play
      (Austrian); otherwise the defence is always both hands (Russian: a lone whister
      plays his partner's cards too).
    """

    beat_led: bool = True
    declarer_leads: bool = True
    notrump: bool = False
    misere: bool = False
    lone_defence: bool = True

    @property
    def strains(self) -> tuple[str, ...]:
        """The trumps a contract may have: the suits, and ``notrump`` where it is played."""
        return (*SUIT_NAMES, NOTRUMP) if self.notrump else tuple(SUIT_NAMES)

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns of a whole table: the strains, and ``misere`` where it is played."""
        return (*self.strains, MISERE) if self.misere else self.strains

    def leader(self, first_hand: str) -> str | None:
        """Who leads the first trick of a deal whose first hand is ``first_hand``: None
        where the declarer does (the solver then needs no leader)."""
        return None if self.declarer_leads else first_hand

    def as_json(self) -> dict[str, bool]:
        """The rules as plain data: stored with an analysis, so that a table computed under
        other rules (an event whose game changed) is known as such."""
        return {
            "beat_led": self.beat_led,
            "declarer_leads": self.declarer_leads,
            "notrump": self.notrump,
            "misere": self.misere,
            "lone_defence": self.lone_defence,
        }


#: The solver's default: the seed's Austrian game's play (docs/game.md §2.5).
DEFAULT_PLAY = PlayRules()


@dataclass(frozen=True)
class Position:
    """The position a table played: the declarer, the strain (a suit, ``notrump``, or
    ``misere``: no trump, the declarer playing to take the fewest), whether he took the
    talon, and the defence (``both``, or the seat of a lone whister playing alone)."""

    declarer: str
    strain: str
    talon: bool
    defence: str = "both"

    @property
    def misere(self) -> bool:
        return self.strain == MISERE

    @property
    def trump(self) -> str:
        """The solver's trump: мизер is played without one."""
        return NOTRUMP if self.misere else self.strain

    @property
    def key(self) -> str:
        """«N.spades.talon.both», «E.misere.talon.both»: how an analysis keeps it."""
        taken = "talon" if self.talon else "no_talon"
        return f"{self.declarer}.{self.strain}.{taken}.{self.defence}"

    @classmethod
    def from_key(cls, key: str) -> Position:
        declarer, strain, taken, defence = key.split(".")
        return cls(declarer, strain, taken == "talon", defence)

    def table_cell(self, table: dict | None) -> int | None:
        """Its tricks as a whole table (both defenders, the game's leader) already has them;
        None when the table does not hold this position (a lone whister alone)."""
        if self.defence != "both" or not table:
            return None
        cell = (table.get(self.declarer) or {}).get(self.strain) or {}
        value = cell.get("talon" if self.talon else "no_talon")
        return value if isinstance(value, int) else None


@dataclass(frozen=True)
class NoValue:
    """A deal that was played and has no double-dummy value (``reason``: ``all_pass``,
    распасы, where each player takes as few tricks as he can for himself)."""

    reason: str


#: Распасы: played, but with no single double-dummy value.
ALL_PASS = NoValue("all_pass")
