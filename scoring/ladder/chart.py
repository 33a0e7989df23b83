"""A person's grade history as the geometry of an inline SVG chart (templates/ladder/
_chart.html draws it): one point per rated session at its grade after, joined by a line,
horizontal gridlines with their grades, a few dates along the bottom. Plain data: the
template only writes the numbers out, no script draws anything.

The chart's own coordinates (the viewBox) are fixed; the page scales it to its width
(width 100 %), so it fits 360 px as well as a laptop."""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 600, 300
LEFT, RIGHT, TOP, BOTTOM = 72, 16, 16, 44
#: Gridline steps tried, smallest first: the first that gives at most 6 lines is taken.
STEPS = (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25)
#: Dates written under the axis, at most.
DATE_TICKS = 4


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    title: str


@dataclass(frozen=True)
class Line:
    """A gridline (y) or a date tick (x) with its label."""

    at: float
    label: str
    anchor: str = "middle"


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    points: tuple[Point, ...]
    grid: tuple[Line, ...]
    ticks: tuple[Line, ...]

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def label_x(self) -> float:
        return self.left - 6

    @property
    def tick_y(self) -> float:
        return self.bottom + 24


def _step(low: float, high: float) -> float:
    for step in STEPS:
        if (math.floor(high / step) - math.ceil(low / step)) + 1 <= 6:
            return step
    return STEPS[-1]


def chart(values: list[float], dates: list[str], titles: list[str]) -> Chart:
    """The chart of ``values`` (grade after each rated session, in order), each point's
    date (for the ticks) and tooltip."""
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    low, high = min(values), max(values)
    spread = max(high - low, 1.0)
    low, high = low - spread * 0.1, high + spread * 0.1
    step = _step(low, high)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - TOP)

    n = len(values)

    def x(i: int) -> float:
        if n == 1:
            return (LEFT + right) / 2
        return LEFT + i * (right - LEFT) / (n - 1)

    decimals = 0 if step >= 1 else (1 if step in (0.1, 0.2, 0.5) else 2)
    grid = []
    value = low
    while value <= high + step / 2:
        grid.append(Line(y(value), f"{value:.{decimals}f}"))
        value += step
    if n <= DATE_TICKS:
        picked = list(range(n))
    else:
        picked = sorted({round(i * (n - 1) / (DATE_TICKS - 1)) for i in range(DATE_TICKS)})
    # The first and last dates end at the chart's edges rather than past them.
    anchors = {picked[0]: "start", picked[-1]: "end"} if len(picked) > 1 else {}
    ticks = tuple(Line(x(i), dates[i], anchors.get(i, "middle")) for i in picked)
    points = tuple(Point(x(i), y(v), titles[i]) for i, v in enumerate(values))
    return Chart(WIDTH, HEIGHT, LEFT, right, TOP, bottom, points, tuple(grid), ticks)
