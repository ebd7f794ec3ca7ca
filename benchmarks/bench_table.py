"""Benchmark of the table flow (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_table.py [--runs 200]

Prints, on a temporary SQLite database:
- median server time to record a round (POST of the round form, 8 players, round 13),
- median server time to render the scoreboard of a finished 13-round, 8-player game,
- the bytes of the scoreboard page with everything it loads, gzipped.
Server time is measured around the Flask test client call (routing, form parsing, the rules,
SQL, templates, the commit), without network.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.rules import HouseRules  # noqa: E402
from scorekeeper.web.devices import device_hash  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def _points(number: int) -> list[int]:
    return [((number * 7 + seat * 5) % 40) + 1 for seat in range(len(NAMES))]


def _round_input(number: int) -> services.RoundInput:
    points = _points(number)
    went_out = number % len(NAMES)
    points[went_out] = 0
    return services.RoundInput(
        seats=[services.SeatInput(position=i, hand=p) for i, p in enumerate(points)],
        went_out=went_out,
    )


def _game_with_rounds(rounds: int, device: str) -> str:
    game = services.create_game(NAMES, HouseRules(), 0, device)
    for number in range(1, rounds + 1):
        outcome = services.record_round(
            services.load(game), _round_input(number), f"{game.public_id}-{number}", number
        )
        assert outcome.saved is not None
    db.session.commit()
    return game.public_id


def report(label: str, seconds: list[float]) -> None:
    median = statistics.median(seconds) * 1000
    p90 = statistics.quantiles(seconds, n=10)[-1] * 1000
    print(f"{label}: median {median:.2f} ms, p90 {p90:.2f} ms over {len(seconds)} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        with client.session_transaction() as session:
            session["device"] = "bench-device"
        device = device_hash("bench-device")
        with app.app_context():
            upgrade()
            record_games = [_game_with_rounds(12, device) for _ in range(args.runs)]
            board_game = _game_with_rounds(13, device)

        record_times = []
        for public_id in record_games:
            data = {f"seat_{i}-hand": str(p) for i, p in enumerate(_points(13))}
            data["seat_4-hand"] = "0"
            data.update({"went_out": "4", "form_token": f"bench-{public_id}", "round_number": "13"})
            started = time.perf_counter()
            response = client.post(f"/g/{public_id}/round", data=data)
            record_times.append(time.perf_counter() - started)
            assert response.status_code == 302, response.get_data(as_text=True)[:500]

        board_times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            response = client.get(f"/g/{board_game}/scoreboard")
            board_times.append(time.perf_counter() - started)
            assert response.status_code == 200

        page = client.get(f"/g/{board_game}/scoreboard").get_data()
        assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', page)
        sizes = {"page": len(gzip.compress(page, 9))}
        for asset in assets:
            body = client.get(asset.decode()).get_data()
            sizes[asset.decode()] = len(gzip.compress(body, 9))

    report("record a round (8 players, round 13)", record_times)
    report("scoreboard (13 rounds, 8 players)", board_times)
    total = sum(sizes.values())
    detail = ", ".join(f"{name} {size / 1024:.1f} KB" for name, size in sizes.items())
    print(f"scoreboard page weight, gzipped: {total / 1024:.1f} KB ({detail})")


if __name__ == "__main__":
    main()
