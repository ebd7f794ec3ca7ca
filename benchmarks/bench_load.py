"""A bounded load test on loopback (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_load.py [--tables 10] [--viewers 30] [--seconds 20]
        [--warmup 5] [--server waitress|gunicorn] [--workers 2] [--threads 4] [--keep-alive 2]
        [--bare-gunicorn]
        [--postgres URL] [--redis URL]

Starts the app on 127.0.0.1 (waitress through ``python -m scorekeeper``, or gunicorn), on a
temporary SQLite file or the PostgreSQL database given (emptied and migrated first). Then, for
``--warmup`` seconds (not counted: each server process compiles its templates on its first
requests) and ``--seconds`` more:

- each of ``--tables`` table phones plays games of four players: it opens the round form and
  saves the round every ~2 s (a new game when one is over), as the creator of its game;
- each of ``--viewers`` phones follows one table's share view, asking every 4 s with the ETag it
  has (an unchanged game answers 304).

Every phone waits for its answer (10 s at most: more is a timeout) before going on; nothing is
sent to any address but 127.0.0.1, and the run stops by itself. Prints per route: requests, errors
(a wrong status, a refused connection or a timeout), p50 / p95 / p99 in ms; the server's CPU per
request (its processes' user + system time over the run, divided by the requests answered); and
the server CPU of a bare Flask "hello" served by gunicorn over HTTP, measured in this run before
the load, as the yardstick (``bench_requests.py --http``).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from tests.database import fresh_schema  # noqa: E402

TIMEOUT = 10.0
SERVING = ROOT / "scorekeeper" / "serving.py"
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
SETUP = {
    "max_pip": "12", "copies": "1", "order": "descending", "first_engine": "",
    "deal_table": "standard", "double_blank": "0", "blank_half": "0",
    "end_on_double": "allowed", "marker_penalty": "0", "going_out_bonus": "0",
    "start_rule": "rotate", "tie_break": "co_winners", "first_starter": "0", "action": "",
}  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its children still running (gunicorn's workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        own, parent = int(stat.parent.name), int(fields[1])
        if own == pid or parent == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


class Recorder:
    """Answers by route; a request started before ``since`` (the warm-up) is not counted."""

    def __init__(self, since: float = 0.0) -> None:
        self.since = since
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.examples: dict[str, str] = {}

    def add(self, route: str, seconds: float, ok: bool, why: str = "") -> None:
        if time.perf_counter() - seconds < self.since:
            return
        with self.lock:
            self.times[route].append(seconds)
            if not ok:
                self.errors[route] += 1
                self.examples.setdefault(route, why)


class Phone:
    """One phone: a kept-alive connection, its session cookie, its answers timed."""

    def __init__(self, port: int, recorder: Recorder, address: str) -> None:
        self.port = port
        self.recorder = recorder
        # Each phone is its own device on the club's network: the server is told its address
        # by the X-Forwarded-For header a proxy would add (TRUSTED_PROXIES=1), so the limits per
        # address (60 new games an hour) apply per phone as they would at a club. Only a
        # header: every connection goes to 127.0.0.1.
        self.address = address
        self.cookie = ""
        self.connection: http.client.HTTPConnection | None = None

    def request(
        self,
        route: str,
        method: str,
        path: str,
        body: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str, Any]:
        sent = {
            "Accept-Encoding": "identity",
            "X-Forwarded-For": self.address,
            **(headers or {}),
        }
        if self.cookie:
            sent["Cookie"] = self.cookie
        payload = None
        if body is not None:
            from urllib.parse import urlencode

            payload = urlencode(body)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        for attempt in (1, 2):
            reused = self.connection is not None
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(
                        "127.0.0.1", self.port, timeout=TIMEOUT
                    )
                self.connection.request(method, path, payload, sent)
                response = self.connection.getresponse()
                data = response.read().decode(errors="replace")
                break
            except (OSError, http.client.HTTPException) as error:
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                # A kept-alive connection the server closed while the phone was idle: a
                # browser opens a new one and sends the request again, so do we (once).
                if attempt == 1 and reused and not isinstance(error, TimeoutError):
                    continue
                self.recorder.add(route, time.perf_counter() - started, False, repr(error))
                return 0, "", {}
        elapsed = time.perf_counter() - started
        for value in response.headers.get_all("Set-Cookie") or []:
            if value.startswith("session="):
                self.cookie = value.split(";", 1)[0]
        ok = response.status in expect
        self.recorder.add(route, elapsed, ok, f"{response.status} {data[:200]!r}")
        return response.status, data, response.headers


def _field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
    return found.group(1) if found else ""


def table_phone(
    port: int, recorder: Recorder, games: dict[int, str], index: int, until: float
) -> None:
    phone = Phone(port, recorder, f"10.20.{index // 250}.{index % 250 + 1}")
    rng = random.Random(index)
    time.sleep(rng.uniform(0, 2))
    while time.monotonic() < until:
        status, page, _ = phone.request("new game form", "GET", "/games/new")
        if status != 200:
            time.sleep(1)
            continue
        data = {**SETUP, "csrf_token": _field(page, "csrf_token")}
        data.update({f"names-{i}": name for i, name in enumerate(PLAYERS)})
        status, _, headers = phone.request("start a game", "POST", "/games/new", data, (302,))
        if status != 302:
            time.sleep(1)
            continue
        public_id = headers["Location"].rstrip("/").rsplit("/", 1)[1]
        games[index] = public_id
        for _ in range(13):
            started = time.monotonic()
            if started >= until:
                return
            status, page, _ = phone.request("round form", "GET", f"/g/{public_id}/round")
            if status == 200:
                out = rng.randrange(len(PLAYERS))
                data = {
                    f"seat_{i}-hand": "0" if i == out else str(rng.randint(1, 60))
                    for i in range(len(PLAYERS))
                }
                data.update(
                    went_out=str(out),
                    csrf_token=_field(page, "csrf_token"),
                    form_token=_field(page, "form_token"),
                    round_number=_field(page, "round_number"),
                    game_version=_field(page, "game_version"),
                )
                phone.request("save a round", "POST", f"/g/{public_id}/round", data, (302,))
            pause = rng.uniform(1.5, 2.5) - (time.monotonic() - started)
            time.sleep(max(0.0, min(pause, until - time.monotonic())))


def viewer_phone(
    port: int, recorder: Recorder, games: dict[int, str], index: int, tables: int, until: float
) -> None:
    phone = Phone(port, recorder, f"10.30.{index // 250}.{index % 250 + 1}")
    rng = random.Random(10_000 + index)
    time.sleep(rng.uniform(0, 4))
    etag = ""
    watching = ""
    while time.monotonic() < until:
        started = time.monotonic()
        public_id = games.get(index % tables)
        if public_id:
            if public_id != watching:
                watching, etag = public_id, ""
            headers = {"If-None-Match": etag} if etag else {}
            status, _, answer = phone.request(
                "share view poll", "GET", f"/g/{public_id}/watch/board", None, (200, 304), headers
            )
            if status == 200:
                etag = answer.get("ETag", "")
        pause = 4.0 - (time.monotonic() - started)
        time.sleep(max(0.0, min(pause, until - time.monotonic())))


def _hello_cpu_ms() -> float:
    """The server CPU of a bare Flask "hello" served by gunicorn and asked over HTTP, median
    of 500 (``bench_requests.py --http``): the same kind of figure as the server's CPU per
    request below."""
    from bench_requests import OverHttp, median_cost

    hello = OverHttp("bench_requests:hello_app()", {})
    try:
        return median_cost(lambda: hello.ask("GET", "/")[1], 500) * 1000
    finally:
        hello.close()


def _prepare_database(url: str) -> None:
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    fresh_schema(app)
    with app.app_context():
        db.engine.dispose()


def _start_server(args: argparse.Namespace, url: str, port: int, log: Any) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench-load", "TRUSTED_PROXIES": "1"}
    if args.redis:
        env["RATELIMIT_STORAGE_URI"] = args.redis
    if args.server == "gunicorn":
        # The deployment's gunicorn configuration (deploy/scorekeeper.service), in a tree that
        # has one (an older tree measured beside this one may not).
        serving = SERVING.is_file() and not args.bare_gunicorn
        config = ["--config", "python:scorekeeper.serving"] if serving else []
        command = [
            sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", *config,
            "--workers", str(args.workers), "--threads", str(args.threads),
            "--keep-alive", str(args.keep_alive), "scorekeeper:create_app()",
        ]  # fmt: skip
    else:
        command = [
            sys.executable, "-m", "scorekeeper", "--port", str(port),
            "--threads", str(args.threads), "--connection-limit", str(args.connection_limit),
        ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--viewers", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20, help="measured, after the warm-up")
    parser.add_argument(
        "--warmup",
        type=float,
        default=5,
        help="seconds of load first, not counted (each server process compiles its templates "
        "and fills its caches on its first requests)",
    )
    parser.add_argument("--server", choices=["waitress", "gunicorn"], default="waitress")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument(
        "--bare-gunicorn",
        action="store_true",
        help="gunicorn without the deployment's configuration (scorekeeper.serving), to measure "
        "what it changes",
    )
    parser.add_argument(
        "--keep-alive",
        type=int,
        default=2,
        help="gunicorn: seconds an idle connection stays open (its default 2; phones that "
        "poll every 4 s reconnect each time unless it is longer)",
    )
    parser.add_argument("--connection-limit", type=int, default=500, help="waitress")
    parser.add_argument("--postgres", help="a PostgreSQL URL (emptied first!)")
    parser.add_argument("--redis", help="RATELIMIT_STORAGE_URI for several processes")
    args = parser.parse_args()
    if not 1 <= args.seconds <= 600 or not 0 <= args.warmup <= 60:
        parser.error("--seconds: from 1 to 600; --warmup: from 0 to 60")

    hello_ms = _hello_cpu_ms()
    with tempfile.TemporaryDirectory() as folder:
        url = args.postgres or f"sqlite:///{folder}/load.sqlite"
        _prepare_database(url)
        port = _free_port()
        with open(Path(folder) / "server.log", "wb") as log:
            server = _start_server(args, url, port, log)
            try:
                games: dict[int, str] = {}
                started = time.monotonic()
                until = started + args.warmup + args.seconds
                recorder = Recorder(since=time.perf_counter() + args.warmup)
                threads = [
                    threading.Thread(
                        target=table_phone, args=(port, recorder, games, i, until), daemon=True
                    )
                    for i in range(args.tables)
                ] + [
                    threading.Thread(
                        target=viewer_phone,
                        args=(port, recorder, games, i, args.tables, until),
                        daemon=True,
                    )
                    for i in range(args.viewers)
                ]
                for thread in threads:
                    thread.start()
                time.sleep(args.warmup)
                cpu_before = _cpu_seconds(server.pid)
                phones_before = time.process_time()
                measured = time.monotonic()
                for thread in threads:
                    thread.join(timeout=args.seconds + args.warmup + TIMEOUT + 5)
                elapsed = time.monotonic() - measured
                cpu = _cpu_seconds(server.pid) - cpu_before
                phones_cpu = time.process_time() - phones_before
            finally:
                server.terminate()
                server.wait(timeout=30)

    database = "PostgreSQL" if args.postgres else "SQLite"
    how = (
        f"gunicorn, {args.workers} workers x {args.threads} threads, keep-alive {args.keep_alive} s"
        if args.server == "gunicorn"
        else f"waitress, {args.threads} threads"
    )
    total = sum(len(t) for t in recorder.times.values())
    errors = sum(recorder.errors.values())
    print(
        f"{args.tables} tables + {args.viewers} viewers for {elapsed:.0f} s (after "
        f"{args.warmup:.0f} s of warm-up); {how}; {database}; {os.cpu_count()} cores"
    )
    print(f"{'route':20} {'requests':>9} {'errors':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for route, times in sorted(recorder.times.items()):
        ordered = sorted(times)
        print(
            f"{route:20} {len(ordered):9d} {recorder.errors[route]:7d} "
            f"{_percentile(ordered, 0.5) * 1000:8.1f} {_percentile(ordered, 0.95) * 1000:8.1f} "
            f"{_percentile(ordered, 0.99) * 1000:8.1f}"
        )
    per_request = cpu / total * 1000 if total else 0.0
    print(
        f"all: {total} requests ({total / elapsed:.1f}/s), {errors} errors; server CPU "
        f"{cpu:.1f} s = {per_request:.2f} ms a request = {per_request / hello_ms:.1f}x a bare "
        f"Flask hello ({hello_ms:.3f} ms server CPU over HTTP, gunicorn, this run)"
    )
    print(
        f"the simulated phones (this process) used {phones_cpu:.1f} s of CPU "
        f"({phones_cpu / elapsed:.2f} of the {os.cpu_count()} cores) on the same machine"
    )
    for route, example in recorder.examples.items():
        print(f"  first error on {route}: {example}")


if __name__ == "__main__":
    main()
