"""``python -m scorekeeper --lan`` (``make lan``, issue 23): it prints the address phones on the
club's Wi-Fi open, and its QR code, and the game's share QR code carries that address.

The server runs in a subprocess as a user starts it. It is asked to listen on 127.0.0.1 only:
no test sends anything to an address other than loopback. The address it chooses is this
machine's own, as :func:`scorekeeper.web.public_url.choose_lan_address` picks it (tested
with injected interfaces in test_reach.py).
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import segno
from flask.testing import FlaskClient

from scorekeeper.web import public_url
from tests.web.helpers import start_game
from tests.web.test_reach import qr_of

pytestmark = pytest.mark.slow  # runs the server in a subprocess

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_until(process: subprocess.Popen[str], marker: str, seconds: float = 30) -> str:
    """What the server printed, up to and including the line holding ``marker``."""
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"the server stopped: {''.join(lines)}")
        lines.append(line)
        if marker in line:
            return "".join(lines)
    raise AssertionError(f"no {marker!r} in {''.join(lines)}")


def wait_for_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)  # polling a port: there is no event to wait on
    raise AssertionError(f"nothing listens on 127.0.0.1:{port}")


def test_lan_mode_prints_the_address_and_its_qr_code_and_shares_it(
    client: FlaskClient, migrated_database: str
) -> None:
    game = start_game(client, ["Ann", "Bob"])
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_URL", "TRUSTED_HOSTS")}
    env.update(
        DATABASE_URL=migrated_database,
        SECRET_KEY="lan-test",
        PYTHONUNBUFFERED="1",
        PYTHONIOENCODING="utf-8",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--lan", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
    )
    try:
        printed = read_until(process, "Ctrl+C")
        address = public_url.choose_lan_address(public_url.local_interfaces())
        if address is None:
            assert "No network address found" in printed
            return
        url = f"http://{address}:{port}/"
        assert f"Phones on this network open:\n\n    {url}\n" in printed
        drawn = io.StringIO()
        segno.make(url).terminal(out=drawn, compact=True)
        assert drawn.getvalue() in printed
        wait_for_port(port)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{game}/qr.svg") as answer:
            assert answer.read() == qr_of(f"{url}g/{game}/watch")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{game}") as answer:
            assert f"{url}g/{game}/watch" in answer.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=10)
        assert process.stdout is not None
        process.stdout.close()
