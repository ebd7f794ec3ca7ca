"""What the offline client costs the server and the phone (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_offline.py [--runs 300]

On a temporary SQLite database, median server time (Flask test client, no network) of:
- the baseline: a bare Flask app answering "hello" in the same process,
- /g/<id>/state.json answered 304 (what a visible table view asks every 4.5 s) and 200,
- the table view and the round form of an 8-player game at round 7: each visit to a kept
  game's table view makes the service worker fetch the round form once more,
- /sw.js (asked by the browser on navigations, answered from the computed version).
Then the polling load of one phone per minute, and the bytes the client adds (gzipped).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_table import NAMES, _game_with_rounds  # noqa: E402
from flask import Flask  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.web.devices import device_hash  # noqa: E402

POLL_SECONDS = 4.5  # static/js/live.js


def timed(runs: int, call: Callable[[], object]) -> float:
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()

    hello = Flask("hello")
    hello.add_url_rule("/", "hello", lambda: "hello")
    hello_client = hello.test_client()

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
                "SECRET_KEY": "bench",
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        with client.session_transaction() as session:
            session["device"] = "bench-device"
        with app.app_context():
            upgrade()
            public_id = _game_with_rounds(6, device_hash("bench-device"))
        base = f"/g/{public_id}"
        etag = client.get(f"{base}/state.json").headers["ETag"]

        def get(path: str, status: int, **headers: str) -> Callable[[], object]:
            def call() -> object:
                response = client.get(path, headers=headers)
                assert response.status_code == status, (path, response.status_code)
                return response

            return call

        rows = [
            ("baseline: bare Flask hello", timed(args.runs, lambda: hello_client.get("/"))),
            (
                "state.json, unchanged (304)",
                timed(args.runs, get(f"{base}/state.json", 304, **{"If-None-Match": etag})),
            ),  # noqa: E501
            ("state.json, changed (200)", timed(args.runs, get(f"{base}/state.json", 200))),
            (f"table view ({len(NAMES)} players, round 7)", timed(args.runs, get(base, 200))),
            ("round form (the worker's extra fetch)", timed(args.runs, get(f"{base}/round", 200))),
            ("/sw.js", timed(args.runs, get("/sw.js", 200))),
        ]
        sizes = {
            name: len(gzip.compress(client.get(path).get_data(), 9))
            for name, path in (
                ("offline.js", "/static/js/offline.js"),
                ("live.js", "/static/js/live.js"),
                ("sw.js", "/sw.js"),
                ("manifest", "/manifest.webmanifest"),
            )
        }

    for label, median in rows:
        print(f"{label}: median {median:.2f} ms over {args.runs} runs")
    per_minute = 60 / POLL_SECONDS
    poll = rows[1][1]
    print(
        f"one phone with the table view on screen: {per_minute:.1f} polls a minute, "
        f"{per_minute * poll:.1f} ms of server time a minute while nothing changes"
    )
    detail = ", ".join(f"{name} {size / 1024:.1f} KB" for name, size in sizes.items())
    print(f"offline client, gzipped: {sum(sizes.values()) / 1024:.1f} KB ({detail})")


if __name__ == "__main__":
    main()
