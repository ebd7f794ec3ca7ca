"""What one request costs the server, next to yardsticks measured in the same run (prints
numbers; not a test).

    .venv/bin/python benchmarks/bench_requests.py [--runs 300] [--postgres URL]

Every figure is the median server CPU time of one request through the Flask test client
(routing, forms, the rules, SQL, templates, the commit; no network), and its ratio to:

- ``hello``: a bare Flask app answering "hello" (the cheapest request Flask can serve);
- ``one SELECT``: a route of this app that runs one ``SELECT`` on the same database.

Machines differ by 2x or more; the ratios are what to compare between machines. The statement
count of each request is printed too (it does not depend on the machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import event, text  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.devices import device_hash  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import kept, services  # noqa: E402
from scorekeeper.rules import HouseRules  # noqa: E402
from scorekeeper.rules.round_check import RoundInput, SeatInput  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def _points(number: int) -> list[int]:
    return [((number * 7 + seat * 5) % 40) + 1 for seat in range(len(NAMES))]


def _game_with_rounds(rounds: int, device: str) -> str:
    game = services.create_game(NAMES, HouseRules(), 0, device)
    for number in range(1, rounds + 1):
        points = _points(number)
        out = number % len(NAMES)
        points[out] = 0
        entry = RoundInput(
            seats=[SeatInput(position=i, hand=p) for i, p in enumerate(points)], went_out=out
        )
        assert services.record_round(game, entry, f"{game.public_id}-{number}", number).saved
    db.session.commit()
    return game.public_id


def cpu_times(call: Callable[[], Any], runs: int) -> list[float]:
    """CPU seconds of each of ``runs`` calls (after a few warm-up calls). A call that returns a
    float has timed itself (it does some housekeeping that is not part of the request)."""
    for _ in range(5):
        call()
    times = []
    for _ in range(runs):
        started = time.process_time()
        timed = call()
        times.append(timed if isinstance(timed, float) else time.process_time() - started)
    return times


class StatementCounter:
    def __init__(self, engine: Any) -> None:
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: Any) -> None:
        self.count += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL URL to use instead of SQLite")
    args = parser.parse_args()

    hello = Flask("hello")
    hello.add_url_rule("/", "hello", lambda: "hello")
    hello_client = hello.test_client()

    with tempfile.TemporaryDirectory() as folder:
        url = args.postgres or f"sqlite:///{folder}/bench.sqlite"
        app = create_app(
            {
                "DATABASE_URL": url,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
            }
        )

        @app.get("/bench/one-select")
        def one_select() -> str:
            return str(db.session.execute(text("SELECT 1")).scalar())

        client = app.test_client()
        with client.session_transaction() as session:
            session["device"] = "bench-device"
        device = device_hash("bench-device")
        with app.app_context():
            if args.postgres:
                db.drop_all()
                db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
                db.session.commit()
            upgrade()
            record_games = [_game_with_rounds(12, device) for _ in range(args.runs + 10)]
            board_game = _game_with_rounds(13, device)
            version = services.game_state(board_game).version  # type: ignore[union-attr]
            counter = StatementCounter(db.engine)

        pending = iter(record_games)

        def record() -> float:
            public_id = next(pending)
            data = {f"seat_{i}-hand": str(p) for i, p in enumerate(_points(13))}
            data["seat_4-hand"] = "0"
            data.update({"went_out": "4", "form_token": f"bench-{public_id}", "round_number": "13"})
            started = time.process_time()
            response = client.post(f"/g/{public_id}/round", data=data)
            spent = time.process_time() - started
            assert response.status_code == 302, response.get_data(as_text=True)[:500]
            # A phone follows the redirect, which shows (and so removes) the "Round 13 saved"
            # message; without this the session would pile up one message per run.
            with client.session_transaction() as session:
                session.pop("_flashes", None)
            return spent

        def request(path: str, status: int = 200, **headers: str) -> Callable[[], None]:
            def call() -> None:
                response = client.get(path, headers=headers)
                assert response.status_code == status, (path, response.status_code)

            return call

        def statements(call: Callable[[], None]) -> int:
            before = counter.count
            call()
            return counter.count - before

        def first_look(path: str) -> Callable[[], float]:
            """The page as the first phone sees a new version: nothing kept for it yet."""

            def call() -> float:
                kept.forget_all()
                started = time.process_time()
                response = client.get(path)
                spent = time.process_time() - started
                assert response.status_code == 200, (path, response.status_code)
                return spent

            return call

        unchanged = {"If-None-Match": f'"v{version}"'}
        measures: dict[str, Callable[[], Any]] = {
            "one SELECT route": request("/bench/one-select"),
            "record a round, 8 players": record,
            "scoreboard 13x8, first look": first_look(f"/g/{board_game}/scoreboard"),
            "scoreboard 13x8, seen again": request(f"/g/{board_game}/scoreboard"),
            "table view, first look": first_look(f"/g/{board_game}"),
            "table view, seen again": request(f"/g/{board_game}"),
            "share view poll, unchanged (304)": request(
                f"/g/{board_game}/watch/board", 304, **unchanged
            ),
            "state.json, unchanged (304)": request(f"/g/{board_game}/state.json", 304, **unchanged),
        }
        results: dict[str, tuple[float, int]] = {
            "hello (bare Flask)": (
                statistics.median(cpu_times(lambda: hello_client.get("/"), args.runs)),
                0,
            )
        }
        for label, call in measures.items():
            count = statements(call)
            results[label] = (statistics.median(cpu_times(call, args.runs)), count)

    hello_ms = results["hello (bare Flask)"][0] * 1000
    select_ms = results["one SELECT route"][0] * 1000
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}; {args.runs} runs each")
    print(f"{'request':36} {'CPU ms':>8} {'x hello':>8} {'x 1-SELECT':>10} {'statements':>10}")
    for label, (seconds, count) in results.items():
        ms = seconds * 1000
        print(
            f"{label:36} {ms:8.2f} {ms / hello_ms:8.1f} {ms / select_ms:10.2f} "
            f"{count if count else '':>10}"
        )


if __name__ == "__main__":
    main()
