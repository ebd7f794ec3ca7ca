"""``python -m scorekeeper``: the server's options reach waitress; nonsense is refused; the port
is chosen as README and docs/deploying.md say (``--port``, ``SCOREKEEPER_PORT``, ``make run
PORT=``); behind a trusted proxy waitress hands its X-Forwarded-* headers on to the app."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scorekeeper import __main__ as serve_module

ROOT = Path(__file__).resolve().parents[2]


def serve_with(monkeypatch: pytest.MonkeyPatch, argv: list[str], **config: Any) -> dict[str, Any]:
    """What ``main(argv)`` hands waitress, with an app configured with ``config``."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(serve_module, "serve", lambda app, **options: seen.update(options))
    monkeypatch.setattr(serve_module, "create_app", lambda: SimpleNamespace(config=config))
    serve_module.main(argv)
    return seen


def test_threads_and_connection_limit_reach_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = serve_with(
        monkeypatch, ["--port", "8001", "--threads", "16", "--connection-limit", "400"]
    )
    assert seen["port"] == 8001 and seen["threads"] == 16 and seen["connection_limit"] == 400


@pytest.mark.parametrize("option", ["--threads", "--connection-limit"])
def test_a_limit_below_one_is_refused(option: str) -> None:
    with pytest.raises(SystemExit):
        serve_module.main([option, "0"])


def test_help_describes_the_port(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        serve_module.main(["--help"])
    printed = " ".join(capsys.readouterr().out.split())
    assert "--port PORT port to listen on (default 5000, or SCOREKEEPER_PORT" in printed


def test_the_port_comes_from_scorekeeper_port_unless_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SCOREKEEPER_PORT", raising=False)
    assert serve_with(monkeypatch, [])["port"] == 5000
    monkeypatch.setenv("SCOREKEEPER_PORT", "8123")
    assert serve_with(monkeypatch, [])["port"] == 8123
    assert serve_with(monkeypatch, ["--port", "8001"])["port"] == 8001


def test_waitress_keeps_the_proxy_headers_only_behind_a_trusted_proxy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert serve_with(monkeypatch, [], TRUSTED_PROXIES=1)["clear_untrusted_proxy_headers"] is False
    assert serve_with(monkeypatch, [], TRUSTED_PROXIES=0)["clear_untrusted_proxy_headers"] is True


@pytest.mark.slow  # runs make
@pytest.mark.parametrize("target", ["run", "lan"])
def test_make_passes_port_on(target: str) -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    planned = subprocess.run(
        [make, "-n", "-C", str(ROOT), target, "PORT=8000"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "-m scorekeeper" in planned
    command = next(line for line in planned.splitlines() if "-m scorekeeper " in line + " ")
    assert command.endswith("--port 8000"), command
