"""The games' pure kernel: what every game's core shares and what the cores above the games
(the comparison, the solver, the ladder) read alike — the problems and their messages
(``messages``), the JSON reader's helpers (``json_io``), the talon as a sheet writes it
(``talon``) and the play's types (``play``: the solver's rules of play, a position).

A game's folder (``scoring.games.<kind>``) imports this kernel and never another game's
folder (docs/architecture.md, the import contracts). Pure: imports nothing from Django."""
