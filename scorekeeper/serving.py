"""How a server process runs the app: gunicorn reads this module as its configuration
(``gunicorn -c python:scorekeeper.serving ... "scorekeeper:create_app()"``, as in
deploy/scorekeeper.service), and ``python -m scorekeeper`` (waitress) calls the same.

Only the hook and two settings are here: the worker and thread counts stay on the command
line, where the deployment chooses them for its machine."""

from __future__ import annotations

import gc
from typing import Any

# gunicorn 25.1+ opens a control socket (for ``gunicornc``) in $XDG_RUNTIME_DIR or
# $HOME/.gunicorn/; under systemd's ProtectSystem=strict the scorekeeper user's home
# (/opt/scorekeeper) is read-only, and every start logged "Control server error". Nothing here
# uses it: switched off (older gunicorns ignore the name).
control_socket_disable = True

#: Connections one worker holds at once (gunicorn's ``worker_connections``; its default is
#: 1000). Caddy keeps a few connections open to gunicorn, each carrying many phones, and a
#: gthread worker keeps every connection it accepted: without a cap one worker took 22 of the
#: realistic evening's 32 connections, used a whole core (one Python process runs one thread at
#: a time) while the other used a quarter, and the evening went over 100 ms at p99 from 1,250
#: tables on. With 16 each, the two workers share the connections and the load: 1,250 tables
#: at p99 under 100 ms where 1,000 passed without the cap (docs/benchmarks.md, "A real
#: evening"). A connection beyond the caps waits to be accepted; it is not refused.
worker_connections = 16


def keep_for_good() -> None:
    """What the process has built by the time it serves (its modules, the app, its routes, its
    catalogs: some 120,000 objects) lasts as long as the process, so it is moved out of the
    garbage collector's reach (``gc.freeze``). Python's full collection holds every thread of
    the process while it walks every object it tracks; after this it walks only what requests
    made since (the values kept per game version, mostly).

    Measured (docs/benchmarks.md, "Capacity", fifth sitting): with the load test at 200 tables
    a worker's full collection held it 67-90 ms, about 7 times a worker in 26 s, and every
    request in flight waited; in process, after 60 games, a full collection took 62 ms, and
    14-23 ms with this. With it the load test keeps saves under 100 ms at p99 at more tables."""
    gc.collect()
    gc.freeze()


def post_worker_init(worker: Any) -> None:
    """gunicorn's hook, in each worker once it has built the app."""
    keep_for_good()
