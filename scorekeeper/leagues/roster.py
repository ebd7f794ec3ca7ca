"""Use cases of a league's roster: players, adding several at once, editing, deleting, merging
two entries of one person."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, func, select, update

from scorekeeper.extensions import db
from scorekeeper.games.totals import games_shown_again, standings_changed
from scorekeeper.leagues.setup import MAX_PLAYER_NAME, LeagueError, day_text
from scorekeeper.models import Game, League, Night, Player, Seat
from scorekeeper.rules.names import TOO_LONG, NameRefused, clean_name, name_key

# --------------------------------------------------------------------------------------------
# Players: the roster, guests, renaming and merging


def league_players(league: League) -> list[Player]:
    """Everyone entered in the league, merged entries included."""
    return list(
        db.session.scalars(select(Player).where(Player.league_id == league.id).order_by(Player.id))
    )


def _same_name(players: Iterable[Player], name: str, skip: Player | None = None) -> Player | None:
    folded = name_key(name)
    for player in players:
        if player is not skip and player.merged_into_id is None and name_key(player.name) == folded:
            return player
    return None


def find_player(league: League, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    if player is None or player.league_id != league.id:
        return None
    return player


def surviving(player: Player) -> Player:
    """The entry a merged player now lives on as (the player itself when not merged)."""
    seen = {player.id}
    while player.merged_into_id is not None:
        nxt = db.session.get(Player, player.merged_into_id)
        if nxt is None or nxt.id in seen:
            break
        seen.add(nxt.id)
        player = nxt
    return player


def player_name(typed: str) -> str:
    """A player's name as typed, in the one spelling ``rules.names`` keeps (NFC, trimmed,
    inner spaces collapsed). Refused when empty, with no visible character or longer than the
    limit: a name is never cut short without a word."""
    try:
        cleaned = clean_name(typed, MAX_PLAYER_NAME)
    except NameRefused as refused:
        if refused.reason != TOO_LONG:
            raise LeagueError(str(refused)) from None
        raise LeagueError(
            _(
                "“%(name)s” has %(length)s characters; a name may have at most %(limit)s. "
                "Shorten it, or put each name on its own line.",
                name=refused.name,
                length=refused.length,
                limit=MAX_PLAYER_NAME,
            )
        ) from None
    if not cleaned:
        raise LeagueError(_("Type the player's name."))
    return cleaned


def add_player(league: League, name: str) -> Player:
    """Put a player on the roster. A guest of the same name joins the roster instead."""
    cleaned = player_name(name)
    existing = _same_name(league_players(league), cleaned)
    if existing is not None:
        if not existing.is_guest:
            raise LeagueError(_("%(name)s is already on the roster.", name=existing.name))
        existing.is_guest = False
        standings_changed(league_id=league.id)
        db.session.flush()
        return existing
    player = Player(name=cleaned, league_id=league.id, is_guest=False)
    db.session.add(player)
    standings_changed(league_id=league.id)
    db.session.flush()
    return player


MAX_NAMES_AT_ONCE = 200  # a club's whole list; more is a paste gone wrong


class NamesRefused(LeagueError):
    """Names that cannot go on the roster, each problem in its own sentence."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = problems


def add_players(league: League, names: Sequence[str]) -> list[Player]:
    """Put one or several players on the roster (a list pasted one name a line): all of them,
    or none when any name is refused (too long, already on the roster, twice in the list);
    ``NamesRefused`` then lists every problem at once."""
    if len(names) > MAX_NAMES_AT_ONCE:
        raise NamesRefused(
            [
                _(
                    "That is %(n)s names: add at most %(limit)s at once.",
                    n=len(names),
                    limit=MAX_NAMES_AT_ONCE,
                )
            ]
        )
    problems: list[str] = []
    wanted: dict[str, str] = {}
    roster = league_players(league)
    for typed in names:
        try:
            cleaned = player_name(typed)
        except LeagueError as error:
            problems.append(str(error))
            continue
        if name_key(cleaned) in wanted:
            problems.append(_("%(name)s is in the list twice.", name=cleaned))
            continue
        wanted[name_key(cleaned)] = cleaned
        existing = _same_name(roster, cleaned)
        if existing is not None and not existing.is_guest:
            problems.append(_("%(name)s is already on the roster.", name=existing.name))
    if not names:
        problems.append(_("Type the player's name."))
    if problems:
        raise NamesRefused(problems)
    return [add_player(league, name) for name in wanted.values()]


def edit_player(league: League, player: Player, name: str, guest: bool) -> None:
    """Rename a player (every game shows the new name: seats point at the player, not at a
    name), or move them between the roster and the guests."""
    cleaned = player_name(name)
    other = _same_name(league_players(league), cleaned, skip=player)
    if other is not None:
        raise LeagueError(
            _(
                "Another player is already called %(name)s. If they are the same person, "
                "merge them instead.",
                name=other.name,
            )
        )
    if player.name != cleaned:
        games_shown_again([player.id])
    player.name = cleaned
    player.is_guest = guest
    standings_changed(league_id=league.id)
    db.session.flush()


def split_names(typed: str) -> list[str]:
    """The names in ``typed`` when it looks like several ("Alice, Boris; Cy"): commas,
    semicolons and new lines separate them. One name (or fewer) gives []."""
    parts = [part.strip() for part in typed.replace(";", ",").replace("\n", ",").split(",")]
    names = [part for part in parts if part]
    return names if len(names) > 1 else []


def player_games(player: Player) -> int:
    """How many games a player (or an entry merged into them) has sat at, finished or not."""
    return db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == player.id)) or 0


def delete_player(league: League, player: Player) -> None:
    """Remove an entry typed by mistake. Only one that has never sat at a table: a player's
    games are history (renaming, marking as a guest or merging keeps them)."""
    games = player_games(player)
    if games:
        raise LeagueError(
            ngettext(
                "%(name)s has %(num)s game in the league, so the entry stays: removing it would "
                "change the standings and old score sheets. Rename it, mark it as a guest, or "
                "merge it with the right entry instead.",
                "%(name)s has %(num)s games in the league, so the entry stays: removing it would "
                "change the standings and old score sheets. Rename it, mark it as a guest, or "
                "merge it with the right entry instead.",
                games,
                name=player.name,
            )
        )
    # Entries merged into this one have no games left either: they go with it.
    db.session.execute(delete(Player).where(Player.merged_into_id == player.id))
    db.session.delete(player)
    standings_changed(league_id=league.id)
    db.session.flush()


@dataclass(frozen=True)
class MergePlan:
    source: Player
    target: Player
    games: int
    clashes: list[str]  # "4 Jan 2024 at Table 1": both played in the same game


def merge_plan(league: League, source: Player, target: Player) -> MergePlan:
    """What merging ``source`` into ``target`` would do; ``clashes`` list the games where both
    played (then they cannot be the same person)."""
    if source.id == target.id:
        raise LeagueError(_("Choose a different player to merge with."))
    if source.league_id != league.id or target.league_id != league.id:
        raise LeagueError(_("Both players must be in this league."))
    if source.merged_into_id is not None or target.merged_into_id is not None:
        raise LeagueError(_("That player has already been merged."))
    source_games = select(Seat.game_id).where(Seat.player_id == source.id)
    shared = db.session.execute(
        select(Night.played_on, Game.table_name)
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(Night, Night.id == Game.night_id)
        .where(Seat.player_id == target.id, Seat.game_id.in_(source_games))
        .order_by(Night.played_on)
    ).all()
    clashes = [
        _(
            "%(game)s at %(table)s",
            game=day_text(played_on) if played_on else _("a game"),
            table=table or _("a table"),
        )
        for played_on, table in shared
    ]
    count = db.session.scalar(select(func.count()).where(Seat.player_id == source.id)) or 0
    return MergePlan(source=source, target=target, games=count, clashes=clashes)


def merge_players(league: League, source: Player, target: Player) -> int:
    """Merge two entries that are the same person: every game of ``source`` moves to ``target``
    (who keeps their name); ``source`` is kept as a pointer so old links still work. Refused
    when both played in the same game. Returns the number of games moved."""
    plan = merge_plan(league, source, target)
    if plan.clashes:
        raise LeagueError(
            _(
                "%(one)s and %(other)s played in the same game (%(games)s), so they cannot be "
                "the same person.",
                one=source.name,
                other=target.name,
                games=", ".join(plan.clashes[:3]),
            )
        )
    games_shown_again([source.id])
    db.session.execute(update(Seat).where(Seat.player_id == source.id).values(player_id=target.id))
    db.session.execute(
        update(Player).where(Player.merged_into_id == source.id).values(merged_into_id=target.id)
    )
    source.merged_into_id = target.id
    target.is_guest = target.is_guest and source.is_guest
    standings_changed(league_id=league.id)
    db.session.flush()
    db.session.expire_all()
    return plan.games


def roster_counts(league: League) -> dict[int, tuple[int, date | None]]:
    """Games seated and the last night played, per player (all games, finished or not)."""
    rows = db.session.execute(
        select(Seat.player_id, func.count(Seat.id), func.max(Night.played_on))
        .join(Game, Game.id == Seat.game_id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league.id)
        .group_by(Seat.player_id)
    ).all()
    return {player_id: (count, last) for player_id, count, last in rows}
