"""Scale: the number of SQL queries per league page does not grow with the number of nights;
seed-demo builds a league deterministically."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.leagues.demo import DEMO_PASSPHRASE, seed_demo
from tests.web.league_helpers import unlock


@contextmanager
def counting(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def _seed(app: Flask, nights: int, name: str) -> tuple[str, int, int]:
    with app.app_context():
        demo = seed_demo(nights=nights, tables=2, players=4, seed=7, name=name)
        db.session.commit()
        code = demo.league.code
        player = demo.league.players[0].id
        night = demo.league.nights[-1].id
    return code, player, night


def _queries(app: Flask, client: FlaskClient, url: str) -> int:
    with counting(app) as statements:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(statements)


def test_queries_per_page_do_not_grow_with_the_nights(app: Flask, client: FlaskClient) -> None:
    small = _seed(app, 3, "Small Club")
    large = _seed(app, 40, "Large Club")
    for code, _, _ in (small, large):
        assert unlock(client, code, DEMO_PASSPHRASE).status_code == 302
    counts: dict[str, list[int]] = {}
    for code, player, night in (small, large):
        pages = {
            "standings": f"/leagues/{code}",
            "standings, all nights": f"/leagues/{code}?season=all",
            "player": f"/leagues/{code}/players/{player}?season=all",
            "nights": f"/leagues/{code}/nights",
            "night": f"/leagues/{code}/nights/{night}",
        }
        for name, url in pages.items():
            _queries(app, client, url)  # warm: the session's first request loads more
            counts.setdefault(name, []).append(_queries(app, client, url))
    for name, (few, many) in counts.items():
        assert few == many, f"{name}: {few} queries on 3 nights, {many} on 40"
    assert counts["standings, all nights"][0] <= 9  # worked out on every look (issue 38)
    assert counts["player"][0] <= 10
    # The rating method adds no query either.
    with app.app_context():
        from scorekeeper.leagues.services import load_league

        for code, _, _ in (small, large):
            load_league(code).ranking = "rating"  # type: ignore[union-attr]
        db.session.commit()
    rating = [_queries(app, client, f"/leagues/{code}?season=all") for code, _, _ in (small, large)]
    assert rating[0] == rating[1]


def test_seed_demo_builds_the_same_league_for_the_same_seed(
    app: Flask, runner: FlaskCliRunner
) -> None:
    outputs = []
    for _ in range(2):
        result = runner.invoke(
            args=["seed-demo", "--nights", "4", "--tables", "2", "--players", "5", "--seed", "3"]
        )
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert "4 nights, 8 games, 104 rounds, 520 round scores" in outputs[0]
    assert "Passphrase: demo train 2025" in outputs[0]
    assert "/leagues/" in outputs[0] and "/organiser/" in outputs[0]
    codes = [re.search(r"league code (\w+)", out).group(1) for out in outputs]  # type: ignore[union-attr]
    client = app.test_client()
    tables = []
    for code in codes:
        unlock(client, code, "demo train 2025")
        page = client.get(f"/leagues/{code}?season=all").get_data(as_text=True)
        tables.append(re.findall(r'class="total">([^<]+)<', page))
    assert tables[0] == tables[1] and tables[0]
    bad = runner.invoke(args=["seed-demo", "--players", "1"])
    assert bad.exit_code != 0 and "2 to 8 players" in bad.output
    bad = runner.invoke(args=["seed-demo", "--start", "soon"])
    assert bad.exit_code != 0


def test_standings_read_as_many_statements_on_3_nights_as_on_40(
    app: Flask, client: FlaskClient
) -> None:
    """The standings read a fixed number of statements, the same on 3 nights as on 40, and a
    change (here a rename) shows at once."""
    counts = []
    for nights, name in ((3, "Small Club"), (40, "Large Club")):
        code, player, _ = _seed(app, nights, name)
        assert unlock(client, code, DEMO_PASSPHRASE).status_code == 302
        url = f"/leagues/{code}?season=all"
        cold = _queries(app, client, url)
        warm = _queries(app, client, url)
        assert warm == cold
        with app.app_context():
            from scorekeeper.leagues.services import edit_player, find_player, load_league

            league = load_league(code)
            edit_player(league, find_player(league, player), "Renamed Rita", False)  # type: ignore[arg-type]
            db.session.commit()
        with counting(app) as statements:
            page = client.get(url).get_data(as_text=True)
        assert "Renamed Rita" in page
        assert len(statements) == cold
        counts.append((cold, warm))
    assert counts[0] == counts[1]
