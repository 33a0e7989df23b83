"""What a game is (docs/architecture.md, «Adding a game»): one :class:`Game` per folder
``scoring/games/<kind>/`` (its ``game.py``), registered in ``scoring.games``.

A game gives its pure core — its JSON sheet read and checked, the settlement of one deal
and its JSON form, its play (the solver's rules, the position a stored sheet played, a
contract as the solver reads it) — and names its Django parts by dotted path, imported on
first use, so that the registry stays pure: its sheets adapter (``scoring.games.sheets``:
what a scorer types, the request, the result, its words on the pages and in the files,
whether its deals carry over) and its scorer form (``scoring.games.forms``). Its event
options (``options``) and their defaults per convention (``defaults``) are the one source
the event's form, the event's page and the API read.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module

from scoring.games.common.messages import Problems
from scoring.games.common.play import NoValue, PlayRules, Position


def _no_strain(value: object) -> None:
    return None


def _load(path: str):
    module, _dot, name = path.rpartition(".")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class Game:
    """One game's parts.

    - ``name``: the game's name; ``conventions``: the names an event (``Event.game``) or a
      JSON deal (``rules.game``) gives it — one game may have several;
    - ``from_json``: a JSON sheet → the game's checked deal (raises ``InvalidInput``);
    - ``check``: a deal → its :class:`Problems` (empty when valid);
    - ``settle``: a deal → its settlement (raises ``InvalidInput``);
    - ``to_json``: a settlement → the JSON answer of ``settle --json``;
    - ``play``: its rules of play, as the double-dummy solver takes them;
    - ``position``: a stored sheet's essence → the position its table played (a
      :class:`Position`), :class:`NoValue` for a deal played with no double-dummy value
      (распасы), None for one not played;
    - ``strain_of``: a contract's text → (the solver's strain, мизер?), :class:`NoValue`
      for a contract played with no value, None for none of this game's;
    - ``options``: the game's rule options beside ``game`` → their allowed values (an
      analysis position's ``rules`` takes them and ignores them);
    - ``defaults``: convention → its options' defaults (``{"ten": "checked", …}``);
    - ``sheets`` / ``form``: dotted paths of its sheets adapter instance and its scorer
      form class (read through :attr:`sheet_game` and :attr:`form_class`).
    """

    name: str
    conventions: tuple[str, ...]
    from_json: Callable[[object], object]
    check: Callable[[object], Problems]
    settle: Callable[[object], object]
    to_json: Callable[[object], dict[str, object]]
    play: PlayRules
    position: Callable[[dict | None], Position | NoValue | None]
    sheets_path: str
    form_path: str
    strain_of: Callable[[object], tuple[str, bool] | NoValue | None] = _no_strain
    options: Mapping[str, tuple] = field(default_factory=dict)
    defaults: Mapping[str, Mapping[str, object]] = field(default_factory=dict)

    def settle_json(self, data: object) -> dict[str, object]:
        """JSON sheet in, JSON answer out; raises ``InvalidInput``."""
        return self.to_json(self.settle(self.from_json(data)))

    @cached_property
    def sheets(self):
        """Its sheets adapter (``scoring.games.sheets.SheetGame``), imported on first use."""
        return _load(self.sheets_path)

    @cached_property
    def form(self):
        """Its scorer form class (``scoring.games.forms.SheetForm``), imported on first use."""
        return _load(self.form_path)


__all__ = ["Game"]
