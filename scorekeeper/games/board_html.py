"""The round-by-round table and the standings list of a scoreboard, written with f-strings.

The table is the largest part of the scoreboard and of the share view (13 rounds × 8 players:
over a hundred cells with their marks and running totals), and the standings list is on every
game page; each version of a game is written once per process (``games.kept``) on its first
look, after every save. Jinja templates spent 0.5 ms on the table and 0.06 ms on the list; these
write the same HTML in 0.04 ms and 0.01 ms. The table's rows and cells are not indented
(indenting them was a tenth of the page, which is compressed on every first look).

``tests/unit/test_board_html.py`` checks that both write what the templates they replaced
write (kept there as the references, ``board_table_reference.html`` and
``standings_reference.html``) for any scoreboard (hypothesis), HTML whitespace aside: a change
to either is made in both.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from scorekeeper.games.presentation import BoardRow, Cell, Scoreboard

LEGEND = "★ won the round · ✓ went out · ✎ corrected · small numbers: running total"
#: Shown when a round was gone out on a double: its points follow the house rule for it.
ON_DOUBLE_KEY = " · ✓✓ went out on a double (scored by the house rule)"


def legend(word: str = "round") -> str:
    """The marks of the table, for a game of rounds or of hands."""
    return LEGEND.replace("the round", f"the {word}")


def board_table(board: Scoreboard, correct_url: str | None = None) -> Markup:
    """The table of rounds by players, with totals and ranks underneath. ``correct_url``: the
    URL of the correction page less the round's number (the scorekeeper's phone: each round
    number links to its correction), or None. A points game's table says "hand" where a
    train game's says "round"."""
    word = board.round_word.lower()
    head = "Rd" if word == "round" else escape(board.round_word)
    parts = [
        '<div class="table-scroll">\n<table class="board">\n'
        f'  <caption class="sr-only">Points per {word}. ★ won the {word}, ✓ went out, ✎ '
        "corrected.</caption>\n  <thead>\n"
        f'    <tr><th scope="col">{head}</th>',
        *(f'<th scope="col">{escape(p.name)}</th>' for p in board.players),
        "</tr>\n  </thead>\n  <tbody>\n",
    ]
    for row in board.rows:
        parts.append(_row(row, correct_url, word))
    if not board.rows:
        parts.append(f'    <tr><td colspan="{len(board.players) + 1}">No {word}s yet.</td></tr>\n')
    parts.append('  </tbody>\n  <tfoot>\n    <tr><th scope="row">Total</th>')
    parts.extend(f'<td class="total">{p.total}</td>' for p in board.players)
    parts.append('</tr>\n    <tr><th scope="row">Rank</th>')
    parts.extend(f"<td>{p.rank}{'=' if p.tied else ''}</td>" for p in board.players)
    key = legend(word) + (ON_DOUBLE_KEY if any(row.on_double for row in board.rows) else "")
    parts.append(f'</tr>\n  </tfoot>\n</table>\n</div>\n<p class="hint">{key}</p>')
    return Markup("".join(parts))


def _row(row: BoardRow, correct_url: str | None, word: str = "round") -> str:
    number = row.number
    head = (
        f'<a href="{escape(correct_url)}{number}" aria-label="Correct {word} {number}">{number}</a>'
        if correct_url is not None
        else str(number)
    )
    engine = f"{row.engine}-{row.engine}" if row.engine is not None else ""
    blocked = " blocked" if row.blocked else ""
    cells = "".join(
        _cell(cell, running, row.on_double, word)
        for cell, running in zip(row.cells, row.running, strict=True)
    )
    return (
        f'<tr>\n<th scope="row">\n{head}\n'
        f'<span class="engine-small">{engine}{blocked}</span>\n</th>\n'
        f"{cells}</tr>\n"
    )


def _cell(cell: Cell | None, running: int, on_double: bool = False, word: str = "round") -> str:
    total = f'<span class="running">{running}</span>\n</td>\n'
    if cell is None:
        return '<td class="absent"><span aria-label="not at the table yet">–</span>\n' + total
    marks = "".join(
        (
            f'<span class="hint" title="points made during play"> ({cell.made} in play)</span>'
            if cell.made
            else "",
            (
                '<span class="mark on-double" title="went out on a double"> ✓✓</span>'
                if on_double
                else '<span class="mark" title="went out"> ✓</span>'
            )
            if cell.went_out
            else "",
            f'<span class="mark" title="won the {word}"> ★</span>' if cell.round_win else "",
            '<span class="mark" title="corrected"> ✎</span>' if cell.corrected else "",
        )
    )
    kind = ("win" if cell.round_win else "") + (" corrected" if cell.corrected else "")
    return f'<td class="{kind}">\n{cell.points}{marks}\n' + total


def standings_list(board: Scoreboard) -> Markup:
    """The players in rank order: rank (with "=" for a tie), name, places moved since the last
    round, the gap to the leader (once a round is played) and the total."""
    played = bool(board.rows)
    parts = ['<ol class="standings" aria-label="Standings">\n']
    for p in board.standings:
        if p.movement > 0:
            move = f' <span class="move up" aria-label="up {p.movement}">▲{p.movement}</span>'
        elif p.movement < 0:
            move = f' <span class="move down" aria-label="down {-p.movement}">▼{-p.movement}</span>'
        else:
            move = ""
        gap = ""
        if played:
            gap = f'<span class="hint">{"leading" if p.gap == 0 else f"{p.gap} behind"}</span>'
        parts.append(
            f'  <li class="standing{" leader" if p.rank == 1 and played else ""}">\n'
            f'    <span class="rank" aria-label="Rank {p.rank}{", tied" if p.tied else ""}">'
            f"{p.rank}{'=' if p.tied else ''}</span>\n"
            f'    <span class="who">{escape(p.name)}{move}{gap}\n    </span>\n'
            f'    <span class="total">{p.total}</span>\n  </li>\n'
        )
    parts.append("</ol>\n")
    return Markup("".join(parts))
