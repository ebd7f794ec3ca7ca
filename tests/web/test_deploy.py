"""The deploy/ folder (issue 23) says what the README says and what the app reads: the worker
and thread counts the load test chose, settings the app knows, Caddyfiles Caddy accepts, a
deploy script that parses and runs the migrations on every deploy."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def test_gunicorn_runs_with_the_counts_the_load_test_chose() -> None:
    unit = (DEPLOY / "scorekeeper.service").read_text()
    deploying = (ROOT / "docs" / "deploying.md").read_text()
    assert "--workers 2 --threads 4" in deploying
    assert re.search(r"--workers 2 --threads 4\b", unit)
    # The deployment's hook (scorekeeper.serving), as the load test and the two-process test run.
    assert "--config python:scorekeeper.serving" in unit
    assert "--config python:scorekeeper.serving" in deploying
    assert "StandardOutput=journal" in unit and "EnvironmentFile=/etc/scorekeeper/" in unit


def test_the_example_settings_are_read_by_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = dict(
        line.split("=", 1)
        for line in (DEPLOY / "scorekeeper.env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    settings["SECRET_KEY"] = "x" * 64
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    app = create_app()
    assert app.config["PUBLIC_URL"] == "https://scores.example.org"
    assert app.config["TRUSTED_HOSTS"][0] == "scores.example.org"
    assert app.config["TRUSTED_PROXIES"] == 1 and app.config["HTTPS"] is True
    assert app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql+psycopg://scorekeeper@/")
    assert app.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"


@pytest.mark.slow  # runs bash
def test_the_deploy_script_parses_migrates_restarts_and_checks_health() -> None:
    script = DEPLOY / "deploy.sh"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text()
    assert "db upgrade" in text and "systemctl restart scorekeeper.service" in text
    assert "/healthz" in text


@pytest.mark.slow  # runs caddy
@pytest.mark.parametrize("name", ["Caddyfile", "Caddyfile.lan"])
def test_caddy_accepts_the_caddyfiles(name: str, tmp_path: Path) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        message = "caddy is not installed (apt-get install caddy)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}: required in CI")
        pytest.skip(message)
    env = {**os.environ, "SCOREKEEPER_DOMAIN": "scores.example.org", "HOME": str(tmp_path)}
    env["CLUB_ADDRESS"] = "192.168.1.20"
    env["XDG_DATA_HOME"] = env["XDG_CONFIG_HOME"] = str(tmp_path)
    adapted = subprocess.run(
        [caddy, "adapt", "--adapter", "caddyfile", "--config", str(DEPLOY / name)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert adapted.returncode == 0, adapted.stderr
    assert '"upstreams":[{"dial":"127.0.0.1:8000"}]' in adapted.stdout


@pytest.mark.slow  # runs the script
def test_without_systemd_the_deploy_script_stops_before_changing_anything(
    tmp_path: Path,
) -> None:
    """Every command deploy.sh could change the machine with is stood in for by one that only
    writes down that it was called (and ``id -u`` says root): on a machine without systemd
    (this test's, a container) none is called, and the script says why."""
    if Path("/run/systemd/system").is_dir():
        pytest.skip("this machine runs systemd: the script would go on")
    calls = tmp_path / "calls"
    stand_ins = tmp_path / "bin"
    stand_ins.mkdir()
    for name in (
        "apt-get", "dpkg", "useradd", "install", "runuser", "systemctl", "caddy", "curl",
        "cp", "mv", "chown", "chmod", "mkdir", "rm", "sed", "python3", "mktemp", "journalctl",
        "id",
    ):  # fmt: skip
        tool = stand_ins / name
        tool.write_text(
            f'#!/bin/sh\necho "{name} $*" >> {calls}\n[ "$1" = -u ] && echo 0\nexit 0\n'
        )
        tool.chmod(0o755)
    done = subprocess.run(
        ["bash", str(DEPLOY / "deploy.sh")],
        env={**os.environ, "PATH": f"{stand_ins}:{os.environ['PATH']}"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "deploy.sh needs systemd" in done.stderr and "Nothing was changed" in done.stderr
    assert not calls.exists(), calls.read_text()


@pytest.mark.slow  # runs caddy
def test_one_port_setting_for_gunicorn_caddy_and_the_health_check(tmp_path: Path) -> None:
    unit = (DEPLOY / "scorekeeper.service").read_text()
    assert "--bind 127.0.0.1:${SCOREKEEPER_PORT}" in unit
    # The default comes first: the settings file wins over Environment= in systemd.
    assert unit.index("Environment=SCOREKEEPER_PORT=8000") < unit.index("EnvironmentFile=")
    assert "\nSCOREKEEPER_PORT=8000\n" in (DEPLOY / "scorekeeper.env.example").read_text()
    script = (DEPLOY / "deploy.sh").read_text()
    assert "s/^SCOREKEEPER_PORT=//p" in script
    assert '"http://127.0.0.1:$port/healthz"' in script
    for name in ("Caddyfile", "Caddyfile.lan"):
        assert "reverse_proxy 127.0.0.1:{$SCOREKEEPER_PORT:8000}" in (DEPLOY / name).read_text()
    # deploy.sh writes the port into the Caddyfile it installs, with this sed expression:
    caddyfile = subprocess.run(
        ["sed", "-e", "s/{\\$SCOREKEEPER_PORT:8000}/8123/", str(DEPLOY / "Caddyfile")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "reverse_proxy 127.0.0.1:8123\n" in caddyfile
    assert '-e "s/{\\$SCOREKEEPER_PORT:8000}/$port/"' in script


def _gunicorn_settings(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The settings gunicorn reads with the deployment's ``--config python:scorekeeper.serving``."""
    from gunicorn.app.wsgiapp import WSGIApplication

    command = ["gunicorn", "--config", "python:scorekeeper.serving", "scorekeeper:create_app()"]
    monkeypatch.setattr("sys.argv", command)
    return WSGIApplication().cfg


def test_gunicorns_control_socket_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """gunicorn would open it under $HOME, read-only under the unit's ProtectSystem=strict."""
    settings = _gunicorn_settings(monkeypatch)
    if "control_socket_disable" not in settings.settings:
        pytest.skip("this gunicorn has no control socket (before 25.1)")
    assert settings.control_socket_disable is True


def test_gunicorn_workers_share_the_proxys_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    """gunicorn reads the cap on the connections one worker keeps from ``scorekeeper.serving``
    (without it one gthread worker kept most of Caddy's connections and ran out of its core
    while the other idled: docs/benchmarks.md, "A real evening")."""
    assert _gunicorn_settings(monkeypatch).worker_connections == 16
