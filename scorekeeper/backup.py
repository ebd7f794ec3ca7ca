"""Backups a club can trust: ``flask backup PATH`` and ``flask restore PATH``.

A live database is never copied as a file (a copy taken while a round is written can be torn,
and SQLite's WAL file holds the newest rounds). SQLite is copied with its online backup API
(``sqlite3.Connection.backup``): the copy is one consistent moment even while rounds are
saved. PostgreSQL is dumped with ``pg_dump`` (one snapshot, in its own transaction) in the
custom format and restored with ``pg_restore``.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url

SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_HEADER = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that could not be made; the message says why in plain words.

    Everything here is said to the operator's terminal (``flask backup``, ``flask restore``),
    never to a phone: it stays in English (``# i18n: terminal``)."""


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError(
            "This database lives in memory only: there is nothing to back up."
        )  # i18n: terminal
    return Path(url.database)


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """A libpq connection string for the PostgreSQL tools, the password in the environment
    (never on a command line other users can read)."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: it comes with the PostgreSQL client "  # i18n: terminal
            "(apt-get install postgresql-client, the same major version as the server or newer)."
        )
    return found


def dated_name(folder: Path, now: datetime | None = None) -> Path:
    """Where a backup goes in ``folder``: ``scorekeeper-2025-03-06-043000.backup``, or with a
    letter after the time when that second already has one (names sort in time order)."""
    stamp = f"scorekeeper-{(now or datetime.now()):%Y-%m-%d-%H%M%S}"  # i18n: file name
    for letter in ("", *"bcdefghijklmnopqrstuvwxyz"):
        path = folder / f"{stamp}{letter}.backup"  # i18n: file name
        if not path.exists():
            return path
    return folder / f"{stamp}z.backup"  # i18n: file name (backup() says it exists)


def backup(database_url: str, target: Path) -> str:
    """Write a consistent backup of the database at ``database_url`` to ``target`` (which must
    not exist yet). Returns what was written, in words. The file appears whole or not at all:
    it is written beside ``target`` and renamed when complete. A missing folder is made; what
    is made is for the owner only (folder 0700, file 0600): a backup holds every game."""
    url = make_url(database_url)
    target = Path(target)
    if target.exists():
        raise BackupError(
            f"{target} already exists: choose a new name (nothing was written)."
        )  # i18n: terminal
    if not target.parent.is_dir():
        try:
            target.parent.mkdir(mode=0o700, parents=True)
        except OSError as error:
            raise BackupError(
                f"The folder {target.parent} could not be made: {error.strerror} "  # i18n: terminal
                "(nothing was written)."
            ) from error
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        if url.get_backend_name() == "sqlite":
            _backup_sqlite(_sqlite_path(url), partial)
            kind = "SQLite backup"  # i18n: terminal
        elif url.get_backend_name() == "postgresql":
            connection, env = _libpq(url)
            command = [_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges"]
            _run([*command, f"--file={partial}", connection], env, "pg_dump")
            kind = "PostgreSQL dump (pg_dump, custom format)"  # i18n: terminal
        else:
            raise BackupError(
                f"Backups of {url.get_backend_name()} databases are not supported."
            )  # i18n: terminal
        partial.chmod(0o600)
        partial.rename(target)
    finally:
        partial.unlink(missing_ok=True)
    size = target.stat().st_size
    return f"{kind} written to {target} ({size:,} bytes)."  # i18n: terminal


def keep_newest(folder: Path, keep: int) -> str:
    """Remove all but the ``keep`` newest backups named by :func:`dated_name` in ``folder``
    (never another file); says what was kept and removed."""
    backups = sorted(folder.glob("scorekeeper-*.backup"), reverse=True)
    removed = backups[keep:]
    for old in removed:
        old.unlink()
    if removed:
        names = ", ".join(old.name for old in removed)
        return (
            f"Kept the {keep} newest backups in {folder}; "  # i18n: terminal
            f"removed {len(removed)} older: {names}."
        )
    return (
        f"{len(backups)} backups in {folder}, none removed "  # i18n: terminal
        f"(the {keep} newest are kept)."
    )


def _backup_sqlite(source: Path, partial: Path) -> None:
    if not source.exists():
        raise BackupError(f"There is no database at {source}.")  # i18n: terminal
    reading = sqlite3.connect(source, timeout=30)
    writing = sqlite3.connect(partial)
    try:
        # All pages in one step, under one read transaction: the copy is one moment of the
        # database. In WAL mode (the app's) rounds go on being saved meanwhile.
        reading.backup(writing)
        writing.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        checked = writing.execute("PRAGMA integrity_check").fetchone()[0]
        if checked != "ok":
            raise BackupError(f"The copy failed its integrity check: {checked}")  # i18n: terminal
    finally:
        writing.close()
        reading.close()


#: Tables every scorekeeper database has, whatever its schema version: a backup without them is
#: some other database.
OWN_TABLES = ("alembic_version", "game", "round", "score")

#: The copy of the database a restore replaced: beside it, named after it and dated, kept until
#: the next restore that succeeds.
KEPT = "{name}.replaced-{moment}"  # i18n: a file name
KEPT_SAID = " The database it replaced is kept as {kept} until the next restore."  # i18n: terminal


@dataclass(frozen=True)
class Schema:
    """The schema versions (Alembic revisions) this version of scorekeeper knows, and its newest."""

    head: str
    known: frozenset[str]


def restore(database_url: str, source: Path, schema: Schema) -> str:
    """Put the backup ``source`` in place of the database at ``database_url`` (what it holds
    is replaced). Stop the server first: its processes keep pages per game version.

    The backup is checked first (whole, a scorekeeper database, a schema version this version
    knows); a backup that fails a check changes nothing. SQLite: the database replaced is kept
    beside it (``KEPT``) until the next restore that succeeds."""
    url = make_url(database_url)
    source = Path(source)
    if not source.is_file():
        raise BackupError(
            f"There is no backup at {source} (nothing was changed)."
        )  # i18n: terminal
    with source.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if url.get_backend_name() == "sqlite":
        if header != SQLITE_HEADER:
            raise BackupError(
                f"{source} is not an SQLite backup (nothing was changed)."
            )  # i18n: terminal
        revision = _check_sqlite_backup(source)
        later = _schema_said(source, revision, schema)
        target = _sqlite_path(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        kept = _keep_replaced(target)
        reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)  # i18n: SQLite URI
        writing = sqlite3.connect(target, timeout=30)
        try:
            # The backup API writes into the database in place, under its write lock: a
            # reader sees the old database or the restored one, never a mixture.
            reading.backup(writing)
        except sqlite3.Error as error:
            raise BackupError(
                f"The restore failed ({error}): nothing was changed."  # i18n: terminal
            ) from error
        finally:
            writing.close()
            reading.close()
        said = f"{target} restored from {source}."  # i18n: terminal
        if kept is not None:
            _forget_older_kept(target, kept)
            said += KEPT_SAID.format(kept=kept)
        return said + later
    if url.get_backend_name() == "postgresql":
        if not header.startswith(PG_DUMP_HEADER):
            raise BackupError(
                f"{source} is not a pg_dump backup (nothing was changed)."
            )  # i18n: terminal
        connection, env = _libpq(url)
        later = _schema_said(source, _check_pg_dump(source, env), schema)
        # The database about to be replaced, dumped beside the backup restored.
        kept = _dated(source.parent, f"{url.database}", ".backup")
        try:
            backup(database_url, kept)
        except BackupError as error:
            raise BackupError(
                f"The database could not be copied before the restore ({error}). "  # i18n: terminal
                "Nothing was changed."
            ) from error
        command = [_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges"]
        # One transaction: a restore that fails part way leaves the database as it was.
        _run(
            [*command, "--single-transaction", f"--dbname={connection}", str(source)],
            env,
            "pg_restore",
            " Nothing was changed.",  # i18n: terminal
        )
        for older in source.parent.glob(KEPT.format(name=f"{url.database}", moment="*")):
            if older != kept:
                older.unlink(missing_ok=True)
        said = f"{url.database} restored from {source}."  # i18n: terminal
        return said + KEPT_SAID.format(kept=kept) + later
    raise BackupError(
        f"Restoring {url.get_backend_name()} databases is not supported."
    )  # i18n: terminal


def _damaged(source: Path, why: object) -> BackupError:
    """The plain sentence first; then, for whoever looks further, the first thing the check
    found (SQLite's integrity check lists pages, pg_restore says where it stopped)."""
    lines = [line.strip() for line in str(why).splitlines()]
    detail = next((line for line in lines if line and not line.startswith("***")), "")
    return BackupError(
        f"{source} is damaged: it cannot be restored. Nothing was changed; "
        f"try an older backup. ({detail})"
    )  # i18n: terminal


def _not_ours(source: Path) -> BackupError:
    return BackupError(
        f"{source} is not a scorekeeper backup (it has no games, rounds or schema version). "
        "Nothing was changed."
    )  # i18n: terminal


def _check_sqlite_backup(source: Path) -> str:
    """The schema version of the SQLite backup ``source``, once it is known to be whole (SQLite's
    integrity check) and a scorekeeper database."""
    try:
        reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)  # i18n: SQLite URI
        try:
            problems = [row[0] for row in reading.execute("PRAGMA integrity_check(3)")]
            if problems != ["ok"]:
                raise _damaged(source, "; ".join(problems))
            tables = {
                row[0]
                for row in reading.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not set(OWN_TABLES) <= tables:
                raise _not_ours(source)
            revisions = [
                row[0] for row in reading.execute("SELECT version_num FROM alembic_version")
            ]
        finally:
            reading.close()
    except sqlite3.Error as error:  # a truncated file, pages that are not SQLite's
        raise _damaged(source, error) from error
    if len(revisions) != 1:
        raise _not_ours(source)
    return str(revisions[0])


def _check_pg_dump(source: Path, env: dict[str, str]) -> str:
    """The schema version of the pg_dump backup ``source``: its table of contents must read and
    list a scorekeeper database, and its schema version must read."""
    tool = _tool("pg_restore")
    listed = subprocess.run([tool, "--list", str(source)], env=env, capture_output=True, text=True)
    if listed.returncode != 0:
        raise _damaged(source, listed.stderr.strip() or listed.returncode)
    tables = set(re.findall(r"\bTABLE \S+ (\w+) ", listed.stdout))  # i18n: a pattern
    if not set(OWN_TABLES) <= tables:
        raise _not_ours(source)
    data = subprocess.run(
        [tool, "--data-only", "--table=alembic_version", "--file=-", str(source)],
        env=env,
        capture_output=True,
        text=True,
    )
    if data.returncode != 0:
        raise _damaged(source, data.stderr.strip() or data.returncode)
    rows = re.search(r"^COPY \S*alembic_version .*?\n(.*?)^\\\.$", data.stdout, re.M | re.S)
    revisions = rows.group(1).split() if rows else []
    if len(revisions) != 1:
        raise _not_ours(source)
    return revisions[0]


def _schema_said(source: Path, revision: str, schema: Schema) -> str:
    """Refuses a backup from a newer version of scorekeeper; for one from an older version,
    what to do after the restore (its schema is brought up to date by the migrations)."""
    if revision not in schema.known:
        raise BackupError(
            f"{source} was made by another version of scorekeeper (schema {revision}, "
            f"this version knows up to {schema.head}): update this app first. Nothing was changed."
        )  # i18n: terminal
    if revision == schema.head:
        return ""
    return (
        " It was made by an older version: run `flask --app scorekeeper db upgrade` before "
        "starting the server."
    )  # i18n: terminal


def _keep_replaced(target: Path) -> Path | None:
    """A copy of the database about to be replaced, beside it, dated (None: there is none)."""
    if not target.exists() or target.stat().st_size == 0:
        return None
    kept = _dated(target.parent, target.name)
    try:
        _backup_sqlite(target, kept)
    except (BackupError, sqlite3.Error):
        # A database too damaged to be read page by page: its files are kept as they are.
        kept.unlink(missing_ok=True)
        shutil.copy2(target, kept)
        wal = target.with_name(target.name + "-wal")  # i18n: a file name
        if wal.exists():
            shutil.copy2(wal, kept.with_name(kept.name + "-wal"))  # i18n: a file name
    kept.chmod(target.stat().st_mode & 0o777)
    return kept


def _dated(folder: Path, name: str, suffix: str = "") -> Path:
    """A new file name in ``folder`` for the database ``name`` replaced now (``KEPT``)."""
    moment = datetime.now().strftime("%Y-%m-%d-%H%M%S")  # i18n: a file name
    kept = folder / (KEPT.format(name=name, moment=moment) + suffix)
    number = 1
    while kept.exists():  # two restores in one second
        number += 1
        kept = folder / (KEPT.format(name=name, moment=f"{moment}-{number}") + suffix)
    return kept


def _forget_older_kept(target: Path, newest: Path) -> None:
    """The copies earlier restores kept go once a restore has succeeded."""
    for older in target.parent.glob(KEPT.format(name=target.name, moment="*")):
        if older.name != newest.name and not older.name.endswith("-wal"):
            older.unlink(missing_ok=True)
            older.with_name(older.name + "-wal").unlink(missing_ok=True)  # i18n: a file name


def _run(command: list[str], env: dict[str, str], name: str, after: str = "") -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{name} failed: {done.stderr.strip() or done.returncode}.{after}")
