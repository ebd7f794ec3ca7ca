"""Drawing helpers: every half shows exactly its number of pips, inside the half; times in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from scorekeeper.web.charts import plan_line_chart
from scorekeeper.web.page_helpers import pip_positions, utc_iso


@pytest.mark.parametrize("pips", range(19))
def test_a_half_shows_its_number_of_distinct_pips(pips: int) -> None:
    points = pip_positions(pips)
    assert len(points) == pips
    assert len(set(points)) == pips
    assert all(10 <= x <= 90 and 10 <= y <= 90 for x, y in points)


def test_naive_times_are_read_as_utc() -> None:
    assert utc_iso(datetime(2026, 11, 21, 8, 30)) == "2026-11-21T08:30:00+00:00"
    paris = timezone(timedelta(hours=1))
    assert utc_iso(datetime(2026, 11, 21, 9, 30, tzinfo=paris)) == "2026-11-21T08:30:00+00:00"
    assert utc_iso(datetime(2026, 11, 21, 8, 30, tzinfo=UTC)).endswith("+00:00")


def test_chart_has_a_line_and_a_label_per_player() -> None:
    """(How the chart is written, escaping included: tests/web/test_charts.py.)"""
    chart = plan_line_chart(
        [("Ann", [0, 5, 9]), ("Bob <b>", [0, 12, 20])], ["start", "1", "2"], "T"
    )
    assert [line.name.text for line in chart.lines] == ["Bob <b>", "Ann"]  # highest end first
    assert [len(line.points) for line in chart.lines] == [3, 3]
    assert len({line.end_marker.kind for line in chart.lines}) == 2
    assert chart.canvas.title == "T" and [t.text for t in chart.ticks] == ["start", "1", "2"]


def test_chart_handles_negative_totals_and_a_single_point() -> None:
    chart = plan_line_chart([("Ann", [-10])], ["start"], "T")
    assert len(chart.lines) == 1 and len(chart.lines[0].points) == 1
    assert chart.canvas.grid[0].value < 0


def test_the_value_axis_title_keeps_clear_of_the_values() -> None:
    """Issue 36: the upright "Total" sat on "100". The title (14 px, centred on y_label_x) ends
    before the widest value (14 px, about 8.4 px a character, ending at values_x) begins."""
    for top in (40, 180, 1240):
        chart = plan_line_chart([("Ann", [0, top]), ("Bob", [0, -20])], ["start", "1"], "T")
        canvas = chart.canvas
        widest = max(len(f"{line.value:g}") for line in canvas.grid) * 8.4
        assert canvas.values_x - widest > canvas.y_label_x + 7 + 2, (top, canvas)


def test_names_at_the_line_ends_are_whole_inside_the_chart_and_apart() -> None:
    """Issue 36: the names at the line ends were cut ("Bartholome…"). Each is written whole, on
    lines of its words, inside the chart, no line of one on a line of another, eight players
    ending on the same total included."""
    names = ["Bartholomew Ashworth", "Margaret Fitzwilliam", "Dorothea Worthington", "Al"]
    names += ["Alexandria Pemberton", "Christopher Hamilton", "Genevieve Montgomery", "Maximilian"]
    for ends in ([40 + 7 * i for i in range(8)], [0] * 8, [300] * 8):
        chart = plan_line_chart(
            [(name, [0, end]) for name, end in zip(names, ends, strict=True)], ["0", "1"], "T"
        )
        width, height = chart.canvas.width, chart.canvas.height
        ys = []
        for line in chart.lines:
            assert " ".join(line.name_lines) == line.name.text
            assert line.name.x + 9.5 * max(map(len, line.name_lines)) <= width
            ys += [line.name.y + 16 * i for i in range(len(line.name_lines))]
        assert sorted(line.name.text for line in chart.lines) == sorted(names)
        ys.sort()
        assert all(b - a >= 16 for a, b in zip(ys, ys[1:], strict=False)), ys
        assert ys[0] >= 12 and ys[-1] <= height - 4, ys
