"""A real evening: how many tables one 2-core server carries at p99 < 100 ms (prints numbers).

    python benchmarks/bench_evening.py CHECKOUT [CHECKOUT ...] [--seconds 30] [--warmup 10]
        [--start 250] [--max-tables 6000] [--refine 2] [--postgres] [--redis]
        [--python PATH] [--connections 32] [--join 100] [--workers 2] [--threads 4]

The load generator is wrk (``apt-get install -y wrk``) with benchmarks/evening.lua: per table,
four phones follow the game (a conditional GET of the share view's board every 5 s, so mostly
304) and the table saves a round every 5 minutes (the round form, then the form sent back).
Nothing is scaled: the rates are the real ones, only the evening is cut short (``--seconds``
measured per step, after a warm-up in which every phone gets its first ETag: the phones join
at ``--join`` a second, as a club's do over the start of an evening, not all in the same few
seconds).

For each CHECKOUT (a path, or LABEL=PATH; e.g. the commit before issue 38 and the branch after
it, one after the other in the same sitting), with that checkout's own code on PYTHONPATH:

1. a fresh database (a temporary SQLite file; ``--postgres``: a throw-away PostgreSQL 15 server,
   as in .ci/run) with ``--max-tables`` games of four players, made by the app's own services;
2. gunicorn, 2 workers x 4 threads (``--workers``, ``--threads``), with the deployment's
   configuration (``scorekeeper.serving``) where the checkout has it; ``--redis``: a
   throw-away redis-server holds the rate-limit counts (RATELIMIT_STORAGE_URI);
3. steps of tables: doubling from ``--start`` until a step fails (p99 of all requests >= 100
   ms, an error or unexpected status, or under 95% of the planned requests answered), then
   ``--refine`` halvings between the last step that passed and the first that failed;
4. the cost of one following phone's 304 at full speed (wrk, 16 connections, 10 s): server CPU
   per request.

Before the checkouts, a bare Flask "hello" served the same way (gunicorn 2x4) and asked the same
way (wrk, 16 connections, 10 s) gives the yardstick. Every step prints its p50/p99 (ms),
requests/s, the server's CPU (gunicorn's processes, user + system) and wrk's own CPU, apart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LUA = HERE / "evening.lua"
SECRET = "bench-evening"
PG_BIN = Path("/usr/lib/postgresql/15/bin")
P99_LIMIT_MS = 100.0
OTHERS: list[float] = []  # cores used by other processes during each wrk run (a busy machine)

# Run with the checkout's code (python -c, cwd and PYTHONPATH the checkout): a fresh schema and
# the games, each with the session cookie of the phone that created it (its device token).
SETUP = r"""
import hashlib, secrets, sys
from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.database import fresh_schema
try:
    from scorekeeper.games.setup import create_game
except ImportError:
    from scorekeeper.games.services import create_game
try:
    from scorekeeper.rules.house import HouseRules
except ImportError:
    from scorekeeper.rules.house_rules import HouseRules
url, secret, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
app = create_app({"DATABASE_URL": url, "SECRET_KEY": secret})
fresh_schema(app)
serializer = app.session_interface.get_signing_serializer(app)
with app.app_context(), open(out, "w") as lines:
    for n in range(count):
        token = secrets.token_urlsafe(24)
        device = hashlib.sha256(token.encode()).hexdigest()
        names = [f"Player {n} {seat}" for seat in "ABCD"]
        game = create_game(names, HouseRules(), 0, device)
        cookie = serializer.dumps({"device": token, "_permanent": True})
        lines.write(f"{game.public_id}\tsession={cookie}\n")
        if n % 200 == 199:
            db.session.commit()
    db.session.commit()
    db.engine.dispose()
"""

HELLO = """from flask import Flask
app = Flask("hello")
app.add_url_rule("/", "hello", lambda: "hello")
"""


@dataclass
class Step:
    tables: int
    result: dict
    seconds: float
    server_cpu: float  # cores, on average over the measured time
    wrk_cpu: float

    @property
    def answered(self) -> int:
        return int(self.result["all"]["count"])

    def planned(self, args: argparse.Namespace) -> float:
        return self.tables * (args.phones / args.poll + 2 / args.save) * self.seconds

    def failures(self, args: argparse.Namespace) -> list[str]:
        why = []
        if self.result["all"]["p99"] >= P99_LIMIT_MS:
            why.append(f"p99 {self.result['all']['p99']:.0f} ms")
        bad = {k: n for k, n in self.result["statuses"].items() if not _expected(k)}
        if self.result["silent"]:
            why.append(f"{self.result['silent']} wrk threads had no answer after the measured time")
        if bad:
            why.append(f"unexpected answers {bad}")
        if self.result["errors"]:
            why.append(f"wrk's socket errors {self.result['errors']}")
        if self.answered < 0.95 * self.planned(args):
            why.append(f"only {self.answered} of {self.planned(args):.0f} requests answered")
        return why


def _expected(key: str) -> bool:
    return key in {"poll 200", "poll 304", "form 200", "form 302", "save 302"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its children (gunicorn's workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _wait_for_port(port: int, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start") from None
            time.sleep(0.1)  # another process's port: nothing to wait on but polling


@contextmanager
def _process(command: list[str], port: int, what: str, **options):
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, **options
    )
    try:
        _wait_for_port(port, process, what)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _gunicorn(python: str, folder: Path, app: str, env: dict[str, str], port: int, shape=(2, 4)):
    serving = (folder / "scorekeeper" / "serving.py").is_file()
    config = ["--config", "python:scorekeeper.serving"] if serving else []
    command = [
        python, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", *config,
        "--workers", str(shape[0]), "--threads", str(shape[1]), app,
    ]  # fmt: skip
    full_env = {**os.environ, **env, "PYTHONPATH": str(folder)}
    return _process(command, port, "gunicorn", cwd=folder, env=full_env)


def _run_wrk(
    args,
    port: int,
    path: str,
    seconds: float,
    env: dict[str, str],
    lua: Path,
    server_pid: int,
    window: tuple[float, float] | None,
) -> tuple:
    """Runs wrk: the server's CPU, wrk's own and the machine's (seconds) over ``window``
    (start, length) of the run, or over all of it; and wrk's output."""
    threads = env.get("EVENING_THREADS", "2")
    command = [
        "wrk", f"-t{threads}", f"-c{threads}", f"-d{seconds:.0f}s", "--timeout", "10s",
        "--latency", "-s", str(lua), f"http://127.0.0.1:{port}{path}",
    ]  # fmt: skip
    # Without a window, the server's and the machine's CPU from here; wrk's from its rusage.
    first = None if window else (_cpu_seconds(server_pid), 0.0, _machine_busy())
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **env}
        )
        if window:  # sampled from /proc while wrk runs
            time.sleep(window[0])
            first = (_cpu_seconds(server_pid), _cpu_seconds(process.pid), _machine_busy())
            time.sleep(window[1])
            last = (_cpu_seconds(server_pid), _cpu_seconds(process.pid), _machine_busy())
        _pid, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if not window:
            last = (_cpu_seconds(server_pid), usage.ru_utime + usage.ru_stime, _machine_busy())
        out.seek(0)
        text = out.read()
    if process.returncode:
        raise SystemExit(f"wrk failed:\n{text}")
    server, wrk, busy = (b - a for a, b in zip(first, last, strict=True))
    return server, wrk, busy, text


def _machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every core, every process)."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _measured(args, server, port, path, seconds, env, lua, window=None) -> tuple:
    """Server CPU and wrk CPU (seconds) over ``window`` of wrk's run (start, length; by default
    all of it); the cores other processes used meanwhile go to OTHERS."""
    server_cpu, wrk_cpu, busy, text = _run_wrk(
        args, port, path, seconds, env, lua, server.pid, window
    )
    OTHERS.append((busy - server_cpu - wrk_cpu) / (window[1] if window else seconds))
    return server_cpu, wrk_cpu, text


def _threads(args, tables: int) -> int:
    """wrk threads (one connection each): at least 8 phones each, so that none sits idle
    longer than gunicorn keeps a connection open (2 s)."""
    return max(1, min(args.connections, tables * args.phones // 8))


def _warmup(args, tables: int) -> float:
    """The step's unmeasured start: the phones join at ``--join`` a second (each one's first
    poll is a full answer, some 4 ms of a worker's time), then poll once more before the
    measured time. All 8,000 phones of 2,000 tables joining in 10 s asked 800 full answers a
    second, more than the two workers make: the queue it left spilled into the measured time
    or not, from run to run (the same step passed at p99 58 ms and failed at 1.8 s)."""
    return max(args.warmup, tables * args.phones / args.join + args.poll)


def _step(args, server, port: int, games: Path, tables: int) -> Step:
    warmup = _warmup(args, tables)
    with tempfile.TemporaryDirectory() as out:
        env = {
            "EVENING_GAMES": str(games), "EVENING_TABLES": str(tables), "EVENING_OUT": out,
            "EVENING_THREADS": str(_threads(args, tables)), "EVENING_POLL": str(args.poll),
            "EVENING_SAVE": str(args.save), "EVENING_PHONES": str(args.phones),
            "EVENING_WARMUP": f"{warmup:.1f}", "EVENING_SECONDS": str(args.seconds),
        }  # fmt: skip
        # A few seconds more than the warm-up and the measured time: each thread writes what
        # it measured with its first answer after them.
        total = warmup + args.seconds + 5
        server_cpu, wrk_cpu, text = _measured(
            args, server, port, "/", total, env, LUA, window=(warmup, args.seconds)
        )
        threads = [json.loads(f.read_text()) for f in sorted(Path(out).glob("thread-*.json"))]
    result = _merged(threads)
    # A thread whose one connection waited from before the end until wrk stopped.
    result["silent"] = int(env["EVENING_THREADS"]) - len(threads)
    errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text
    )
    names = ("connect", "read", "write", "timeout (10 s)")
    counts = zip(names, errors.groups() if errors else (), strict=False)
    result["errors"] = {name: int(n) for name, n in counts if int(n)}
    # CPU as the cores used on average over the measured time.
    return Step(tables, result, args.seconds, server_cpu / args.seconds, wrk_cpu / args.seconds)


def _merged(threads: list[dict]) -> dict:
    result: dict = {"statuses": {}, "late": sum(t["late"] for t in threads)}
    everything: list[float] = []
    for kind in ("poll", "form", "save"):
        times = sorted(ms for t in threads for ms in t.get(kind, []))
        everything += times
        result[kind] = _summary(times)
    result["all"] = _summary(sorted(everything))
    for thread in threads:
        for key, n in thread["statuses"].items():
            result["statuses"][key] = result["statuses"].get(key, 0) + n
    return result


def _summary(ordered: list[float]) -> dict:
    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0

    return {"count": len(ordered), "p50": at(0.5), "p99": at(0.99)}


def _print_step(step: Step, args) -> None:
    r, s = step.result, step.seconds
    why = step.failures(args)
    print(
        f"  {step.tables:6d} tables {step.tables * args.phones:6d} phones: "
        f"{step.answered / s:7.1f} req/s, p50 {r['all']['p50']:6.1f} ms, p99 "
        f"{r['all']['p99']:7.1f} ms (polls {r['poll']['p99']:.1f}, saves {r['save']['p99']:.1f});"
        f" server CPU {step.server_cpu:.2f} cores, wrk CPU {step.wrk_cpu:.2f} cores; "
        + f"other processes {OTHERS[-1]:.2f} cores; "
        + ("passes" if not why else "fails: " + ", ".join(why)),
        flush=True,
    )
    statuses = ", ".join(f"{k}: {n}" for k, n in sorted(r["statuses"].items()))
    print(f"         answers: {statuses}", flush=True)


def _search(args, server, port: int, games: Path) -> tuple[int, list[Step]]:
    steps: list[Step] = []
    good, bad = 0, None
    tables = args.start
    while tables <= args.max_tables:
        step = _step(args, server, port, games, tables)
        steps.append(step)
        _print_step(step, args)
        if step.failures(args):
            bad = tables
            break
        good, tables = tables, tables * 2
    for _ in range(args.refine if bad else 0):
        grain = 50 if bad - good >= 200 else 1  # round figures, unless the steps are close
        tables = (good + bad) // 2 // grain * grain
        if tables <= good or tables >= bad:
            break
        step = _step(args, server, port, games, tables)
        steps.append(step)
        _print_step(step, args)
        good, bad = (good, tables) if step.failures(args) else (tables, bad)
    return good, steps


def _poll_cost(args, server, port: int, games: Path) -> tuple[float, float, float]:
    """One following phone's 304 asked at full speed: its server CPU (ms), req/s, p99 (ms)."""
    game = games.read_text().split("\t", 1)[0]
    path = f"/g/{game}/watch/board"
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as answer:
        etag = answer.headers["ETag"]
    return _full_speed(args, server, port, path, {"If-None-Match": etag})


def _full_speed(
    args, server, port: int, path: str, headers: dict[str, str]
) -> tuple[float, float, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as lua:
        for name, value in headers.items():
            # A Lua long string: an ETag's own quotes (W/"...") need no escaping in it.
            lua.write(f'wrk.headers["{name}"] = [==[{value}]==]\n')
        lua.flush()
        env = {"EVENING_THREADS": "16"}
        _measured(args, server, port, path, 3, env, Path(lua.name))  # warm-up
        cpu, _wrk, text = _measured(args, server, port, path, 10, env, Path(lua.name))
    done = next(x for x in text.splitlines() if "requests in" in x)
    count = int(done.split()[0])
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    p99_ms = float(p99.group(1)) * scale[p99.group(2)] if p99 else float("nan")
    return cpu / count * 1000, count / 10, p99_ms


def hello(args) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "evening_hello.py").write_text(HELLO)
        port = _free_port()
        with _gunicorn(args.python, Path(folder), "evening_hello:app", {}, port) as server:
            return _full_speed(args, server, port, "/", {})


@contextmanager
def _postgres(stack: ExitStack):
    folder = Path(tempfile.mkdtemp(prefix="bench-evening-pg."))
    shutil.chown(folder, "postgres")
    port = _free_port()

    def as_postgres(*command: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *command], check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip

    as_postgres(str(PG_BIN / "initdb"), "-D", f"{folder}/data", "-U", "postgres", "-A", "trust")
    as_postgres(
        str(PG_BIN / "pg_ctl"), "-D", f"{folder}/data", "-l", f"{folder}/log", "-w", "-o",
        f"-k {folder} -p {port} -c listen_addresses='' -c fsync=off", "start",
    )  # fmt: skip
    try:
        as_postgres(str(PG_BIN / "createdb"), "-h", str(folder), "-p", str(port), "evening")
        yield f"postgresql+psycopg://postgres@/evening?host={folder}&port={port}"
    finally:
        as_postgres(str(PG_BIN / "pg_ctl"), "-D", f"{folder}/data", "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def measure(args, label: str, folder: Path) -> dict:
    print(f"== {label}: {folder} (git {_commit(folder)})", flush=True)
    with ExitStack() as stack, tempfile.TemporaryDirectory() as work:
        url = stack.enter_context(_postgres(stack)) if args.postgres else f"sqlite:///{work}/e.db"
        env = {"DATABASE_URL": url, "SECRET_KEY": SECRET, "TRUSTED_PROXIES": "1"}
        if args.redis:
            redis_port = _free_port()
            command = [
                "redis-server",
                "--port",
                str(redis_port),
                "--save",
                "",
                "--appendonly",
                "no",
            ]
            stack.enter_context(_process(command, redis_port, "redis-server"))
            env["RATELIMIT_STORAGE_URI"] = f"redis://127.0.0.1:{redis_port}/0"
        _compile_catalogs(args.python, folder)
        games = Path(work) / "games.tsv"
        started = time.monotonic()
        subprocess.run(
            [args.python, "-c", SETUP, url, SECRET, str(args.max_tables), str(games)],
            cwd=folder, env={**os.environ, "PYTHONPATH": str(folder)}, check=True,
        )  # fmt: skip
        print(f"  {args.max_tables} games made in {time.monotonic() - started:.0f} s", flush=True)
        port = _free_port()
        shape = (args.workers, args.threads)
        with _gunicorn(args.python, folder, "scorekeeper:create_app()", env, port, shape) as server:
            capacity, steps = _search(args, server, port, games)
            poll_ms, poll_rate, poll_p99 = _poll_cost(args, server, port, games)
    capped = all(not step.failures(args) for step in steps)  # --max-tables reached
    print(
        f"  capacity: {'at least ' if capped else ''}{capacity} tables "
        f"({capacity * args.phones} phones) at p99 < 100 ms"
    )
    print(
        f"  one 304 at full speed: {poll_ms:.3f} ms server CPU, {poll_rate:.0f} req/s, "
        f"p99 {poll_p99:.1f} ms "
        f"(other processes {OTHERS[-1]:.2f} cores)"
    )
    return {"label": label, "capacity": capacity, "poll_ms": poll_ms, "poll_rate": poll_rate}


def _compile_catalogs(python: str, folder: Path) -> None:
    """The checkout's compiled catalogs (git keeps only the .po files), as `make run` makes
    them: scorekeeper.catalogs where the checkout has it, else pybabel."""
    if (folder / "scorekeeper" / "catalogs.py").is_file():
        command = [python, "-m", "scorekeeper.catalogs", "compile"]
    else:
        command = [
            python,
            "-m",
            "babel.messages.frontend",
            "compile",
            "-d",
            "scorekeeper/translations",
        ]
    env = {**os.environ, "PYTHONPATH": str(folder)}
    subprocess.run(command, cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL)


def _commit(folder: Path) -> str:
    done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", help="PATH or LABEL=PATH")
    parser.add_argument("--python", default=sys.executable, help="runs gunicorn and the setup")
    parser.add_argument("--seconds", type=float, default=30, help="measured per step")
    parser.add_argument(
        "--warmup", type=float, default=15,
        help="per step at least, not counted: the phones join in its first WARMUP - POLL seconds",
    )  # fmt: skip
    parser.add_argument(
        "--join", type=float, default=100,
        help="phones joining a second in the warm-up (a longer warm-up for more phones)",
    )  # fmt: skip
    parser.add_argument("--start", type=int, default=250, help="tables of the first step")
    parser.add_argument("--max-tables", type=int, default=6000)
    parser.add_argument("--refine", type=int, default=2, help="halvings after the doubling")
    parser.add_argument("--connections", type=int, default=32, help="wrk's (one a thread)")
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between a phone's polls")
    parser.add_argument("--save", type=float, default=300.0, help="seconds between saves")
    parser.add_argument("--phones", type=int, default=4, help="phones following each table")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's, for the checkouts")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn's, a worker")
    parser.add_argument("--postgres", action="store_true", help="a throw-away PostgreSQL 15")
    parser.add_argument("--redis", action="store_true", help="rate-limit counts in redis-server")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    if args.warmup < args.poll:
        parser.error("--warmup must be at least --poll (every phone gets its first ETag)")
    hello_ms, hello_rate, hello_p99 = hello(args)
    print(
        f"== bare Flask hello, gunicorn 2x4, wrk 16 connections: {hello_ms:.3f} ms server CPU"
        f" a request, {hello_rate:.0f} req/s, p99 {hello_p99:.1f} ms (other processes "
        f"{OTHERS[-1]:.2f} cores)"
    )
    database = "PostgreSQL 15" if args.postgres else "SQLite"
    storage = "redis" if args.redis else "memory"
    print(f"== {database}, rate limits in {storage}; {os.cpu_count()} cores; gunicorn "
          f"{args.workers}x{args.threads}; per step "
          f"{args.warmup:.0f} s warm-up or more (phones join at {args.join:.0f} a second) + "
          f"{args.seconds:.0f} s measured", flush=True)  # fmt: skip
    results = []
    for given in args.checkouts:
        label, _sep, path = given.rpartition("=")
        folder = Path(path).resolve()
        results.append(measure(args, label or folder.name, folder))
    print("== summary")
    for r in results:
        print(f"  {r['label']:>12}: {r['capacity']:6d} tables at p99 < 100 ms; a 304 costs "
              f"{r['poll_ms']:.3f} ms = {r['poll_ms'] / hello_ms:.1f}x the hello")  # fmt: skip


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    main()
