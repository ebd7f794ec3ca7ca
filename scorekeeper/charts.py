"""Server-rendered SVG charts (no JavaScript): running totals per player.

Colour is never the only cue: each line also has its own marker shape and a label at its end.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup, escape

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


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}"/>'
    if kind == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    if kind == "triangle":
        return (
            f'<polygon points="{x:.1f},{y - 5.5:.1f} {x - 5:.1f},{y + 4:.1f} '
            f'{x + 5:.1f},{y + 4:.1f}" fill="{colour}"/>'
        )
    return (
        f'<polygon points="{x:.1f},{y - 5.5:.1f} {x + 5.5:.1f},{y:.1f} {x:.1f},{y + 5.5:.1f} '
        f'{x - 5.5:.1f},{y:.1f}" fill="{colour}"/>'
    )


def _marker_definition(marker_id: str, kind: str, colour: str) -> str:
    """A line's marker shape, drawn by the browser on every point of the line
    (``marker-start``, ``-mid``, ``-end``): the page carries the shape once, not once a point.
    In user units, centred on the point, never turned, untouched by the line's dashes."""
    return (
        f'<marker id="{marker_id}" viewBox="-6 -6 12 12" refX="0" refY="0" markerWidth="12" '
        f'markerHeight="12" markerUnits="userSpaceOnUse">{_marker(kind, 0, 0, colour)}</marker>'
    )


def _tick(x: float, y: float, label: str, width: int) -> str:
    """An axis label centred on ``x``, moved along so it stays inside the chart's ``width``
    (the first and last labels sit at the plot's edges)."""
    half = len(label) * 4.2  # 14 px text is about 8.4 px a character
    anchor, at = "middle", x
    if x + half > width - 2:
        anchor, at = "end", min(x + 4, width - 2.0)
    elif x - half < 2:
        anchor, at = "start", max(x - 4, 2.0)
    return (
        f'<text class="axis" x="{at:.1f}" y="{y:.0f}" text-anchor="{anchor}">{escape(label)}</text>'
    )


def _short(name: str) -> str:
    """A name as it fits at a line's end: up to 11 characters, longer ones cut with "…"."""
    return name if len(name) <= 11 else name[:10] + "…"


def _nice_step(top: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 6:
            return step
    return 10000


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

    def open(self, title: str, y_label: str) -> list[str]:
        """The SVG's opening, its title, the gridlines with their values, the axis label."""
        parts = [
            f'<svg class="chart" viewBox="0 0 {self.width} {self.height}" role="img" '
            f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
            f"<title>{escape(title)}</title>",
        ]
        value = self.y_min
        while value <= self.y_max:
            y = self.sy(value)
            parts.append(
                f'<line class="grid" x1="{self.left}" y1="{y:.1f}" '
                f'x2="{self.left + self.plot_w}" y2="{y:.1f}"/>'
                f'<text class="axis" x="{self.left - 8}" y="{y + 5:.1f}" '
                f'text-anchor="end">{value:g}</text>'
            )
            value += self.step
        middle = self.top + self.plot_h / 2
        parts.append(
            f'<text class="axis" x="12" y="{middle:.0f}" text-anchor="middle" '
            f'transform="rotate(-90 12 {middle:.0f})">{escape(y_label)}</text>'
        )
        return parts


def line_chart(
    series: Sequence[tuple[str, Sequence[float]]],
    x_labels: Sequence[str],
    title: str,
    y_label: str = "Total",
    x_label: str = "",
) -> Markup:
    """A line chart of several series sharing x positions, as an accessible inline SVG."""
    frame = _Frame.fit(
        [v for _, values in series for v in values],
        width=440,
        height=336,
        left=48,
        # Room for the names at the line ends (bold 15 px, about 9.5 px a character).
        right=int(34 + 9.5 * max((len(_short(name)) for name, _ in series), default=4)),
        top=16,
        bottom=52 if x_label else 36,
    )
    left, height, sy = frame.left, frame.height, frame.sy
    points = max((len(values) for _, values in series), default=0)

    def sx(i: int) -> float:
        return left + (frame.plot_w * i / (points - 1) if points > 1 else frame.plot_w / 2)

    parts = frame.open(title, y_label)
    every = max(1, math.ceil(len(x_labels) / 14))
    ticks_y = frame.top + frame.plot_h + 20
    for i, label in enumerate(x_labels):
        if i % every == 0 or i == len(x_labels) - 1:
            parts.append(_tick(sx(i), ticks_y, label, frame.width))
    if x_label:
        # Under the round numbers, centred on the plot: never cut off at the left edge.
        parts.append(
            f'<text class="axis" x="{left + frame.plot_w / 2:.0f}" y="{height - 6}" '
            f'text-anchor="middle">{escape(x_label)}</text>'
        )
    xs = [sx(i) for i in range(points)]
    x_text = [f"{x:.1f}" for x in xs]
    # sy(v) as one multiplication: the y of 0, less v times the height of one point.
    scale = frame.plot_h / ((frame.y_max - frame.y_min) or 1)
    base = sy(0)
    # Marker ids of their own for each chart, the same every time it is drawn.
    prefix = f"m{zlib.crc32(title.encode()):x}-"
    parts.append(
        "<defs>"
        + "".join(
            _marker_definition(
                f"{prefix}{index}",
                MARKERS[index % len(MARKERS)],
                LINE_COLOURS[index % len(LINE_COLOURS)],
            )
            for index in range(len(series))
        )
        + "</defs>"
    )
    label_slots: list[float] = []
    ends = sorted(
        ((values[-1] if values else 0, index) for index, (_, values) in enumerate(series)),
        reverse=True,
    )
    for end_value, index in ends:
        y = sy(end_value) + 5
        for slot in label_slots:
            if abs(slot - y) < 16:
                y = slot + 16
        label_slots.append(y)
        name, values = series[index]
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        marker = MARKERS[index % len(MARKERS)]
        path = " ".join(f"{x},{base - v * scale:.1f}" for x, v in zip(x_text, values, strict=False))
        dash = ' stroke-dasharray="7 4"' if index % 2 else ""
        at = f"url(#{prefix}{index})"
        parts.append(
            f'<g><polyline points="{path}" fill="none" stroke="{colour}" stroke-width="3"{dash}'
            f' marker-start="{at}" marker-mid="{at}" marker-end="{at}"/>'
        )
        last_x = xs[len(values) - 1] if values else left
        parts.append(_marker(marker, last_x + 14, y - 5, colour))
        parts.append(
            f'<text class="label" x="{last_x + 24:.1f}" y="{y:.1f}" fill="#1a1a1a">'
            f"{escape(_short(name))}</text></g>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def _ends(first: date, last: date) -> list[tuple[date, str]]:
    """The x-axis labels of a chart within one year: its first and last day, as months
    ("Sep 2026", "Nov 2026"), or as days when both fall in one month ("17 Nov", "24 Nov 2026");
    one label when both are the same day."""
    if first == last:
        return [(first, f"{first.day} {first:%b %Y}")]
    if (first.year, first.month) == (last.year, last.month):
        return [(first, f"{first.day} {first:%b}"), (last, f"{last.day} {last:%b %Y}")]
    return [(first, f"{first:%b %Y}"), (last, f"{last:%b %Y}")]


def totals_over_time(
    points: Sequence[tuple[date, float]],
    title: str,
    y_label: str = "Game total",
    window: int = 10,
) -> Markup:
    """One player's game totals by date as dots, with the average of the last ``window`` games
    as a line (the trend), as an accessible inline SVG. Dates are placed in time, so a long
    break shows as a gap."""
    values = [value for _, value in points]
    frame = _Frame.fit(values, width=440, height=280, left=52, right=24, top=16, bottom=40)
    left, height, sy = frame.left, frame.height, frame.sy
    first = points[0][0].toordinal() if points else 0
    span = max((points[-1][0].toordinal() - first) if points else 0, 1)

    def sx(day: date) -> float:
        return left + frame.plot_w * (day.toordinal() - first) / span if len(points) > 1 else left

    parts = frame.open(title, y_label)
    if points:
        years = range(points[0][0].year, points[-1][0].year + 1)
        if len(years) > 1:
            ticks = [
                (date(year, 1, 1), str(year)) for year in years if date(year, 1, 1) >= points[0][0]
            ]
        else:
            ticks = _ends(points[0][0], points[-1][0])
        for day, label in ticks[:: max(1, math.ceil(len(ticks) / 6))]:
            parts.append(_tick(sx(day), height - 14, label, frame.width))
    radius = 4.5 if len(points) <= 60 else 3
    colour = LINE_COLOURS[0]
    parts.extend(
        f'<circle cx="{sx(day):.1f}" cy="{sy(v):.1f}" r="{radius}" fill="{colour}" '
        'fill-opacity="0.55"/>'
        for day, v in points
    )
    if len(points) >= window:
        trend = []
        for index in range(window - 1, len(points)):
            recent = values[index - window + 1 : index + 1]
            trend.append(f"{sx(points[index][0]):.1f},{sy(sum(recent) / window):.1f}")
        parts.append(
            f'<polyline points="{" ".join(trend)}" fill="none" stroke="{LINE_COLOURS[1]}" '
            'stroke-width="3.5"/>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
