"""Fixed inputs for the charts, drawn once by the f-string charts before they moved into
templates (tests/web/chart_references/<name>.svg); test_charts.py draws them again."""

from __future__ import annotations

from datetime import date, timedelta

LINE_CHARTS = {
    "two_players_hostile_name": (
        [("Ann", [0, 5, 9]), ('Bob <b>&"x"', [0, 12, 20])],
        ["0", "1", "2"],
        'Running totals <after> each round ("lower" & better)',
        {"x_label": "Round"},
    ),
    "one_point_negative": ([("Ann", [-10])], ["start"], "T", {}),
    "no_players": ([], [], "Empty", {}),
    "eight_long_names_thirty_rounds": (
        [
            (
                f"Player number {i} with a long name",
                [((r * (i + 3)) % 47) * (r + 1) for r in range(31)],
            )
            for i in range(8)
        ],
        [str(r) for r in range(31)],
        "Running totals after each hand (higher is better)",
        {"x_label": "Hand", "y_label": "Points"},
    ),
    "late_joiner_and_ties": (
        [
            ("Ann", [0, 10, 10, 25]),
            ("Bob", [0, 10, 10, 25]),
            ("Cy", [40, 55]),
            ("Dee", [0, -5, 3, 25]),
        ],
        ["0", "1", "2", "3"],
        "Ties",
        {"x_label": "Round"},
    ),
}

_start = date(2024, 12, 20)
TOTALS_OVER_TIME = {
    "within_a_month": ([(date(2026, 11, 17), 40), (date(2026, 11, 24), 55)], "Ann's <totals>", {}),
    "one_day": ([(date(2026, 11, 17), 40), (date(2026, 11, 17), 55)], "Ann", {}),
    "months": ([(date(2026, 9, 3), 40), (date(2026, 11, 24), -15)], "Bob & co", {}),
    "years_with_trend": (
        [(_start + timedelta(days=9 * i), (i * 37) % 180 - 20) for i in range(70)],
        "Cy's game totals, all time",
        {"y_label": "Points", "window": 10},
    ),
    "single": ([(date(2026, 1, 1), 12)], "One", {}),
    "none": ([], "Nothing", {}),
}
