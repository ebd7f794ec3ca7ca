"""Benchmark of the league pages at scale (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_leagues.py [--runs 40] [--postgres auto|URL] [--http]

Seeds the demo league (``seed-demo``: 260 weekly nights, 3 tables of 6, about 61,000 round
scores) into a temporary SQLite file, and into PostgreSQL when asked (``--postgres URL``, or
``BENCH_DATABASE_URL``, or ``--postgres auto`` to start a throw-away PostgreSQL 15 server as the
``postgres`` user with its socket under /tmp, as .ci/run does). Then prints:
- the seed time,
- a bare Flask "hello" measured in the same run: the yardstick (machines differ, ratios hold),
- the standings page over all nights by each ranking method, kept (the league has not changed
  since the last look: the usual case) and worked out (the first look after a change: one
  finished game's version moved on and the league given a new stamp before each request, as a
  correction does; with ``--http`` also "from nothing", a process's very first look), in ms
  and as a multiple of hello,
- median (and 90th percentile) server time of the standings as they open (the current season),
  a player page and a night page,
- SQL queries per page on a small league (10 nights) and on the big one: the same numbers;
- with ``--http``, first the standings by each method served by gunicorn, with the server's CPU
  per request read from the kernel, next to a bare Flask hello served the same way (see
  ``bench_requests.py --http``).
Server time is measured around the Flask test client call (routing, SQL, the standings maths,
templates), without network: wall time, and the app's own CPU time (with PostgreSQL the
database server's CPU is not in it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flask import Flask  # noqa: E402
from sqlalchemy import event, text  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.leagues.demo import DEMO_PASSPHRASE, seed_demo  # noqa: E402
from scorekeeper.models import League  # noqa: E402
from tests.database import fresh_schema  # noqa: E402
from tests.throwaway_postgres import PostgresUnavailable, throwaway_postgres  # noqa: E402


def _app(url: str) -> Flask:
    from bench_requests import bench_app  # the app with the benchmarks' own routes

    app = bench_app(url)
    app.config["TESTING"] = True
    fresh_schema(app)
    return app


def _change_a_game(client: Any) -> None:
    """A change to the league (its newest finished game corrected): that game's version moves
    on and the league gets a new standings stamp (``bench_requests``' route, not timed)."""
    assert client.get("/bench/change-a-game").status_code == 200


def _timed(client: Any, url: str, runs: int, cold: bool = False) -> tuple[float, float, float]:
    """Median and p90 wall time and median CPU time (ms) of ``runs`` requests; ``cold`` changes
    a game of the league before each one (the first look after a change)."""
    client.get(url)  # warm: templates compiled, caches filled
    times, cpu = [], []
    for _ in range(runs):
        if cold:
            _change_a_game(client)
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        cpu.append((time.process_time() - started_cpu) * 1000)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    times.sort()
    p90 = times[max(0, int(len(times) * 0.9) - 1)]
    return statistics.median(times), p90, statistics.median(cpu)


def _hello(runs: int) -> tuple[float, float]:
    """A bare Flask app answering "hello": median wall and CPU ms."""
    hello = Flask("hello")
    hello.add_url_rule("/", "hello", lambda: "hello")
    client = hello.test_client()
    for _ in range(50):
        client.get("/")
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        client.get("/")
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def _queries(app: Flask, client: Any, url: str, cold: bool = False) -> int:
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    client.get(url)
    if cold:
        _change_a_game(client)
    event.listen(engine, "before_cursor_execute", count)
    try:
        client.get(url)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(statements)


def _set_ranking(app: Flask, code: str, ranking: str) -> None:
    with app.app_context():
        league = db.session.scalars(db.select(League).where(League.code == code)).one()
        league.ranking = ranking
        db.session.commit()


def _over_http(app: Flask, url: str, big: tuple[str, int, int], args: argparse.Namespace) -> None:
    """The standings over all nights by each method, served by gunicorn and asked over HTTP,
    with the server's CPU per request read from the kernel (as ``bench_requests.py --http``),
    next to a bare Flask hello served and measured the same way."""
    from bench_requests import OverHttp, median_cost

    env = {"BENCH_DATABASE_URL": url}
    hello = OverHttp("bench_requests:hello_app()", env)
    ours = OverHttp("bench_requests:bench_app()", env)
    try:
        ours.sign_in(f"/leagues/{big[0]}/unlock", {"passphrase": DEMO_PASSPHRASE})
        hello_ms = median_cost(lambda: hello.ask("GET", "/")[1], args.runs * 10) * 1000
        print(f"\nover HTTP (gunicorn, server CPU): bare Flask hello {hello_ms:.3f} ms")
        print(
            f"{'standings, all nights':<34}{'kept':>16}{'after a change':>16}{'from nothing':>16}"
        )
        url_all = f"/leagues/{big[0]}?season=all"

        def look() -> float:
            status, spent = ours.ask("GET", url_all)
            assert status == 200, status
            return spent

        def after_a_change() -> float:
            ours.ask("GET", "/bench/change-a-game")
            return look()

        def from_nothing() -> float:
            ours.forget()
            return look()

        for ranking in ("average", "wins", "points", "rating"):
            _set_ranking(app, big[0], ranking)
            kept = median_cost(look, args.runs) * 1000
            worked = median_cost(after_a_change, max(5, args.runs // 2)) * 1000
            nothing = median_cost(from_nothing, max(5, args.runs // 2)) * 1000
            print(
                f"{'by ' + ranking:<34}{kept:>9.1f} {kept / hello_ms:>4.0f}x"
                f"{worked:>11.1f} {worked / hello_ms:>4.0f}x"
                f"{nothing:>11.1f} {nothing / hello_ms:>4.0f}x"
            )
        _set_ranking(app, big[0], "average")
    finally:
        hello.close()
        ours.close()


def bench(url: str, label: str, args: argparse.Namespace) -> None:
    print(f"\n== {label}")
    app = _app(url)
    with app.app_context():
        started = time.perf_counter()
        demo = seed_demo(nights=args.nights, tables=args.tables, players=args.players, seed=1)
        db.session.commit()
        seeded = time.perf_counter() - started
        big = (demo.league.code, demo.league.players[0].id, demo.league.nights[-1].id)
        small_demo = seed_demo(nights=10, tables=args.tables, players=args.players, seed=2)
        db.session.commit()
        small = (
            small_demo.league.code,
            small_demo.league.players[0].id,
            small_demo.league.nights[-1].id,
        )
        written = demo.written
        # Fresh bulk-loaded tables: gather planner statistics (and, on PostgreSQL, the
        # visibility map that index-only scans need), as autovacuum would on a live server.
        with db.engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection.execution_options(isolation_level="AUTOCOMMIT").execute(
                    text("VACUUM ANALYZE")
                )
            else:
                connection.execute(text("ANALYZE"))
                connection.commit()
    print(
        f"seed-demo: {written.nights} nights, {written.games} games, {written.rounds} rounds, "
        f"{written.scores} round scores in {seeded:.1f} s"
    )
    client = app.test_client()
    for code, _, _ in (big, small):
        client.post(f"/leagues/{code}/unlock", data={"passphrase": DEMO_PASSPHRASE})

    def pages(league: tuple[str, int, int]) -> dict[str, str]:
        code, player, night = league
        return {
            "standings as it opens (this season)": f"/leagues/{code}",
            "standings, all nights": f"/leagues/{code}?season=all",
            "player page, all nights": f"/leagues/{code}/players/{player}?season=all",
            "player page (this season)": f"/leagues/{code}/players/{player}",
            "night page (3 tables)": f"/leagues/{code}/nights/{night}",
        }

    if args.http:
        _over_http(app, url, big, args)
    hello_wall, hello_cpu = _hello(args.runs * 20)
    print(f"\nbare Flask hello: {hello_wall:.3f} ms wall, {hello_cpu:.3f} ms CPU (the yardstick)")
    print(
        f"\n{'standings, all nights (median ms, x hello)':<34}"
        f"{'kept: wall':>12}{'CPU':>14}{'worked out: wall':>20}{'CPU':>14}"
    )
    url = pages(big)["standings, all nights"]
    for ranking in ("average", "wins", "points", "rating"):
        _set_ranking(app, big[0], ranking)
        kept = _timed(client, url, args.runs)
        worked = _timed(client, url, max(5, args.runs // 2), cold=True)
        print(
            f"{'by ' + ranking:<34}"
            f"{kept[0]:>7.1f} {kept[0] / hello_wall:>3.0f}x"
            f"{kept[2]:>9.1f} {kept[2] / hello_cpu:>3.0f}x"
            f"{worked[0]:>15.1f} {worked[0] / hello_wall:>3.0f}x"
            f"{worked[2]:>9.1f} {worked[2] / hello_cpu:>3.0f}x"
        )
    _set_ranking(app, big[0], "average")
    print(f"\n{'page (median / p90 server time, ms)':<52}{'median':>8}{'p90':>8}")
    for name, page in pages(big).items():
        if name == "standings, all nights":
            continue
        median, p90, _ = _timed(client, page, args.runs)
        print(f"{name:<52}{median:>8.1f}{p90:>8.1f}")

    print(f"\n{'SQL queries per page':<52}{'10 nights':>10}{f'{args.nights} nights':>12}")
    small_pages, big_pages = pages(small), pages(big)
    for name in big_pages:
        few = _queries(app, client, small_pages[name])
        many = _queries(app, client, big_pages[name])
        print(f"{name:<52}{few:>10}{many:>12}")
        if name.startswith("standings"):
            few = _queries(app, client, small_pages[name], cold=True)
            many = _queries(app, client, big_pages[name], cold=True)
            print(f"{'  the same, worked out (after a change)':<52}{few:>10}{many:>12}")
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=260)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument(
        "--http",
        action="store_true",
        help="also serve with gunicorn and measure the standings' server CPU over HTTP",
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_DATABASE_URL", ""),
        help="a PostgreSQL URL, or 'auto' to start a throw-away server",
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        bench(f"sqlite:///{folder}/bench.sqlite", "SQLite (temporary file)", args)
    if args.postgres == "auto":
        try:
            with throwaway_postgres("bench") as url:
                bench(url, "PostgreSQL (throw-away local server)", args)
        except PostgresUnavailable as missing:
            raise SystemExit(f"--postgres auto {missing}") from None
    elif args.postgres:
        bench(args.postgres, "PostgreSQL", args)


if __name__ == "__main__":
    main()
