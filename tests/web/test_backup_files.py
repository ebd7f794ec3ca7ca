"""Where backups go (issue 37, item 5): the documented command works as written on a laptop
(the folder is made) and on the server (deploy/scorekeeper.sh, which deploy.sh installs as
``scorekeeper``, runs flask as the scorekeeper user with the server's settings); backups are the
owner's only (file 0600, folder 0700); the nightly timer keeps the newest 14 and says so."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.extensions import db
from tests.conftest import make_app

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.fixture
def app(migrated_database: str) -> Iterator[Flask]:
    app = make_app(migrated_database)
    previous = os.umask(0o022)  # the usual umask: what is made must not depend on it
    try:
        yield app
    finally:
        os.umask(previous)
        with app.app_context():
            db.engine.dispose()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow  # on PostgreSQL a backup runs pg_dump: a process
def test_a_backup_into_a_folder_that_does_not_exist_makes_it_for_its_owner_only(
    app: Flask, tmp_path: Path
) -> None:
    target = tmp_path / "club" / "backups" / "2025-03-06.backup"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert f"written to {target}" in result.output
    assert mode(target) == 0o600
    assert mode(target.parent) == 0o700


@pytest.mark.slow  # on PostgreSQL a backup runs pg_dump: a process
def test_a_backup_into_a_folder_is_dated_and_keep_keeps_the_newest(
    app: Flask, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [folder / f"scorekeeper-2025-03-0{day}-043000.backup" for day in (4, 5, 6)]
    for path in old:
        path.write_text("an older backup")
    other = folder / "notes.txt"
    other.write_text("not a backup")
    result = app.test_cli_runner().invoke(args=["backup", "--keep", "2", f"{folder}/"])
    assert result.exit_code == 0, result.output
    made = sorted(folder.glob("scorekeeper-*.backup"))
    assert len(made) == 2 and made[0] == old[2] and mode(made[1]) == 0o600
    assert other.exists()
    assert (
        f"Kept the 2 newest backups in {folder}; removed 2 older: {old[1].name}, {old[0].name}."
        in result.output
    )
    result = app.test_cli_runner().invoke(args=["backup", "--keep", "14", str(folder)])
    assert f"3 backups in {folder}, none removed (the 14 newest are kept)." in result.output


def test_keep_goes_with_a_folder(app: Flask, tmp_path: Path) -> None:
    result = app.test_cli_runner().invoke(
        args=["backup", "--keep", "2", str(tmp_path / "one.backup")]
    )
    assert result.exit_code != 0 and "--keep goes with a folder" in result.output
    assert not (tmp_path / "one.backup").exists()


def test_the_nightly_timer_keeps_the_newest_14_and_the_docs_say_so() -> None:
    unit = (DEPLOY / "scorekeeper-backup.service").read_text()
    assert "backup --keep 14 /var/backups/scorekeeper/" in unit
    assert "find " not in unit  # the 14 newest, not what is younger than 14 days
    deploying = (ROOT / "docs" / "deploying.md").read_text()
    assert "keeps the 14 newest" in deploying


@pytest.mark.slow  # runs the script
def test_the_server_command_runs_flask_as_scorekeeper_with_the_servers_settings(
    migrated_database: str, tmp_path: Path
) -> None:
    """deploy/scorekeeper.sh with its two paths put where this test keeps them (as deploy.sh
    installs it with the real ones), ``runuser`` and ``id`` stood in for (the test need not be
    root, and no scorekeeper user is made): it reads the env file and runs the venv's flask."""
    app_dir, bin_dir = tmp_path / "opt", tmp_path / "bin"
    (app_dir / "venv" / "bin").mkdir(parents=True)
    (app_dir / "venv" / "bin" / "flask").symlink_to(Path(sys.executable).with_name("flask"))
    env_file = tmp_path / "scorekeeper.env"
    env_file.write_text(f"DATABASE_URL='{migrated_database}'\nSECRET_KEY=server-secret\n")
    bin_dir.mkdir()
    ran_as = tmp_path / "ran-as"
    (bin_dir / "runuser").write_text(
        f'#!/bin/sh\necho "$2" > {ran_as}\nshift 3\nexec "$@"\n'  # runuser -u USER -- ...
    )
    (bin_dir / "id").write_text("#!/bin/sh\necho 0\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    command = tmp_path / "scorekeeper"
    command.write_text(
        (DEPLOY / "scorekeeper.sh")
        .read_text()
        .replace("ENV_FILE=/etc/scorekeeper/scorekeeper.env", f"ENV_FILE={env_file}")
        .replace("APP_DIR=/opt/scorekeeper", f"APP_DIR={app_dir}")
    )
    command.chmod(0o755)
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "FLASK_APP")
    }
    env.update(PATH=f"{bin_dir}:{env['PATH']}", PYTHONPATH=str(ROOT))
    folder = tmp_path / "backups"
    done = subprocess.run(
        [str(command), "backup", f"{folder}/"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert f" written to {folder}/scorekeeper-" in done.stdout, done.stdout
    assert ran_as.read_text().strip() == "scorekeeper"
    (made,) = folder.glob("scorekeeper-*.backup")
    assert mode(made) == 0o600 and mode(folder) == 0o700
