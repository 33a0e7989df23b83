"""Which version of a deal's cards each table played (docs/game.md §2.7, a fouled box).

A deal is dealt once (version 1). When a table finds the box different and the director
marks it fouled from that table on, the deal has a new version, numbered on (2, 3 …), from
that table-play. **Choice**: version *v* covers its first play and every play of the deal in
the same room in a later round (the box travels from table to table in round order); plays
in the same round as the first play, other than it, and plays in another room (a twin room
has its own copy of the box) stay in the version they had. When several versions cover a
play, the latest fouling in the box's travel wins: the one whose first play's round is
highest, and on a tie (the same play reported twice) the higher number.

Results are compared only within one version (:func:`groups`).

Part of the pure core ``scoring.compare``: imports nothing from Django."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PlayAt:
    """A table-play of the deal: its id, its room and its round's number."""

    play: int
    room: int
    round: int


@dataclass(frozen=True)
class Fouling:
    """Version ``number`` (≥ 2) of the deal, from the table-play ``from_play`` on."""

    number: int
    from_play: int


def play_versions(plays: Sequence[PlayAt], foulings: Iterable[Fouling]) -> dict[int, int]:
    """play id → the number of the version of the cards it played (1 when never fouled)."""
    where = {p.play: p for p in plays}
    starts = [(f, where[f.from_play]) for f in foulings if f.from_play in where]
    answer: dict[int, int] = {}
    for play in plays:
        best: tuple[int, int] | None = None
        for fouling, start in starts:
            covers = fouling.from_play == play.play or (
                start.room == play.room and start.round < play.round
            )
            if covers and (best is None or (start.round, fouling.number) > best):
                best = (start.round, fouling.number)
        answer[play.play] = best[1] if best else 1
    return answer


def groups(versions: dict[int, int]) -> dict[int, list[int]]:
    """version → its plays (in the order given), for comparing each version on its own."""
    out: dict[int, list[int]] = {}
    for play, number in versions.items():
        out.setdefault(number, []).append(play)
    return dict(sorted(out.items()))
