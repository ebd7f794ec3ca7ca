"""What one request costs the server, next to yardsticks measured in the same run (prints
numbers; not a test).

    .venv/bin/python benchmarks/bench_requests.py [--runs 300] [--postgres URL] [--http]

Every figure is the median server CPU time of one request, measured one of two ways:

- in process (the default): through the Flask test client, the CPU this process spends on the
  request (routing, forms, the rules, SQL, templates, the commit; no network, no HTTP server);
- ``--http``: each app served by gunicorn (one process, one thread) on 127.0.0.1 and asked over
  a kept-alive connection as a phone asks (``Accept-Encoding: gzip, deflate, br``, its session
  cookie); the CPU the server process spent on each request is read from the kernel
  (``/proc/PID/task/*/schedstat``, in nanoseconds): the HTTP server's reading and writing and
  the compression are in it. This is the "server CPU" of a real deployment.

Each figure is printed with its ratio to, measured the same way in the same run:

- ``hello``: a bare Flask app answering "hello" (the cheapest request Flask can serve);
- ``one SELECT``: a route of this app that runs one ``SELECT`` on the same database.

Machines differ by 2x or more; the ratios are what to compare between machines. The statement
count of each request is printed too (it does not depend on the machine). A "first look" is the
first request for a version of the game (what the game's pages show is kept per version, see
``games.kept``; everything kept is forgotten before each such request, not counted); "seen
again" is every later look, by the same phone or another. "First look after a save" is the
first look at the version a save made, on the process that saved it (the save, not counted,
hands over the rows it wrote: ``rows.keep_when_committed``); the phone that saved opens the
table view next.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from flask import Flask  # noqa: E402
from sqlalchemy import event, text, update  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.games.totals import new_stamp  # noqa: E402
from scorekeeper.models import League  # noqa: E402
from scorekeeper.web.devices import device_hash  # noqa: E402
from scorekeeper.web.responses import etag_for  # noqa: E402

try:  # each finished game's seat results, kept per version (absent before and since)
    from scorekeeper.leagues.standings import _kept as kept_standings  # noqa: E402
    from scorekeeper.leagues.standings import forget_game_results  # noqa: E402
except ImportError:
    kept_standings = {}  # type: ignore[assignment]

    def forget_game_results() -> None:
        pass


from tests.database import fresh_schema  # noqa: E402

try:  # what a game's pages show, kept per version (absent before it was kept)
    from scorekeeper.games import kept  # noqa: E402
except ImportError:  # measuring an older version: every look works it out

    class _Nothing:
        @staticmethod
        def forget_all() -> None:
            pass

    kept = _Nothing()  # type: ignore[assignment]
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
        assert services.record_round(
            services.load(game), entry, f"{game.public_id}-{number}", number
        ).saved
    db.session.commit()
    return game.public_id


class StatementCounter:
    def __init__(self, engine: Any) -> None:
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: Any) -> None:
        self.count += 1


# --------------------------------------------------------------------------------------------
# The apps: gunicorn imports these from this file ("bench_requests:bench_app()")

CONFIG = {"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False}


def hello_app() -> Flask:
    """The yardstick: a bare Flask app answering "hello"."""
    hello = Flask("hello")
    hello.add_url_rule("/", "hello", lambda: "hello")
    return hello


def bench_app(url: str | None = None) -> Flask:
    """The app, with a one-SELECT route and a way to forget what is kept (not timed)."""
    app = create_app({**CONFIG, "DATABASE_URL": url or os.environ["BENCH_DATABASE_URL"]})

    @app.get("/bench/one-select")
    def one_select() -> str:
        return str(db.session.execute(text("SELECT 1")).scalar())

    @app.get("/bench/forget")
    def forget() -> str:
        kept.forget_all()
        kept_standings.clear()
        forget_game_results()
        return "forgotten"

    @app.get("/bench/change-a-game")
    def change_a_game() -> str:
        """What a change to a league does (a correction to its newest finished game): in
        every league, that game's version moves on and the league gets a new standings stamp."""
        db.session.execute(
            text(
                "UPDATE game SET version = version + 1 WHERE id IN ("
                " SELECT max(game.id) FROM game JOIN night ON night.id = game.night_id"
                " WHERE game.status = 'finished' GROUP BY night.league_id)"
            )
        )
        db.session.execute(update(League).values(standings_stamp=new_stamp()))
        return "changed"

    return app


# --------------------------------------------------------------------------------------------
# Two ways to ask: in process, or over HTTP with the server's CPU read from the kernel


Cost = tuple[int, float]  # the status, and the server's CPU seconds for the request


class InProcess:
    """The Flask test client; the cost is this process's CPU during the call."""

    def __init__(self, app: Flask, device: str | None = None) -> None:
        self.client = app.test_client()
        self.counter: StatementCounter | None = None
        self.statements = 0  # SQL statements of the last request
        if device:
            with self.client.session_transaction() as session:
                session["device"] = device

    def ask(self, method: str, path: str, data: Any = None, **headers: str) -> Cost:
        counted = self.counter.count if self.counter else 0
        started = time.process_time()
        response = self.client.open(path, method=method, data=data, headers=headers)
        spent = time.process_time() - started
        self.statements = (self.counter.count if self.counter else 0) - counted
        if method == "POST":
            # A phone follows the redirect, which shows (and so removes) the "Round 13 saved"
            # message; without this the session would pile up one message per run.
            with self.client.session_transaction() as session:
                session.pop("_flashes", None)
        return response.status_code, spent

    def forget(self) -> None:
        kept.forget_all()

    def close(self) -> None:
        pass


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_ns(pid: int) -> int:
    """CPU nanoseconds the threads of ``pid`` have run (the kernel's scheduler statistics)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except OSError:  # a thread that just ended
            continue
    return total


class OverHttp:
    """The app served by gunicorn (one worker process, one thread, kept-alive connections);
    the cost is the worker's CPU from just before the request is sent until its answer has
    been read (and a moment after, for what the worker does once the answer is out)."""

    def __init__(self, spec: str, env: dict[str, str], cookie: str = "") -> None:
        self.port = _free_port()
        self.cookie = cookie
        command = [
            sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}",
            "--workers", "1", "--threads", "1", "--worker-class", "gthread",
            "--keep-alive", "60", "--log-level", "warning", "--chdir", str(HERE), spec,
        ]  # fmt: skip
        self.server = subprocess.Popen(command, env={**os.environ, **env})
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                if self.server.poll() is not None or time.monotonic() > deadline:
                    self.server.kill()
                    raise SystemExit(f"gunicorn did not start {spec}") from None
                time.sleep(0.1)
        self.worker = self._worker()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def _worker(self) -> int:
        for _ in range(100):
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                except OSError:
                    continue
                if parent == self.server.pid:
                    return int(entry)
            time.sleep(0.1)
        raise SystemExit("gunicorn started no worker")

    def sign_in(self, path: str, data: dict[str, str]) -> None:
        """Post a form (a league's passphrase) and keep the session cookie it answers with."""
        self.connection.request(
            "POST",
            path,
            urlencode(data),
            {"Content-Type": "application/x-www-form-urlencoded", "Cookie": self.cookie},
        )
        response = self.connection.getresponse()
        response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            if value.startswith("session="):
                self.cookie = value.split(";", 1)[0]

    def ask(self, method: str, path: str, data: Any = None, **headers: str) -> Cost:
        sent = {"Accept-Encoding": "gzip, deflate, br", **headers}
        if self.cookie:
            sent["Cookie"] = self.cookie  # always the same: flashed messages never pile up
        body = None
        if data is not None:
            body = urlencode(data)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        before = _cpu_ns(self.worker)
        self.connection.request(method, path, body, sent)
        response = self.connection.getresponse()
        response.read()
        time.sleep(0.002)
        return response.status, (_cpu_ns(self.worker) - before) / 1e9

    def forget(self) -> None:
        self.ask("GET", "/bench/forget")

    def close(self) -> None:
        self.connection.close()
        self.server.terminate()
        self.server.wait(timeout=30)


def median_cost(call: Callable[[], float], runs: int) -> float:
    """The median CPU seconds of ``runs`` calls (after a few warm-up calls)."""
    for _ in range(5):
        call()
    return statistics.median(call() for _ in range(runs))


@contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    if args.postgres:
        yield args.postgres
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{folder}/bench.sqlite"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL URL to use instead of SQLite (emptied)")
    parser.add_argument(
        "--http", action="store_true", help="serve with gunicorn and read the server's CPU"
    )
    args = parser.parse_args()

    with database(args) as url:
        app = bench_app(url)
        device = device_hash("bench-device")
        fresh_schema(app)
        with app.app_context():
            record_games = [_game_with_rounds(12, device) for _ in range(args.runs + 10)]
            saved_boards = [_game_with_rounds(12, device) for _ in range(args.runs + 10)]
            saved_tables = [_game_with_rounds(12, device) for _ in range(args.runs + 10)]
            middle_games = [_game_with_rounds(6, device) for _ in range(args.runs + 10)]
            board_game = _game_with_rounds(13, device)
            version = services.game_state(board_game).version  # type: ignore[union-attr]
            counter = StatementCounter(db.engine)
            cookie = app.session_interface.get_signing_serializer(app).dumps(  # type: ignore[attr-defined]
                {"device": "bench-device"}
            )

        if args.http:
            env = {"BENCH_DATABASE_URL": url}
            hello: InProcess | OverHttp = OverHttp("bench_requests:hello_app()", env)
            ours: InProcess | OverHttp = OverHttp(
                "bench_requests:bench_app()", env, f"session={cookie}"
            )
        else:
            hello, ours = InProcess(hello_app()), InProcess(app, device="bench-device")
            ours.counter = counter

        def save(public_id: str, number: int) -> float:
            """Round ``number`` of the game: the phone opened the round form first (not
            counted), as every phone does before it saves."""
            assert ours.ask("GET", f"/g/{public_id}/round")[0] == 200
            data = {f"seat_{i}-hand": str(p) for i, p in enumerate(_points(number))}
            data["seat_4-hand"] = "0"
            data.update(
                {
                    "went_out": "4",
                    "form_token": f"bench-{public_id}",
                    "round_number": str(number),
                }
            )
            status, spent = ours.ask("POST", f"/g/{public_id}/round", data)
            assert status == 302, status
            return spent

        def recording(games: list[str], number: int) -> Callable[[], float]:
            """Round ``number`` of each game in turn."""
            pending = iter(games)
            return lambda: save(next(pending), number)

        def after_a_save(games: list[str], page: str) -> Callable[[], float]:
            """The first look at the version a save just made, on the process that saved it
            (not counted): the phone that saved opens the table view next. The last round of
            each game in turn; nothing else of that version is kept."""
            pending = iter(games)

            def call() -> float:
                public_id = next(pending)
                save(public_id, 13)
                return request(page.format(public_id))()

            return call

        def request(path: str, expect: int = 200, **headers: str) -> Callable[[], float]:
            def call() -> float:
                status, spent = ours.ask("GET", path, **headers)
                assert status == expect, (path, status)
                return spent

            return call

        def first_look(path: str) -> Callable[[], float]:
            see = request(path)

            def call() -> float:
                ours.forget()
                return see()

            return call

        def statements(call: Callable[[], float]) -> int | None:
            """The SQL statements of the measured request (in process only)."""
            call()
            return None if isinstance(ours, OverHttp) else ours.statements

        unchanged = {"If-None-Match": f'W/"{etag_for(f"v{version}", "en")}"'}
        measures: dict[str, Callable[[], float]] = {
            "one SELECT route": request("/bench/one-select"),
            "round form, 8 players": request(f"/g/{record_games[-1]}/round"),
            "record a round (7 of 13), 8 players": recording(middle_games, 7),
            "record the last round, 8 players": recording(record_games, 13),
            "scoreboard 13x8, first look": first_look(f"/g/{board_game}/scoreboard"),
            "scoreboard 13x8, seen again": request(f"/g/{board_game}/scoreboard"),
            "table view, first look": first_look(f"/g/{board_game}"),
            "table view, seen again": request(f"/g/{board_game}"),
            # After the others: the many games saved here push older versions out of what is
            # kept (a "seen again" measured after them would start with a first look).
            "scoreboard 13x8, first look after a save": after_a_save(
                saved_boards, "/g/{}/scoreboard"
            ),
            "table view, first look after a save": after_a_save(saved_tables, "/g/{}"),
            "share view poll, unchanged (304)": request(
                f"/g/{board_game}/watch/board", 304, **unchanged
            ),
            "state.json, unchanged (304)": request(f"/g/{board_game}/state.json", 304, **unchanged),
        }
        try:
            results: dict[str, tuple[float, int | None]] = {
                "hello (bare Flask)": (
                    median_cost(lambda: hello.ask("GET", "/")[1], args.runs),
                    None,
                )
            }
            for label, call in measures.items():
                count = statements(call)
                results[label] = (median_cost(call, args.runs), count)
        finally:
            hello.close()
            ours.close()
        with app.app_context():
            db.engine.dispose()

    hello_ms = results["hello (bare Flask)"][0] * 1000
    select_ms = results["one SELECT route"][0] * 1000
    how = "over HTTP (gunicorn), server CPU" if args.http else "in process (test client), CPU"
    print(
        f"database: {'PostgreSQL' if args.postgres else 'SQLite'}; {how}; "
        f"{args.runs} runs each; median"
    )
    print(f"{'request':42} {'CPU ms':>8} {'x hello':>8} {'x 1-SELECT':>10} {'statements':>10}")
    for label, (seconds, count) in results.items():
        ms = seconds * 1000
        print(
            f"{label:42} {ms:8.2f} {ms / hello_ms:8.1f} {ms / select_ms:10.2f} "
            f"{count if count is not None else '':>10}"
        )


if __name__ == "__main__":
    main()
