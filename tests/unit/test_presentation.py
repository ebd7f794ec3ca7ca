"""Drawing helpers: every half shows exactly its number of pips, inside the half; times in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from scorekeeper.charts import plan_line_chart
from scorekeeper.presentation import pip_positions, utc_iso


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
