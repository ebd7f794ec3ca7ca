"""Rate-limit counts in Redis (RATELIMIT_STORAGE_URI) are shared by every server process and
survive a restart; memory counts are per process.

Starts its own redis-server on a free loopback port; skips when redis-server is not installed,
except in CI (CI=true), where it must run."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import running_app
from tests.web.helpers import start_game

pytestmark = pytest.mark.slow  # runs redis-server and other Python processes

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is required in CI (apt-get install redis-server)")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    pytest.importorskip("redis", reason="pip install 'scorekeeper[redis]'")
    port = _free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


GUESSER = textwrap.dedent(
    """
    import sys
    from tests.conftest import make_app

    app = make_app(sys.argv[1], RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=sys.argv[2])
    client = app.test_client()
    codes = [client.post(f"/g/{sys.argv[3]}/unlock", data={"code": "WRONG1"}).status_code
             for _ in range(10)]
    print(",".join(map(str, codes)))
    """
)


def test_another_process_sees_the_same_counts(migrated_database: str, redis_url: str) -> None:
    with running_app(
        migrated_database, RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=redis_url
    ) as app:
        client = app.test_client()
        game = start_game(client, ["Ann", "Bob"])
        # Ten wrong codes from another server process (the same address: 127.0.0.1) ...
        done = subprocess.run(
            [sys.executable, "-c", GUESSER, migrated_database, redis_url, game],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert done.stdout.strip() == ",".join(["200"] * 10), done.stderr
        # ... and this process refuses the eleventh.
        guesser = app.test_client()
        assert guesser.post(f"/g/{game}/unlock", data={"code": "WRONG1"}).status_code == 429


def test_memory_counts_are_per_process(migrated_database: str) -> None:
    """Why Redis is needed for several processes: with memory:// a new process starts at 0."""
    with running_app(migrated_database, RATELIMIT_ENABLED=True) as app:
        client = app.test_client()
        game = start_game(client, ["Ann", "Bob"])
        done = subprocess.run(
            [sys.executable, "-c", GUESSER, migrated_database, "memory://", game],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert done.stdout.strip() == ",".join(["200"] * 10), done.stderr
        assert client.post(f"/g/{game}/unlock", data={"code": "WRONG1"}).status_code == 200
