"""The wheel, built from a fresh clone, ships templates/, static/, migrations/ and the compiled
translation catalogs, and serves pages in every language it offers when installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds a wheel and installs it in a fresh venv

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
# The phone's language is served: the page is written in it, and says so.
spanish = app.test_client().get("/helper", headers={"Accept-Language": "es"})
assert '<html lang="es"' in spanish.get_data(as_text=True), "not declared Spanish"
assert "reparta 15" in spanish.get_data(as_text=True), "not written in Spanish"
print("ok")
"""


def clean_clone(target: Path) -> Path:
    """The files a fresh clone has (tracked, or new and not ignored): no compiled catalog,
    nothing a `make` left behind."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout: the wheel is built from a clean copy of it")
    clone = clean_clone(tmp_path_factory.mktemp("clone"))
    assert not list(clone.rglob("*.mo"))
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
            str(clone),
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


def test_wheel_from_a_clean_clone_holds_every_compiled_catalog(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    languages = sorted(p.parent.parent.name for p in ROOT.glob("scorekeeper/translations/*/*/*.po"))
    assert languages == ["es", "fr"]
    for language in languages:
        assert f"scorekeeper/translations/{language}/LC_MESSAGES/messages.mo" in names


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


def test_a_language_without_its_compiled_catalog_is_not_offered(tmp_path: Path) -> None:
    """A .po alone (a checkout where `make translations` was not run) is not served: the page
    would say lang="fr" and be written in English."""
    from scorekeeper.web.i18n import served

    for language, files in {"es": ("messages.po", "messages.mo"), "fr": ("messages.po",)}.items():
        folder = tmp_path / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        for name in files:
            (folder / name).write_bytes(b"")
    assert served(tmp_path) == ["en", "es"]
