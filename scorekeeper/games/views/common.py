"""What every game view uses: the blueprint, loading a game, the editor check."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any

from flask import (
    Blueprint,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.games import access, league_tables, services
from scorekeeper.games.board_view import board_header
from scorekeeper.games.words import RoundWords
from scorekeeper.games.words import round_words as _round_words
from scorekeeper.models import Game
from scorekeeper.web.i18n import use_league_language
from scorekeeper.web.transactions import is_write_request, locks_for_writing

bp = Blueprint("games", __name__)

View = Callable[..., Any]


def game_or_404(public_id: str, scores: bool = True) -> Game:
    """The game, locked for the rest of the request when the request may change it; without
    every round's scores when the page does not show the scoreboard."""
    game = services.load_game(public_id, for_update=is_write_request(), scores=scores)
    if game is None:
        abort(404)
    return in_its_language(game)


def in_its_language(game: Game) -> Game:
    """A table of a league night speaks its league's language (unless the phone chose one):
    the league's language is one input of the page's language (``web.i18n``)."""
    if game.night_id is not None:
        use_league_language(game.night.league.language)  # type: ignore[union-attr]
    return game


@bp.app_template_global()
def standings_html(game: Game, board: services.Scoreboard) -> Markup:
    """The standings list (``games/_standings_list.html``)."""
    return Markup(render_template("games/_standings_list.html", board=board))


@bp.app_template_global()
def board_table_html(game: Game, board: services.Scoreboard, editor: bool) -> Markup:
    """The round-by-round table (``games/_board_table.html``); on the scorekeeper's phone each
    round links to its correction."""
    labels, crowded = board_header([p.name for p in board.players])
    # One URL for the table: ".../rounds/0" less its 0; each round adds its number.
    correct_url = (
        url_for("games.correct_round", public_id=game.public_id, number=0)[:-1] if editor else None
    )
    return Markup(
        render_template(
            "games/_board_table.html",
            board=board,
            correct_url=correct_url,
            labels=labels,
            crowded=crowded,
        )
    )


@bp.app_template_global()
def round_words(word: Any) -> RoundWords:
    """A game's words for its rounds (``games.words``): ``round_words(board.round_word).one``."""
    return _round_words(word)


@bp.app_template_global()
def reads_league(game: Game) -> bool:
    """Whether this phone may read the league of a league table (``leagues.access.can_read``):
    only then does a game page link to the league or show its members' link. A share link,
    or a table's edit code alone, gives no league right."""
    return game.night is not None and league_tables.can_read(game.night.league)


@bp.app_template_global()
def phone_purge() -> str:
    """The games whose kept pages, drafts and unsent rounds the phone clears on this page
    (after it forgot them: ``access.take_purge``), for offline.js; "" on almost every page."""
    return " ".join(access.take_purge())


def game_row_or_404(public_id: str, correction_flag: bool = False) -> Game:
    """The game's row alone, for a page that shows values kept for its version (``kept``);
    ``correction_flag``: with whether the game has corrections (``setup.find_game``)."""
    game = services.find_game(public_id, correction_flag=correction_flag)
    if game is None:
        abort(404)
    return in_its_language(game)


def editor_required(view: View) -> View:
    """Load the game; only its creator's device or a device with the edit code may go on.
    A page (GET) sends others to the edit-code form; a change (POST) is refused with 403."""
    return _for_editors(view, lambda public_id: game_or_404(public_id, scores=False))


def table_editor_required(view: View) -> View:
    """``editor_required`` for a view that reads the game's seats and rounds as rows
    (``rows.table``): only the game's row is loaded (locked for a write, unless the write put
    its lock off: ``boundary.defer_write_lock``), the rows come from what is kept for its
    version."""

    def load(public_id: str) -> Game:
        game = services.find_game(public_id, for_update=locks_for_writing())
        if game is None:
            abort(404)
        return in_its_language(game)

    return _for_editors(view, load)


def _for_editors(view: View, load: Callable[[str], Game]) -> View:
    @wraps(view)
    def wrapped(public_id: str, **kwargs: Any) -> Any:
        game = load(public_id)
        if not access.can_edit(game):
            if game.night_id is not None and (
                request.method != "GET" or league_tables.passphrase_changed(game.night.league)  # type: ignore[union-attr]
            ):
                return league_table_refusal(game)
            if request.method == "GET":
                return redirect(url_for("games.unlock", public_id=public_id, next=request.path))
            abort(403)
        return view(game, **kwargs)

    return wrapped


def league_table_refusal(game: Game) -> BaseResponse | tuple[str, int]:
    """A phone that may not keep score at a table of a league night, told in the league's
    words: the right comes from the league's passphrase (its table's edit code changes with
    it). A page (GET) of a phone that had the old passphrase goes to the league's passphrase
    form, which brings it back here (other phones get the table's edit-code form); a
    change (POST: a round form, say) is refused with 403, and what was typed is shown on the
    page (the phone's own copy of it stays in its drafts, ``static/js/offline.js``, and comes
    back in the form once the new passphrase is typed)."""
    league = game.night.league  # type: ignore[union-attr]
    # Where the passphrase form brings the phone back: the page it asked for, or after a
    # refused change the form it came from (a round) or the table.
    if request.method == "GET" or request.path.endswith("/round"):
        back = request.path
    else:
        back = url_for("games.table", public_id=game.public_id)
    unlock_url = url_for("leagues.unlock", code=league.code, next=back)
    if request.method == "GET":
        return redirect(unlock_url)
    page = render_template(
        "games/league_refused.html",
        game=game,
        league=league,
        changed=league_tables.passphrase_changed(league),
        typed=_typed_round(game),
        unlock_url=unlock_url,
    )
    return page, 403


def _typed_round(game: Game) -> list[tuple[str, str, bool]]:
    """What a refused round form carried, seat by seat: (name, what was typed, went out)."""
    went_out = request.form.get("went_out", "")
    typed = []
    for position, seat in enumerate(game.seats):
        hand = request.form.get(f"seat_{position}-hand", "").strip()
        tiles = request.form.get(f"seat_{position}-tiles", "").strip()
        made = request.form.get(f"seat_{position}-made", "").strip()
        parts = [
            part for part in (hand, _("tiles %(tiles)s", tiles=tiles) if tiles else "") if part
        ]
        if made:
            parts.append(_("made %(n)s", n=made))
        if parts or went_out == str(position):
            typed.append((seat.player.name, ", ".join(parts) or "–", went_out == str(position)))
    return typed


def may_play_again(game: Game) -> bool:
    """ "Play again with the same players": a game of one's own, whoever keeps its score; a
    table of a league night adds a game to that night, so the organiser, or on the night itself
    a phone with the league's passphrase (``leagues.access.may_start_table_game``) or with this
    table's edit code, which gives the passphrase's right at that one table (README "Who may do
    what": a table plays on without fetching the organiser)."""
    if game.night is None:
        return access.can_edit(game)
    night, today = game.night, date.today()
    if league_tables.may_start_table_game(night.league, night.played_on, today):
        return True
    return night.played_on == today and access.can_edit(game)
