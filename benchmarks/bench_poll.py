"""What a following phone's unchanged poll (``304 Not Modified``) costs the server, next to a
bare Flask "hello" served the same way in the same run (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_poll.py [--seconds 10] [--rounds 3] [--postgres URL]

Both apps are served by gunicorn, 2 workers x 4 threads (gthread), on 127.0.0.1, and driven by
wrk (16 kept-alive connections, 2 threads). The poll is ``GET /g/<id>/state.json`` (what the
table view asks every few seconds) and ``GET /g/<id>/watch/board`` (the share view's live
part), sent as a phone sends it: its session cookie, ``Accept-Encoding``, ``Accept-Language``
and the ETag of the copy it has (``If-None-Match``). The cost of a request is the CPU the
gunicorn processes (master and workers, read from the kernel: ``/proc/PID/task/*/schedstat``)
spent during the run, divided by the requests wrk completed; wrk's own CPU is not in it. Each
app is measured ``--rounds`` times, in turn; the median is printed with its ratio to hello.
"(Flask only)" is the same app without ``web.unchanged_polls``: every poll a Flask request,
as before issue 38.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from flask import Flask  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.rules import HouseRules  # noqa: E402
from scorekeeper.rules.round_check import RoundInput, SeatInput  # noqa: E402
from scorekeeper.web.devices import device_hash  # noqa: E402
from tests.database import fresh_schema  # noqa: E402

CONFIG = {"SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
NAMES = ["Ann", "Bob", "Cy", "Di"]
PHONE = {"Accept-Encoding": "gzip, deflate, br", "Accept-Language": "en-GB,en;q=0.8"}


def hello_app() -> Flask:
    """The yardstick: a bare Flask app answering "hello"."""
    hello = Flask("hello")
    hello.add_url_rule("/", "hello", lambda: "hello")
    return hello


def poll_app(flask_only: bool = False) -> Flask:
    """The app as gunicorn serves it (``bench_poll:poll_app()``); ``flask_only``: without the
    304 answered before Flask (``web.unchanged_polls``), every poll a whole Flask request."""
    app = create_app({**CONFIG, "DATABASE_URL": os.environ["BENCH_DATABASE_URL"]})
    if flask_only:
        app.wsgi_app = app.extensions["unchanged_polls"].wsgi_app  # type: ignore[method-assign]
    return app


def _game(app: Flask) -> tuple[str, str]:
    """A game of 8 rounds, and a phone's session cookie."""
    with app.app_context():
        game = services.create_game(NAMES, HouseRules(), 0, device_hash("bench-device"))
        for number in range(1, 9):
            points = [((number * 7 + seat * 5) % 40) + 1 for seat in range(len(NAMES))]
            points[number % len(NAMES)] = 0
            entry = RoundInput(
                seats=[SeatInput(position=i, hand=p) for i, p in enumerate(points)],
                went_out=number % len(NAMES),
            )
            services.record_round(services.load(game), entry, f"t-{number}", number)
        db.session.commit()
        public_id = game.public_id
    cookie = app.session_interface.get_signing_serializer(app).dumps(  # type: ignore[attr-defined]
        {"device": "bench-device"}
    )
    return public_id, f"session={cookie}"


def _etag(app: Flask, path: str, cookie: str) -> str:
    client = app.test_client()
    response = client.get(path, headers={**PHONE, "Cookie": cookie})
    assert response.status_code == 200, response.status_code
    again = client.get(
        path, headers={**PHONE, "Cookie": cookie, "If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304, again.status_code
    return response.headers["ETag"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_ns(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                    total += int(stat.read().split()[0])
            except OSError:
                continue
    return total


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _answers(port: int) -> bool:
    try:
        for _ in range(8):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/")
            connection.getresponse().read()
            connection.close()
    except OSError:
        return False
    return True


@contextmanager
def served(spec: str, env: dict[str, str]) -> Iterator[tuple[int, list[int]]]:
    """gunicorn serving ``spec``, 2 workers x 4 threads: its port and its processes."""
    port = _free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}",
        "--workers", "2", "--threads", "4", "--worker-class", "gthread",
        "--keep-alive", "60", "--log-level", "warning", "--chdir", str(HERE), spec,
    ]  # fmt: skip
    server = subprocess.Popen(command, env={**os.environ, **env})
    try:
        deadline = time.monotonic() + 60
        while len(_children(server.pid)) < 2:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"gunicorn did not start {spec}")
            time.sleep(0.1)
        while not _answers(port):  # every worker booted: each answers in turn
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn does not answer {spec}")
            time.sleep(0.2)
        yield port, [server.pid, *_children(server.pid)]
    finally:
        server.terminate()
        server.wait(timeout=30)


def wrk(port: int, pids: list[int], path: str, headers: dict[str, str], seconds: int) -> float:
    """Server CPU milliseconds a request under wrk (16 connections), with ``headers``."""
    command = ["wrk", "-t2", "-c16", f"-d{seconds}s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    subprocess.run(
        [*command[:3], "-d1s", *command[4:], f"http://127.0.0.1:{port}{path}"],
        check=True,
        capture_output=True,
    )  # fmt: skip  (warm-up)
    before = _cpu_ns(pids)
    out = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{path}"], check=True, capture_output=True, text=True
    ).stdout
    spent = _cpu_ns(pids) - before
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    if not requests or "Non-2xx or 3xx responses" in out:
        raise SystemExit(f"errors under wrk:\n{out}")
    return spent / requests / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", help="a PostgreSQL URL to use instead of SQLite (emptied)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed (apt-get install -y wrk)")
    with tempfile.TemporaryDirectory() as folder:
        url = args.postgres or f"sqlite:///{folder}/bench.sqlite"
        app = create_app({**CONFIG, "DATABASE_URL": url})
        fresh_schema(app)
        public_id, cookie = _game(app)
        polls = {}
        for path in (f"/g/{public_id}/state.json", f"/g/{public_id}/watch/board"):
            etag = _etag(app, path, cookie)
            polls[path] = {**PHONE, "Cookie": cookie, "If-None-Match": etag}
        env = {"BENCH_DATABASE_URL": url}
        figures: dict[str, list[float]] = {"hello": []}
        with (
            served("bench_poll:hello_app()", env) as hello,
            served("bench_poll:poll_app()", env) as ours,
            served("bench_poll:poll_app(flask_only=True)", env) as flask_only,
        ):
            for _ in range(args.rounds):
                figures["hello"].append(wrk(*hello, "/", PHONE, args.seconds))
                for path, headers in polls.items():
                    for how, server in (("", ours), (" (Flask only)", flask_only)):
                        found = figures.setdefault(path + how, [])
                        found.append(wrk(*server, path, headers, args.seconds))
    hello_ms = statistics.median(figures["hello"])
    print(f"server CPU a request, gunicorn 2x4, wrk 16 connections, median of {args.rounds}")
    for label, values in figures.items():
        ms = statistics.median(values)
        shown = label.replace(public_id, "<id>")
        spread = ", ".join(f"{v:.3f}" for v in values)
        print(f"{shown:40} {ms:7.3f} ms  {ms / hello_ms:5.2f}x hello  ({spread})")


if __name__ == "__main__":
    main()
