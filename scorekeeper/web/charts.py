"""Server-rendered SVG charts (no JavaScript): running totals per player, a player's game
totals over time.

Colour is never the only cue: each line also has its own marker shape and a label at its end.
The geometry (scales, points, ticks, marker shapes, labels) is worked out here as plain values
(``plan_line_chart``, ``plan_totals_over_time``); the markup is in ``templates/charts/``.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from flask import render_template
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.web.page_helpers import date_in

# After the Okabe-Ito palette (distinguishable with common colour-vision deficiencies), with the
# lightest colours darkened to keep 3:1 contrast on white.
LINE_COLOURS = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#9A6B00",
    "#3C78A8",
    "#333333",
    "#8C564B",
    "#7F7F7F",
    "#BCBD22",
    "#17BECF",
    "#9467BD",
    "#2CA02C",
    "#D62728",
)
MARKERS = ("circle", "square", "triangle", "diamond")


@dataclass(frozen=True)
class Marker:
    """A marker's shape ("circle", "square", "triangle" or "diamond") centred on (x, y)."""

    kind: str
    x: float
    y: float
    colour: str
    radius = 4.5  # a circle's
    side = 8  # a square's

    @property
    def corner(self) -> tuple[float, float]:
        """A square's top left corner."""
        return self.x - self.side / 2, self.y - self.side / 2

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """A triangle's or a diamond's corners."""
        x, y = self.x, self.y
        if self.kind == "triangle":
            return ((x, y - 5.5), (x - 5, y + 4), (x + 5, y + 4))
        return ((x, y - 5.5), (x + 5.5, y), (x, y + 5.5), (x - 5.5, y))


@dataclass(frozen=True)
class Text:
    """A label: its text at (x, y), anchored "start", "middle" or "end"."""

    x: float
    y: float
    anchor: str
    text: str


def _tick(x: float, y: float, label: str, width: int) -> Text:
    """An axis label centred on ``x``, moved along so it stays inside the chart's ``width``
    (the first and last labels sit at the plot's edges)."""
    half = len(label) * 4.2  # 14 px text is about 8.4 px a character
    anchor, at = "middle", x
    if x + half > width - 2:
        anchor, at = "end", min(x + 4, width - 2.0)
    elif x - half < 2:
        anchor, at = "start", max(x - 4, 2.0)
    return Text(at, y, anchor, label)


#: A name at a line's end takes lines of up to this many characters (bold 15 px).
NAME_LINE = 12


def _name_lines(name: str) -> tuple[str, ...]:
    """A name as it is written at a line's end, whole: its words on lines of up to NAME_LINE
    characters ("Bartholomew", "Ashworth"); a longer word takes a line of its own."""
    lines: list[str] = []
    for word in name.split() or [name]:
        if lines and len(lines[-1]) + 1 + len(word) <= NAME_LINE:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines)


def _nice_step(top: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 6:
            return step
    return 10000


#: The value axis's title, turned upright, is written in this band at the chart's left edge.
Y_TITLE_BAND = 20


@dataclass(frozen=True)
class _Frame:
    """The box both charts draw in: a value axis from 0 (or below) with gridlines and a label."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    y_min: float
    y_max: float
    step: int

    @classmethod
    def fit(cls, values: Sequence[float], **box: int) -> _Frame:
        highest = max(values, default=0)
        lowest = min(min(values, default=0), 0)
        step = _nice_step(max(highest - lowest, 1))
        y_max = max(step, math.ceil(highest / step) * step)
        y_min = math.floor(lowest / step) * step
        # The value axis's title (upright, 14 px, in the band x 0 to Y_TITLE_BAND) and the
        # widest value, ending 8 px before the plot, never meet.
        widest = max(len(f"{y_min:g}"), len(f"{y_max:g}")) * 8.4
        box["left"] = max(box["left"], math.ceil(Y_TITLE_BAND + 4 + widest + 8))
        return cls(y_min=y_min, y_max=y_max, step=step, **box)

    @property
    def plot_w(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_h(self) -> int:
        return self.height - self.top - self.bottom

    def sy(self, value: float) -> float:
        span = (self.y_max - self.y_min) or 1
        return self.top + self.plot_h * (1 - (value - self.y_min) / span)

    def canvas(self, title: str, y_label: str) -> Canvas:
        """The chart's box, its title, the gridlines with their values, the axis label."""
        grid = []
        value = self.y_min
        while value <= self.y_max:
            grid.append(Gridline(self.sy(value), self.sy(value) + 5, value))
            value += self.step
        return Canvas(
            width=self.width,
            height=self.height,
            title=title,
            grid_from=self.left,
            grid_to=self.left + self.plot_w,
            values_x=self.left - 8,
            grid=tuple(grid),
            y_label=y_label,
            y_label_x=Y_TITLE_BAND / 2,
            y_label_at=self.top + self.plot_h / 2,
        )


@dataclass(frozen=True)
class Gridline:
    """A gridline at ``y`` and its value, written beside it at ``label_y``."""

    y: float
    label_y: float
    value: float


@dataclass(frozen=True)
class Canvas:
    """What both charts draw first (``templates/charts/_chart.svg``): the SVG's box and
    title, a gridline with its value at each step, the value axis's label turned upright."""

    width: int
    height: int
    title: str
    grid_from: int
    grid_to: int
    values_x: int  # where the gridlines' values end
    grid: tuple[Gridline, ...]
    y_label: str
    y_label_x: float  # the centre of the upright title's band
    y_label_at: float


@dataclass(frozen=True)
class Line:
    """One player's line: its points, colour, dashes and marker (``marker_id``, drawn by the
    browser on every point), and at its end a marker and the name."""

    points: tuple[tuple[float, float], ...]
    colour: str
    dashed: bool
    marker_id: str
    end_marker: Marker
    name: Text  # the whole name, at its first line's place
    name_lines: tuple[str, ...]  # the name as written, a line under another


@dataclass(frozen=True)
class LineChart:
    canvas: Canvas
    ticks: tuple[Text, ...]
    x_label: Text | None
    markers: tuple[tuple[str, Marker], ...]  # (id, shape at 0, 0) for each line's marker
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class DotChart:
    canvas: Canvas
    ticks: tuple[Text, ...]
    dots: tuple[tuple[float, float], ...]
    radius: float
    colour: str
    trend: tuple[tuple[float, float], ...]  # empty below the window's number of games
    trend_colour: str


def _name_places(
    series: Sequence[tuple[str, Sequence[float]]], sy: Callable[[float], float], height: float
) -> tuple[list[tuple[float, int]], list[float]]:
    """Where the names at the line ends go: the lines by their last value, highest first, and
    the y of each one's name, below the names above it and never below the chart's edge."""
    label_slots: list[tuple[float, float]] = []
    ends = sorted(
        ((values[-1] if values else 0, index) for index, (_, values) in enumerate(series)),
        reverse=True,
    )
    for end_value, index in ends:
        name_lines = _name_lines(series[index][0])
        # A name takes 16 px a line; it starts below the names above it (slots: first line's
        # y, last line's y).
        y = sy(end_value) + 5
        for first, last in label_slots:
            if y > first - 16 * len(name_lines) and y < last + 16:
                y = last + 16
        label_slots.append((y, y + 16 * (len(name_lines) - 1)))
    # Names pushed below the chart's bottom edge move up together, keeping their order.
    lowest = max((last for _first, last in label_slots), default=0)
    lift = max(lowest - (height - 6), 0)
    return ends, [y - lift for y, _last in label_slots]


def _line_markers(prefix: str, count: int) -> tuple[tuple[str, Marker], ...]:
    """Each line's marker, by its id (``prefix`` and the line's index)."""
    return tuple(
        (
            f"{prefix}{index}",
            Marker(MARKERS[index % len(MARKERS)], 0, 0, LINE_COLOURS[index % len(LINE_COLOURS)]),
        )
        for index in range(count)
    )


def plan_line_chart(
    series: Sequence[tuple[str, Sequence[float]]],
    x_labels: Sequence[str],
    title: str,
    y_label: str | None = None,
    x_label: str = "",
) -> LineChart:
    """Where everything of ``line_chart`` goes (``y_label``: "Total" unless told)."""
    y_label = y_label or _("Total")
    # Room for the names at the line ends (bold 15 px, about 9.5 px a character).
    longest = max((len(line) for name, _ in series for line in _name_lines(name)), default=4)
    frame = _Frame.fit(
        [v for _, values in series for v in values],
        width=440,
        height=336,
        left=48,
        right=int(34 + 9.5 * longest),
        top=16,
        bottom=52 if x_label else 36,
    )
    left, height, sy = frame.left, frame.height, frame.sy
    points = max((len(values) for _, values in series), default=0)

    def sx(i: int) -> float:
        return left + (frame.plot_w * i / (points - 1) if points > 1 else frame.plot_w / 2)

    every = max(1, math.ceil(len(x_labels) / 14))
    ticks_y = frame.top + frame.plot_h + 20
    ticks = tuple(
        _tick(sx(i), ticks_y, label, frame.width)
        for i, label in enumerate(x_labels)
        if i % every == 0 or i == len(x_labels) - 1
    )
    # Under the round numbers, centred on the plot: never cut off at the left edge.
    under = Text(left + frame.plot_w / 2, height - 6, "middle", x_label) if x_label else None
    xs = [sx(i) for i in range(points)]
    # sy(v) as one multiplication: the y of 0, less v times the height of one point.
    scale = frame.plot_h / ((frame.y_max - frame.y_min) or 1)
    base = sy(0)
    # Marker ids of their own for each chart, the same every time it is drawn.
    prefix = f"m{zlib.crc32(title.encode()):x}-"
    markers = _line_markers(prefix, len(series))
    ends, label_ys = _name_places(series, sy, frame.height)
    lines = []
    for (_end, index), y in zip(ends, label_ys, strict=True):
        name, values = series[index]
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        last_x = xs[len(values) - 1] if values else left
        lines.append(
            Line(
                points=tuple((x, base - v * scale) for x, v in zip(xs, values, strict=False)),
                colour=colour,
                dashed=bool(index % 2),
                marker_id=f"{prefix}{index}",
                end_marker=Marker(MARKERS[index % len(MARKERS)], last_x + 14, y - 5, colour),
                name=Text(last_x + 24, y, "start", name),
                name_lines=_name_lines(name),
            )
        )
    return LineChart(frame.canvas(title, y_label), ticks, under, markers, tuple(lines))


def line_chart(
    series: Sequence[tuple[str, Sequence[float]]],
    x_labels: Sequence[str],
    title: str,
    y_label: str | None = None,
    x_label: str = "",
) -> Markup:
    """A line chart of several series sharing x positions, as an accessible inline SVG
    (``templates/charts/line_chart.svg``)."""
    chart = plan_line_chart(series, x_labels, title, y_label, x_label)
    return Markup(render_template("charts/line_chart.svg", chart=chart))


def _ends(first: date, last: date) -> list[tuple[date, str]]:
    """The x-axis labels of a chart within one year: its first and last day, as months
    ("Sep 2026", "Nov 2026"), or as days when both fall in one month ("17 Nov", "24 Nov 2026");
    one label when both are the same day."""
    if first == last:
        return [(first, date_in(first, "d MMM y"))]
    if (first.year, first.month) == (last.year, last.month):
        return [(first, date_in(first, "d MMM")), (last, date_in(last, "d MMM y"))]
    return [(first, date_in(first, "MMM y")), (last, date_in(last, "MMM y"))]


def plan_totals_over_time(
    points: Sequence[tuple[date, float]],
    title: str,
    y_label: str | None = None,
    window: int = 10,
) -> DotChart:
    """Where everything of ``totals_over_time`` goes (``y_label``: "Game total" unless told)."""
    y_label = y_label or _("Game total")
    values = [value for _, value in points]
    frame = _Frame.fit(values, width=440, height=280, left=52, right=24, top=16, bottom=40)
    left, height, sy = frame.left, frame.height, frame.sy
    first = points[0][0].toordinal() if points else 0
    span = max((points[-1][0].toordinal() - first) if points else 0, 1)

    def sx(day: date) -> float:
        return left + frame.plot_w * (day.toordinal() - first) / span if len(points) > 1 else left

    ticks: list[Text] = []
    if points:
        years = range(points[0][0].year, points[-1][0].year + 1)
        if len(years) > 1:
            labels = [
                (date(year, 1, 1), str(year)) for year in years if date(year, 1, 1) >= points[0][0]
            ]
        else:
            labels = _ends(points[0][0], points[-1][0])
        ticks = [
            _tick(sx(day), height - 14, label, frame.width)
            for day, label in labels[:: max(1, math.ceil(len(labels) / 6))]
        ]
    trend = []
    if len(points) >= window:
        for index in range(window - 1, len(points)):
            recent = values[index - window + 1 : index + 1]
            trend.append((sx(points[index][0]), sy(sum(recent) / window)))
    return DotChart(
        canvas=frame.canvas(title, y_label),
        ticks=tuple(ticks),
        dots=tuple((sx(day), sy(v)) for day, v in points),
        radius=4.5 if len(points) <= 60 else 3,
        colour=LINE_COLOURS[0],
        trend=tuple(trend),
        trend_colour=LINE_COLOURS[1],
    )


def totals_over_time(
    points: Sequence[tuple[date, float]],
    title: str,
    y_label: str | None = None,
    window: int = 10,
) -> Markup:
    """One player's game totals by date as dots, with the average of the last ``window`` games
    as a line (the trend), as an accessible inline SVG (``templates/charts/totals_over_time.svg``).
    Dates are placed in time, so a long break shows as a gap."""
    chart = plan_totals_over_time(points, title, y_label, window)
    return Markup(render_template("charts/totals_over_time.svg", chart=chart))
