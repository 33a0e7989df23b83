"""A toy game, complete and tiny, in a folder of its own outside ``scoring/``: the proof that
a game is a unit (issue 33; docs/architecture.md «Adding a game»). Registered for one test
only (``tests/games/test_toy_game.py``), never by the app.

The rules: three players; the declarer names how many tricks he will take, 6 to 10, and
every seat counts his tricks (ten in all). Made: the declarer scores twice his tricks;
down: −10. Each defender scores his own tricks.

- :mod:`.core` — the pure core (read, check, settle, the JSON answer) and its messages;
- :mod:`.play` — its play for the solver and the position of a stored sheet (none);
- :mod:`.game` — its :class:`scoring.games.Game`;
- :mod:`.sheet` — its sheets adapter (:class:`scoring.games.sheets.SheetGame`);
- :mod:`.form` — its scorer form (:class:`scoring.games.forms.SheetForm`);
- ``templates/games/toy/`` — the form's fields and its settlement under «Check».
"""
