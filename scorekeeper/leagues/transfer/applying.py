"""Writing a confirmed import (once: a second confirm of the same upload writes nothing), and
the uploads kept on disk while they wait for confirmation."""

from __future__ import annotations

import json
import re
import secrets
import time
from pathlib import Path
from typing import Any

from flask import current_app
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.leagues import bulk, services
from scorekeeper.leagues.transfer.plan import ImportPlan, PlannedGame, PlannedScore
from scorekeeper.models import (
    League,
    LeagueImport,
    Player,
    Season,
)
from scorekeeper.rules import HouseRules, engine_schedule
from scorekeeper.rules.games import VARIANTS, default_game
from scorekeeper.rules.names import name_key
from scorekeeper.web.row_locks import lock_row

PENDING_HOURS = 24
# What instance/imports keeps at most (previews waiting for their confirmation): the newest
# 50 files, 200 MB in all (an upload is 12 MB at most). Over it, the oldest go first.
MAX_PENDING_FILES = 50
MAX_PENDING_BYTES = 200 * 1024 * 1024


def start_confirmed_import(league: League, token: str) -> bool:
    """Take the league's row lock and say whether the preview ``token`` may still be written
    (False: it was confirmed already, from this phone or another). Call before reading the
    file; ``apply_import`` then records the token, so a file is written once per preview."""
    lock_row(League, league.id)
    return (
        db.session.scalars(select(LeagueImport.id).where(LeagueImport.token == token)).first()
        is None
    )


def apply_import(
    league: League, plan: ImportPlan, device: str, token: str, filename: str
) -> bulk.Written:
    """Write a checked plan: new players, nights, games, rounds and scores (bulk inserts), and
    record the preview token so the same confirmation can never write twice."""
    assert not plan.problems and plan.fatal is None
    ids = _write_players(league, plan)
    for name, starts_on, ends_on in plan.seasons:
        db.session.add(Season(league_id=league.id, name=name, starts_on=starts_on, ends_on=ends_on))
    rules = services.league_rules(league)
    specs = []
    for night in plan.nights:
        spec = bulk.NightSpec(
            played_on=night.played_on, place=night.place, night_id=night.existing_id
        )
        spec.games.extend(_game_spec(game, rules, ids) for game in night.games)
        specs.append(spec)
    written = bulk.write_nights(league.id, specs, device)
    db.session.add(
        LeagueImport(league_id=league.id, token=token, filename=filename[:200], games=written.games)
    )
    db.session.flush()
    return written


def _write_players(league: League, plan: ImportPlan) -> dict[str, int]:
    """The plan's new players (in the roster file's order, the rest after them, as the file
    met them) and merged entries written: every name's player id, by its folded name."""
    ids = dict(plan.player_ids)
    new = [(name, name.casefold() in plan.guests) for name in plan.new_players]
    new += [(name, False) for name in plan.roster_only] + [(name, False) for name, _ in plan.merged]
    place = {key: index for index, key in reversed(list(enumerate(plan.order)))}
    new.sort(key=lambda entry: place.get(name_key(entry[0]), len(place)))
    for name, guest in new:
        player = Player(name=name, league_id=league.id, is_guest=guest)
        db.session.add(player)
        db.session.flush()
        ids.setdefault(name.casefold(), player.id)
    for name, into in plan.merged:
        merged = db.session.get_one(Player, ids[name.casefold()])
        merged.merged_into_id = ids.get(into.casefold()) or next(
            p.id
            for p in services.league_players(league)
            if p.merged_into_id is None and name_key(p.name) == name_key(into)
        )
    return ids


def _game_spec(game: PlannedGame, rules: HouseRules, ids: dict[str, int]) -> bulk.GameSpec:
    """One planned game as the bulk writer takes it, played by its own rules (an export's) or
    the league's."""
    players = game.players
    variant = VARIANTS[game.kind]
    game_rules = rules if variant is default_game() else variant.adopt(rules)
    if game.rules is not None:  # the rules the game was played under (an export's)
        game_rules = HouseRules.from_dict(game.rules)
    engines = engine_schedule(game_rules)
    return bulk.GameSpec(
        table_name=game.table,
        players=[ids[p.casefold()] for p in players],
        rounds=[
            _round_spec(game.rounds[number], number, players, variant, engines)
            for number in sorted(game.rounds)
        ],
        rules=game_rules.to_dict(),
        status="finished" if game.finished else "playing",
        ended_early=game.finished and game.ended_early,
        kind=variant.name,
        starts={
            position: (
                min(
                    (n for n in game.rounds if p in game.rounds[n]),
                    default=len(game.rounds) + 1,  # seated, no round yet
                ),
                game.starts[p],
            )
            for position, p in enumerate(players)
            if p in game.starts
        },
    )


def _round_spec(
    scores: dict[str, PlannedScore],
    number: int,
    players: list[str],
    variant: Any,
    engines: list[int],
) -> bulk.RoundSpec:
    """One planned round: who went out (a round's only 0 when the file does not say), its
    engine (the schedule's when the file does not say), every seat's score."""
    out = [i for i, p in enumerate(players) if p in scores and scores[p].went_out]
    if not any(s.went_out is not None for s in scores.values()):
        # A round's only 0 went out; in a points game a 0 says nothing of that.
        zeros = [i for i, p in enumerate(players) if p in scores and scores[p].points == 0]
        out = zeros if len(zeros) == 1 and variant.lower_is_better else []
    engine = next(iter(scores.values())).engine
    return bulk.RoundSpec(
        engine=engine
        if engine is not None or not variant.uses_engines
        else engines[(number - 1) % len(engines)],
        went_out=out[0] if out else None,
        on_double=bool(out) and scores[players[out[0]]].on_double,
        scores=[
            None
            if p not in scores
            else bulk.ScoreSpec(
                points=scores[p].points,
                hand=scores[p].hand,
                tiles=scores[p].tiles,
                markers=scores[p].markers,
                open_doubles=scores[p].open_doubles,
                made=scores[p].made,
            )
            for p in players
        ],
    )


# --------------------------------------------------------------------------------------------
# The file between the preview and the confirmation


def _pending_dir() -> Path:
    folder = Path(current_app.instance_path) / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def save_pending(league: League, content: bytes, filename: str) -> str:
    """Keep an uploaded file until the organiser confirms the preview (a day at most). What is
    kept has a cap (``MAX_PENDING_FILES`` files, ``MAX_PENDING_BYTES`` in all): over it, the
    oldest previews go first (their organiser is asked to choose the file again), so the
    folder cannot fill the disk whoever sends previews."""
    folder = _pending_dir()
    cutoff = time.time() - PENDING_HOURS * 3600
    kept: list[tuple[float, Path, int]] = []
    for old in folder.iterdir():
        try:
            stat = old.stat()
        except FileNotFoundError:  # taken by another request just now
            continue
        if stat.st_mtime < cutoff:
            old.unlink(missing_ok=True)
        elif old.suffix == ".data":
            kept.append((stat.st_mtime, old, stat.st_size))
    kept.sort()
    total = sum(size for _, _, size in kept)
    while kept and (len(kept) + 1 > MAX_PENDING_FILES or total + len(content) > MAX_PENDING_BYTES):
        _, oldest, size = kept.pop(0)
        oldest.unlink(missing_ok=True)
        oldest.with_suffix(".json").unlink(missing_ok=True)
        total -= size
    token = secrets.token_urlsafe(16)
    (folder / f"{league.code}-{token}.data").write_bytes(content)
    (folder / f"{league.code}-{token}.json").write_text(json.dumps({"filename": filename}))
    return token


def _pending_paths(league: League, token: str) -> tuple[Path, Path] | None:
    if not re.fullmatch(r"[A-Za-z0-9_\-]{10,40}", token or ""):
        return None
    folder = _pending_dir()
    return folder / f"{league.code}-{token}.data", folder / f"{league.code}-{token}.json"


def load_pending(league: League, token: str) -> tuple[str, bytes] | None:
    paths = _pending_paths(league, token)
    if paths is None or not paths[0].exists() or not paths[1].exists():
        return None
    meta = json.loads(paths[1].read_text())
    return str(meta.get("filename", "upload.csv")), paths[0].read_bytes()


def drop_pending(league: League, token: str) -> None:
    paths = _pending_paths(league, token)
    if paths is not None:
        for path in paths:
            path.unlink(missing_ok=True)
