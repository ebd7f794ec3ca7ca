"""Lighthouse scores of the table's screens (prints numbers; not a test, not in `make test`).

    npm install --prefix /tmp/lh lighthouse@12        # once, outside the project
    .venv/bin/python benchmarks/lighthouse.py --lighthouse /tmp/lh/node_modules/.bin/lighthouse

Serves the app with waitress (as `make run` does) on a temporary SQLite database holding a
five-player game after 4 rounds and a 12-night demo league, then runs the `lighthouse` npm
package (mobile preset: a Moto G power phone on a throttled 4G connection, simulated) with the
system Chromium (CHROME_PATH, default /usr/bin/chromium) on setup, the table view, round entry,
the scoreboard, the share view, the game summary and the league's pages (standings, a night, a
player, the roster, the league page with the members' link, and the members' link opened by a
new phone), and prints the accessibility, best practices, performance and SEO scores of each,
plus the slowest metrics. Pages that need rights get this phone's session cookie, as the phone
that created the game and organises the league; the members' link is opened without it.

Languages (issue 25): round entry, the standings and a night again in Spanish (the phone's
``lang=es`` cookie, as its language button leaves it): ``--check`` exits 1 unless every
Spanish page scores 100 in accessibility and SEO with its ``<html lang="es">`` (Lighthouse's
html-has-lang, html-lang-valid and, in SEO, the page's own language checks). Without the
``lighthouse`` command the script says so and exits 0 (it is not part of ``make test``);
tests/e2e/test_lighthouse.py runs the same check where Lighthouse is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import select  # noqa: E402
from waitress import create_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.leagues.access import members_token  # noqa: E402
from scorekeeper.leagues.demo import seed_demo  # noqa: E402
from scorekeeper.models import Night, Player  # noqa: E402
from scorekeeper.rules import HouseRules  # noqa: E402
from scorekeeper.web.devices import device_hash  # noqa: E402

NAMES = ["Ann", "Boris", "Cy", "Dorothea", "Eve"]
CATEGORIES = ("accessibility", "best-practices", "performance", "seo")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
           "cumulative-layout-shift", "speed-index")  # fmt: skip


def _game(device: str) -> str:
    game = services.create_game(NAMES, HouseRules(), 0, device)
    for number in range(1, 5):
        points = [((number * 7 + seat * 5) % 40) + 1 for seat in range(len(NAMES))]
        went_out = number % len(NAMES)
        points[went_out] = 0
        entry = services.RoundInput(
            seats=[services.SeatInput(position=i, hand=p) for i, p in enumerate(points)],
            went_out=went_out,
        )
        assert (
            services.record_round(services.load(game), entry, f"lh-{number}", number).saved
            is not None
        )
    db.session.commit()
    return game.public_id


#: The pages checked again in Spanish, and what must score 100 there.
SPANISH = {"round entry": "round entry (es)", "standings": "standings (es)", "night": "night (es)"}
MUST_BE_FULL = ("accessibility", "seo")
LANG_AUDITS = ("html-has-lang", "html-lang-valid")


def run_lighthouse(
    binary: str,
    url: str,
    cookie: str | None,
    out: Path,
    language: str | None = None,
    categories: tuple[str, ...] = CATEGORIES,
    timeout: float | None = None,
    chrome: str | None = None,
) -> dict[str, Any]:
    """Lighthouse's JSON report of ``url`` in ``categories``, asked as the phone whose session
    cookie is ``cookie`` and whose language button left ``language``, with the Chromium at
    ``chrome`` (default: ``_chrome()``). tests/e2e/test_lighthouse.py runs it too."""
    cookies = [f"session={cookie}"] if cookie else []
    if language:
        cookies.append(f"lang={language}")
    headers = [f"--extra-headers={json.dumps({'Cookie': '; '.join(cookies)})}"] if cookies else []
    command = [
        binary,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(categories)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        *headers,
    ]
    env = {**os.environ, "CHROME_PATH": chrome or _chrome()}
    subprocess.run(command, check=True, env=env, timeout=timeout)
    return json.loads(out.read_text())


def _chrome() -> str:
    return os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", default=shutil.which("lighthouse") or "lighthouse")
    parser.add_argument("--port", type=int, default=5077)
    parser.add_argument("--only", action="append", help="a page name (repeat for more)")
    parser.add_argument("--keep", help="a folder to keep each page's JSON report in")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless every Spanish page scores 100 in accessibility and SEO",
    )
    args = parser.parse_args()
    if not _installed(args.lighthouse):
        print(
            f"Lighthouse is not installed ({args.lighthouse!r} not found): nothing measured. "
            "Install it once, outside the project: npm install --prefix /tmp/lh lighthouse@12, "
            "then pass --lighthouse /tmp/lh/node_modules/.bin/lighthouse"
        )
        return
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{folder}/lighthouse.sqlite",
                "SECRET_KEY": "lighthouse",
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        with client.session_transaction() as session:
            session["device"] = "lighthouse-phone"
        cookie = client.get_cookie("session")
        assert cookie is not None
        device = device_hash("lighthouse-phone")
        with app.app_context():
            upgrade()
            public_id = _game(device)
            league = seed_demo(
                nights=12, tables=2, players=5, start=date(2025, 9, 4), device=device
            )
            db.session.commit()
            code = league.league.code
            night = db.session.scalars(
                select(Night.id).where(Night.league_id == league.league.id).order_by(Night.id)
            ).first()
            player = db.session.scalars(
                select(Player.id).where(Player.league_id == league.league.id).order_by(Player.id)
            ).first()
            members = members_token(league.league)

        server = create_server(app, host="127.0.0.1", port=args.port, threads=4)
        threading.Thread(target=server.run, daemon=True).start()
        base = f"http://127.0.0.1:{args.port}"
        pages = {
            "setup": "/games/new",
            "table view": f"/g/{public_id}",
            "round entry": f"/g/{public_id}/round",
            "scoreboard": f"/g/{public_id}/scoreboard",
            "share view": f"/g/{public_id}/watch",
            "summary": f"/g/{public_id}/summary",
            "standings": f"/leagues/{code}",
            "night": f"/leagues/{code}/nights/{night}",
            "player": f"/leagues/{code}/players/{player}",
            "roster": f"/leagues/{code}/players",
            "league": f"/leagues/{code}/manage",
            "members": f"/leagues/{code}/members/{members}",
        }
        pages.update({spanish: pages[name] for name, spanish in SPANISH.items()})
        without_cookie = {"members"}  # a new phone opening the members' link
        rows = []
        problems: list[str] = []
        version = ""
        try:
            for name, path in pages.items():
                if args.only and name not in args.only:
                    continue
                out = Path(args.keep or folder) / f"{name.replace(' ', '-')}.json"
                session = None if name in without_cookie else cookie.value
                language = "es" if name in SPANISH.values() else None
                report = run_lighthouse(args.lighthouse, base + path, session, out, language)
                if language:
                    problems += _spanish_problems(name, report)
                categories = report["categories"]  # type: ignore[index]
                scores = [round(categories[c]["score"] * 100) for c in CATEGORIES]  # type: ignore[index]
                audits = report["audits"]  # type: ignore[index]
                failing = [
                    key
                    for key, audit in audits.items()  # type: ignore[union-attr]
                    if audit.get("score") is not None
                    and audit["score"] < 1
                    and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
                    and key not in METRICS
                ]
                metrics = ", ".join(
                    f"{key.replace('-', ' ')} {audits[key]['displayValue']}"  # type: ignore[index]
                    for key in METRICS
                )
                rows.append((name, *scores, metrics, failing))
                version = f"{report['lighthouseVersion']}, {report['userAgent']}"
        finally:
            server.close()

    print(f"Lighthouse {version} (mobile preset)")
    print(f"{'page':<18} {'a11y':>5} {'best':>5} {'perf':>5} {'seo':>5}")
    for name, a11y, best, perf, seo, metrics, failing in rows:
        print(f"{name:<18} {a11y:>5} {best:>5} {perf:>5} {seo:>5}   {metrics}")
        if failing:
            print(f"{'':<18} not full marks: {', '.join(failing)}")
    if problems:
        print("Spanish pages below full marks:\n  " + "\n  ".join(problems))
        if args.check:
            sys.exit(1)


def _installed(binary: str) -> bool:
    return bool(shutil.which(binary)) or Path(binary).is_file()


def _spanish_problems(name: str, report: dict[str, object]) -> list[str]:
    """What keeps a Spanish page from 100 in accessibility and SEO, or its lang from "es"."""
    categories = report["categories"]  # type: ignore[index]
    audits = report["audits"]  # type: ignore[index]
    found = [
        f"{name}: {category} {round(categories[category]['score'] * 100)}"  # type: ignore[index]
        for category in MUST_BE_FULL
        if categories[category]["score"] != 1  # type: ignore[index]
    ]
    found += [
        f"{name}: {key} fails"
        for key in LANG_AUDITS
        if audits.get(key, {}).get("score") != 1  # type: ignore[union-attr]
    ]
    return found


if __name__ == "__main__":
    main()
