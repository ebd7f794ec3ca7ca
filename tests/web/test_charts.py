"""The charts drawn from templates (templates/charts/) are the charts the f-string code drew:
the same elements with the same attributes and text, in the same order, for fixed inputs
(tests/web/chart_cases.py; the references were written by the code before the move). Only
the white space between elements may differ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.web.charts import line_chart, totals_over_time
from tests.web.chart_cases import LINE_CHARTS, TOTALS_OVER_TIME

REFERENCES = Path(__file__).parent / "chart_references"


def _compact(svg: str) -> str:
    return re.sub(r">\s+<", "><", svg.strip())


@pytest.mark.parametrize("name", sorted(LINE_CHARTS))
def test_a_running_totals_chart_is_drawn_as_before(app: Flask, name: str) -> None:
    series, labels, title, options = LINE_CHARTS[name]
    with app.test_request_context():
        svg = str(line_chart(series, labels, title, **options))
    assert _compact(svg) == (REFERENCES / f"line_{name}.svg").read_text().strip()


@pytest.mark.parametrize("name", sorted(TOTALS_OVER_TIME))
def test_a_totals_over_time_chart_is_drawn_as_before(app: Flask, name: str) -> None:
    points, title, options = TOTALS_OVER_TIME[name]
    with app.test_request_context():
        svg = str(totals_over_time(points, title, **options))
    assert _compact(svg) == (REFERENCES / f"time_{name}.svg").read_text().strip()


def test_hostile_names_and_titles_are_escaped(app: Flask) -> None:
    with app.test_request_context():
        svg = str(
            line_chart(
                [("<script>x</script>", [0, 1]), ('"><b>', [0, 2])],
                ["0", "1"],
                "</title><script>",
                x_label="<i>",
                y_label="&",
            )
        )
    assert "<script>" not in svg and "<b>" not in svg and "<i>" not in svg
    assert "&lt;script&gt;x&lt;/script&gt;" in svg  # written whole (issue 36), escaped
    assert "&#34;&gt;&lt;b&gt;" in svg and "&lt;/title&gt;&lt;script&gt;" in svg
    assert ">&amp;</text>" in svg and ">&lt;i&gt;</text>" in svg
