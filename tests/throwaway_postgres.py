"""A PostgreSQL server of its own, for a test or a benchmark that needs one: started in a
temporary folder as the ``postgres`` user (so it needs the server binaries and root, as
.ci/run has), on a private socket and a free port, stopped and removed afterwards."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


class PostgresUnavailable(Exception):
    """This machine cannot start one; the message says what is missing."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def throwaway_postgres(database: str, options: str = "") -> Iterator[str]:
    """The SQLAlchemy URL of ``database`` on a new server; ``options`` go to the server
    (``-c fsync=off`` for tests)."""
    binaries = next(
        (p for p in sorted(Path("/usr/lib/postgresql").glob("*/bin")) if (p / "initdb").exists()),
        None,
    )
    if binaries is None or shutil.which("runuser") is None or os.geteuid() != 0:
        raise PostgresUnavailable(
            "needs PostgreSQL: set TEST_DATABASE_URL=postgresql+psycopg://..., or install the "
            "PostgreSQL server (apt-get install postgresql-15) and run as root"
        )
    folder = Path(tempfile.mkdtemp(prefix=f"{database}-pg-", dir="/tmp"))
    shutil.chown(folder, "postgres")
    port = str(_free_port())

    def as_postgres(*command: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *command], check=True, capture_output=True
        )

    try:
        as_postgres(
            str(binaries / "initdb"), "-D", f"{folder}/data", "-U", "postgres", "-A", "trust"
        )
        as_postgres(
            str(binaries / "pg_ctl"), "-D", f"{folder}/data", "-l", f"{folder}/log", "-w", "-o",
            f"-k {folder} -p {port} -c listen_addresses='' {options}", "start",
        )  # fmt: skip
        try:
            as_postgres(str(binaries / "createdb"), "-h", str(folder), "-p", port, database)
            yield f"postgresql+psycopg://postgres@/{database}?host={folder}&port={port}"
        finally:
            as_postgres(str(binaries / "pg_ctl"), "-D", f"{folder}/data", "-m", "fast", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
