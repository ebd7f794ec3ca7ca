"""Two server processes (gunicorn) on one PostgreSQL and one Redis share what they must: a
phone's rights (an edit code typed on one works on the other), rate-limit counts, rounds (a
round saved on one is seen on the other; the same round saved on both at once is stored once)
and league standings (a change made elsewhere shows at once, nothing stale is kept).

Uses TEST_DATABASE_URL when it is PostgreSQL, otherwise starts a throw-away PostgreSQL server
(needs the server binaries and root, as .ci/run has); starts its own redis-server. Without them
the test is skipped with the reason, except in CI (CI=true), where it must run.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.leagues.demo import DEMO_PASSPHRASE, seed_demo
from scorekeeper.models import Game, Round, Seat
from tests.conftest import empty_database, make_app
from tests.throwaway_postgres import PostgresUnavailable, throwaway_postgres
from tests.web.helpers import hidden_fields, setup_data
from tests.web.test_rate_limit_storage import redis_url  # noqa: F401  (the shared fixture)

pytestmark = pytest.mark.slow  # runs gunicorn processes (and PostgreSQL, Redis)

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI") == "true"


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason} (required in CI)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def postgres_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """PostgreSQL with the schema migrated; emptied afterwards."""
    given = os.environ.get("TEST_DATABASE_URL", "")
    if given.startswith("postgres"):
        yield request.getfixturevalue("migrated_database")
        return
    try:
        with throwaway_postgres("processes", "-c fsync=off") as url:
            app = make_app(url)
            with app.app_context():
                from flask_migrate import upgrade

                upgrade()
                db.engine.dispose()
            yield url
    except PostgresUnavailable as missing:
        _unavailable(str(missing))


class Servers:
    """Two gunicorn processes serving the app on one database and one Redis."""

    def __init__(self, database_url: str, redis: str, folder: Path) -> None:
        if shutil.which("gunicorn") is None and not _has_module("gunicorn"):
            _unavailable("gunicorn is not installed (pip install 'scorekeeper[gunicorn]')")
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "two-processes-share-this-key",
            "RATELIMIT_STORAGE_URI": redis,
        }
        env.pop("TEST_DATABASE_URL", None)
        self.ports = [_free_port(), _free_port()]
        self.processes = []
        self.logs = []
        for number, port in enumerate(self.ports):
            log = (folder / f"server-{number}.log").open("wb")
            self.logs.append(log)
            self.processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "gunicorn",
                        "--bind",
                        f"127.0.0.1:{port}",
                        "--config",
                        "python:scorekeeper.serving",
                        "--workers",
                        "1",
                        "--threads",
                        "4",
                        "scorekeeper:create_app()",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        deadline = time.monotonic() + 60
        for port, process in zip(self.ports, self.processes, strict=True):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        self.stop()
                        pytest.fail(f"gunicorn did not start: see {folder}")
                    time.sleep(0.1)
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(timeout=30)
        for log in self.logs:
            log.close()


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Phone:
    """A phone's browser: its own cookies (the same for both servers, as behind one proxy),
    no redirects followed."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), _Stay()
        )

    def open(self, url: str, data: dict[str, str] | None = None) -> tuple[int, str, Any]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(url, body, timeout=30) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.headers

    def form(self, url: str) -> dict[str, str]:
        """The hidden fields of the form at ``url``, the CSRF token included."""
        status, page, _ = self.open(url)
        assert status == 200, (url, status)
        fields = hidden_fields(page)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token, page[:500]
        fields["csrf_token"] = html.unescape(token.group(1))
        return fields


def _round(points: list[int], went_out: int) -> dict[str, str]:
    data = {f"seat_{i}-hand": str(p) for i, p in enumerate(points)}
    data["went_out"] = str(went_out)
    return data


@pytest.fixture
def servers(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[Servers]:  # noqa: F811
    started = Servers(postgres_url, redis_url, tmp_path)
    try:
        yield started
    finally:
        started.stop()
        app = make_app(postgres_url)
        with app.app_context():
            empty_database()
            db.engine.dispose()


def test_two_processes_share_rights_limits_rounds_and_standings(
    servers: Servers, postgres_url: str
) -> None:
    a, b = servers.bases
    app = make_app(postgres_url)

    # A game started on server A by its creator.
    creator = Phone()
    fields = creator.form(f"{a}/games/new")
    status, _, headers = creator.open(
        f"{a}/games/new", {**setup_data(["Ann", "Bob", "Cy"]), **fields}
    )
    assert status == 302
    public_id = headers["Location"].rstrip("/").rsplit("/", 1)[1]
    with app.app_context():
        edit_code = db.session.scalar(select(Game.edit_code).where(Game.public_id == public_id))

    # Rights: the edit code typed on A lets this phone keep score on B.
    helper = Phone()
    form = helper.form(f"{a}/g/{public_id}/unlock")
    status, _, _ = helper.open(f"{a}/g/{public_id}/unlock", {**form, "code": edit_code})
    assert status == 302
    form = helper.form(f"{b}/g/{public_id}/round")
    status, _, _ = helper.open(f"{b}/g/{public_id}/round", {**form, **_round([0, 5, 9], 0)})
    assert status == 302, "the unlock made on A counts on B"

    # Rounds: the round saved on B is seen on A.
    status, body, _ = creator.open(f"{a}/g/{public_id}/state.json")
    assert status == 200 and json.loads(body)["rounds"] == 1

    # Two phones save round 2 at the same moment, one on each server: one round is stored,
    # the slower phone is told it was already saved.
    forms = [creator.form(f"{a}/g/{public_id}/round"), helper.form(f"{b}/g/{public_id}/round")]
    statuses = _at_once(
        [
            lambda: creator.open(f"{a}/g/{public_id}/round", {**forms[0], **_round([3, 0, 4], 1)}),
            lambda: helper.open(f"{b}/g/{public_id}/round", {**forms[1], **_round([6, 0, 2], 1)}),
        ]
    )
    assert sorted(statuses) == [302, 409]
    # One form sent to both servers at once (a retry through another server): stored once.
    form = creator.form(f"{a}/g/{public_id}/round")
    same = {**form, **_round([2, 7, 0], 2)}
    statuses = _at_once(
        [
            lambda: creator.open(f"{a}/g/{public_id}/round", same),
            lambda: creator.open(f"{b}/g/{public_id}/round", same),
        ]
    )
    assert statuses == [302, 302]
    with app.app_context():
        numbers = db.session.scalars(
            select(Round.number)
            .join(Game, Game.id == Round.game_id)
            .where(Game.public_id == public_id)
            .order_by(Round.number)
        ).all()
    assert numbers == [1, 2, 3]

    # Limits: ten wrong codes, five through each server, and the eleventh is refused on either.
    guesser = Phone()
    form = guesser.form(f"{a}/g/{public_id}/unlock")
    for base in (a, b) * 5:
        status, _, _ = guesser.open(f"{base}/g/{public_id}/unlock", {**form, "code": "WRONG1"})
        assert status == 200
    status, _, _ = guesser.open(f"{b}/g/{public_id}/unlock", {**form, "code": "WRONG1"})
    assert status == 429
    status, _, _ = guesser.open(f"{a}/g/{public_id}/unlock", {**form, "code": "WRONG1"})
    assert status == 429

    # Standings: B shows (and keeps) a league's standings; a change written by another process
    # shows on B at once.
    with app.app_context():
        demo = seed_demo(nights=4, tables=1, players=3, seed=5, name="Two Servers")
        db.session.commit()
        code = demo.league.code
        player_id = db.session.scalar(
            select(Seat.player_id)
            .join(Game, Game.id == Seat.game_id)
            .where(Game.night_id == demo.league.nights[0].id)
            .limit(1)
        )
    reader = Phone()
    form = reader.form(f"{b}/leagues/{code}/unlock")
    status, _, _ = reader.open(
        f"{b}/leagues/{code}/unlock", {**form, "passphrase": DEMO_PASSPHRASE}
    )
    assert status == 302
    for _ in range(2):
        status, page, _ = reader.open(f"{b}/leagues/{code}?season=all")
        assert status == 200 and "Renamed Rita" not in page
    with app.app_context():
        from scorekeeper.leagues.services import edit_player, find_player, load_league

        league = load_league(code)
        assert league is not None
        edit_player(league, find_player(league, player_id), "Renamed Rita", False)  # type: ignore[arg-type]
        db.session.commit()
        assert db.session.scalar(select(func.count(Game.id))) >= 5
    status, page, _ = reader.open(f"{b}/leagues/{code}?season=all")
    assert status == 200 and "Renamed Rita" in page
    with app.app_context():
        db.engine.dispose()


def _at_once(calls: list[Any]) -> list[int]:
    """Run the calls in threads released together; their status codes in call order."""
    barrier = threading.Barrier(len(calls))
    results: list[int] = [0] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        results[index] = calls[index]()[0]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
