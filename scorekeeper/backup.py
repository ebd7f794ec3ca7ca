"""Backups a club can trust: ``flask backup PATH`` and ``flask restore PATH``.

A live database is never copied as a file (a copy taken while a round is written can be torn,
and SQLite's WAL file holds the newest rounds). SQLite is copied with its online backup API
(``sqlite3.Connection.backup``): the copy is one consistent moment even while rounds are
saved. PostgreSQL is dumped with ``pg_dump`` (one snapshot, in its own transaction) in the
custom format and restored with ``pg_restore``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
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


def restore(database_url: str, source: Path) -> str:
    """Put the backup ``source`` in place of the database at ``database_url`` (what it holds
    is replaced). Stop the server first: its processes keep pages per game version."""
    url = make_url(database_url)
    source = Path(source)
    if not source.is_file():
        raise BackupError(f"There is no backup at {source}.")  # i18n: terminal
    with source.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if url.get_backend_name() == "sqlite":
        if header != SQLITE_HEADER:
            raise BackupError(
                f"{source} is not an SQLite backup (nothing was changed)."
            )  # i18n: terminal
        target = _sqlite_path(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)  # i18n: SQLite URI
        writing = sqlite3.connect(target, timeout=30)
        try:
            # The backup API writes into the database in place, under its write lock: a
            # reader sees the old database or the restored one, never a mixture.
            reading.backup(writing)
        finally:
            writing.close()
            reading.close()
        return f"{target} restored from {source}."  # i18n: terminal
    if url.get_backend_name() == "postgresql":
        if not header.startswith(PG_DUMP_HEADER):
            raise BackupError(
                f"{source} is not a pg_dump backup (nothing was changed)."
            )  # i18n: terminal
        connection, env = _libpq(url)
        command = [_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges"]
        _run([*command, "--single-transaction", f"--dbname={connection}", str(source)], env)
        return f"{url.database} restored from {source}."  # i18n: terminal
    raise BackupError(
        f"Restoring {url.get_backend_name()} databases is not supported."
    )  # i18n: terminal


def _run(command: list[str], env: dict[str, str], name: str = "pg_restore") -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{name} failed: {done.stderr.strip() or done.returncode}")
