"""The wheel ships templates/, static/ and migrations/ and serves pages when installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RENDER = """
import sys
import scorekeeper
from scorekeeper import create_app
assert scorekeeper.__file__.startswith(sys.argv[1]), scorekeeper.__file__
app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})
with app.app_context():
    from flask_migrate import upgrade
    upgrade()
response = app.test_client().get("/helper")
assert response.status_code == 200, response.status_code
assert "deal 15 each" in response.get_data(as_text=True)
assert app.test_client().get("/static/css/app.css").status_code == 200
print("ok")
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    return next(out.glob("scorekeeper-*.whl"))


def test_wheel_contains_templates_static_and_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "scorekeeper/templates/base.html",
        "scorekeeper/static/css/app.css",
        "scorekeeper/static/vendor/htmx-2.0.11.min.js",
        "scorekeeper/migrations/env.py",
        "scorekeeper/rules/__init__.py",
    ):
        assert expected in names


def test_installed_wheel_renders_a_page(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    result = subprocess.run(
        [sys.executable, "-c", RENDER, str(target)],
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith("ok")
