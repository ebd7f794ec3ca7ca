"""Flask commands: ``seed-demo`` builds a realistic league; ``league-export`` and
``league-import`` move a league's data in and out from the command line; ``organiser-link``
hands a league's organiser role to a new phone (a lost phone, the demo league); ``backup`` and
``restore`` keep the whole database safe (scorekeeper/backup.py); ``purge-deleted`` empties the
trash of games deleted longer ago than it keeps them."""

from __future__ import annotations

import json
import os
import secrets
import time
from datetime import date
from pathlib import Path

import click
from flask import Flask, url_for
from flask.cli import with_appcontext

from scorekeeper.extensions import db


@click.command("seed-demo")
@click.option("--nights", default=260, show_default=True, help="Weekly nights to play.")
@click.option("--tables", default=3, show_default=True, help="Tables each night.")
@click.option("--players", default=6, show_default=True, help="Players at each table (2-8).")
@click.option("--seed", default=1, show_default=True, help="Random seed: same seed, same league.")
@click.option(
    "--start",
    default="2021-01-07",
    show_default=True,
    help="Date of the first night (YYYY-MM-DD).",
)
@click.option("--name", default="Thursday Train Club", show_default=True)
@with_appcontext
def seed_demo_command(
    nights: int, tables: int, players: int, seed: int, start: str, name: str
) -> None:
    """Build a demo league: weekly nights, several tables, full double-12 games."""
    from scorekeeper.leagues.access import organiser_token
    from scorekeeper.leagues.demo import seed_demo

    try:
        first = date.fromisoformat(start)
    except ValueError as error:
        raise click.BadParameter("use YYYY-MM-DD", param_hint="--start") from error
    began = time.perf_counter()
    try:
        demo = seed_demo(nights, tables, players, seed, first, name)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    db.session.commit()
    took = time.perf_counter() - began
    written = demo.written
    click.echo(
        f"Seeded “{demo.league.name}” (league code {demo.league.code}): {written.nights} nights, "
        f"{written.games} games, {written.rounds} rounds, {written.scores} round scores "
        f"in {took:.1f} s."
    )
    click.echo(f"Passphrase: {demo.passphrase}")
    with _url_context():
        click.echo(
            "Organiser link (opens the settings on the phone that follows it): "
            + url_for(
                "leagues.claim_organiser",
                code=demo.league.code,
                token=organiser_token(demo.league),
            )
        )


@click.command("organiser-link")
@click.argument("code")
@with_appcontext
def organiser_link_command(code: str) -> None:
    """Print a link that makes the phone opening it the organiser of league CODE (for a lost
    or replaced phone). The link works for a day."""
    from scorekeeper.leagues.access import organiser_token
    from scorekeeper.leagues.services import load_league

    league = load_league(code)
    if league is None:
        raise click.UsageError(f"No league with the code {code}.")
    with _url_context():
        click.echo(
            url_for("leagues.claim_organiser", code=league.code, token=organiser_token(league))
        )


@click.command("league-export")
@click.argument("code")
@click.argument("target", type=click.Path(dir_okay=False, writable=True, path_type=Path))
@with_appcontext
def export_command(code: str, target: Path) -> None:
    """Write league CODE to TARGET: a .json document or a .zip of CSV files."""
    from scorekeeper.leagues import transfer
    from scorekeeper.leagues.services import load_league

    league = load_league(code)
    if league is None:
        raise click.UsageError(f"No league with the code {code}.")
    if target.suffix == ".zip":
        target.write_bytes(transfer.export_zip(league))
    else:
        target.write_text(json.dumps(transfer.export_document(league), indent=1), "utf-8")
    click.echo(f"Wrote {target}.")


@click.command("league-import")
@click.argument("code")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--month-first", is_flag=True, help="Dates like 03/04/2024 mean March 4.")
@with_appcontext
def import_command(code: str, source: Path, month_first: bool) -> None:
    """Import a CSV file (night, table, player, round, score) or an export (.zip or .json) into
    league CODE. Nothing is written unless every row is valid."""
    from scorekeeper.leagues import transfer
    from scorekeeper.leagues.services import load_league

    league = load_league(code)
    if league is None:
        raise click.UsageError(f"No league with the code {code}.")
    plan = transfer.read_upload(league, source.name, source.read_bytes(), month_first)
    if plan.problems:
        for problem in plan.problems:
            click.echo(f"line {problem.line}: {problem.message}", err=True)
        raise click.ClickException(f"{len(plan.problems)} problems: nothing was imported.")
    written = transfer.apply_import(
        league,
        plan,
        device=league.organiser_device,
        token=f"cli-{secrets.token_urlsafe(16)}",
        filename=source.name,
    )
    db.session.commit()
    click.echo(
        f"Imported {written.nights} new nights, {written.games} games, {written.scores} scores."
    )


@click.command("backup")
@click.argument("target", type=click.Path())  # a str: Path() would drop a final /
@click.option(
    "--keep",
    type=click.IntRange(min=1),
    default=None,
    help="With a folder: keep only the KEEP newest backups in it (the nightly timer keeps 14).",
)
@with_appcontext
def backup_command(target: str, keep: int | None) -> None:
    """Write a consistent backup of the database to TARGET while the app runs: a new file, or
    a folder (an existing one, or a name ending in /) that gets scorekeeper-DATE-TIME.backup.
    A missing folder is made (0700); the backup is readable by its owner only (0600).

    SQLite: its online backup API; PostgreSQL: pg_dump (custom format)."""
    from flask import current_app

    from scorekeeper.backup import BackupError, backup, dated_name, keep_newest

    folder = os.path.isdir(target) or target.endswith(("/", os.sep))
    path = Path(target)
    if keep is not None and not folder:
        raise click.UsageError("--keep goes with a folder (TARGET ending in /).")
    try:
        click.echo(
            backup(
                current_app.config["SQLALCHEMY_DATABASE_URI"],
                dated_name(path) if folder else path,
            )
        )
    except BackupError as error:
        raise click.ClickException(str(error)) from error
    if keep is not None:
        click.echo(keep_newest(path, keep))


@click.command("restore")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
@with_appcontext
def restore_command(source: Path, yes: bool) -> None:
    """Replace the database with the backup SOURCE (made by `flask backup`).

    The backup is checked first (SQLite's integrity check, or pg_restore's reading of it; a
    scorekeeper database; a schema version this version knows): one that fails changes nothing.
    An SQLite database replaced is kept beside it, dated, until the next restore.
    Stop the server first, and start it again afterwards."""
    from alembic.script import ScriptDirectory
    from flask import current_app

    from scorekeeper.backup import BackupError, Schema, restore

    url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    scripts = ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config())
    schema = Schema(
        head=str(scripts.get_current_head()),
        known=frozenset(script.revision for script in scripts.walk_revisions()),
    )
    db.engine.dispose()  # this process holds no connection while the database is replaced
    if not yes:
        click.confirm(
            f"Replace everything in {db.engine.url.render_as_string()} with {source}?",
            abort=True,
        )
    try:
        click.echo(restore(url, source, schema))
    except BackupError as error:
        raise click.ClickException(str(error)) from error
    click.echo("Start the server again (or restart it) so every process reads the restored data.")


@click.command("purge-deleted")
@with_appcontext
def purge_deleted_command() -> None:
    """Delete for good the games that have waited in the trash longer than
    DELETED_KEEP_DAYS (14 by default). Every delete also purges what has expired, so running
    this daily (cron) only matters for a server where nothing is deleted for weeks."""
    from scorekeeper.games import trash

    purged = trash.purge_deleted()
    db.session.commit()
    click.echo(f"Purged {purged} deleted game{'' if purged == 1 else 's'}.")


def _url_context():  # type: ignore[no-untyped-def]
    from flask import current_app

    return current_app.test_request_context("/")


def init_app(app: Flask) -> None:
    for command in (
        seed_demo_command,
        organiser_link_command,
        export_command,
        import_command,
        backup_command,
        restore_command,
        purge_deleted_command,
    ):
        app.cli.add_command(command)
