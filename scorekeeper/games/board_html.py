"""The round-by-round table of a scoreboard, written with f-strings.

It is the largest part of the scoreboard and of the share view (13 rounds × 8 players: over a
hundred cells with their marks and running totals), and each version of a game is rendered once
per process (``games.kept``) on its first look, after every save. A Jinja template spent 0.5 ms
on it, an eighth of the whole first look; this writes the same HTML in 0.04 ms.

``tests/unit/test_board_html.py`` checks that it writes what the template it replaced writes
(kept there as the reference, ``board_table_reference.html``) for any scoreboard (hypothesis),
HTML whitespace aside: a change to the table is made in both.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from scorekeeper.games.presentation import BoardRow, Cell, Scoreboard

LEGEND = "★ won the round · ✓ went out · ✎ corrected · small numbers: running total"


def board_table(board: Scoreboard, correct_url: str | None = None) -> Markup:
    """The table of rounds by players, with totals and ranks underneath. ``correct_url``: the
    URL of the correction page less the round's number (the scorekeeper's phone: each round
    number links to its correction), or None."""
    parts = [
        '<div class="table-scroll">\n<table class="board">\n'
        '  <caption class="sr-only">Points per round. ★ won the round, ✓ went out, ✎ corrected.'
        "</caption>\n  <thead>\n"
        '    <tr><th scope="col">Rd</th>',
        *(f'<th scope="col">{escape(p.name)}</th>' for p in board.players),
        "</tr>\n  </thead>\n  <tbody>\n",
    ]
    for row in board.rows:
        parts.append(_row(row, correct_url))
    if not board.rows:
        parts.append(f'    <tr><td colspan="{len(board.players) + 1}">No rounds yet.</td></tr>\n')
    parts.append('  </tbody>\n  <tfoot>\n    <tr><th scope="row">Total</th>')
    parts.extend(f'<td class="total">{p.total}</td>' for p in board.players)
    parts.append('</tr>\n    <tr><th scope="row">Rank</th>')
    parts.extend(f"<td>{p.rank}{'=' if p.tied else ''}</td>" for p in board.players)
    parts.append(f'</tr>\n  </tfoot>\n</table>\n</div>\n<p class="hint">{LEGEND}</p>')
    return Markup("".join(parts))


def _row(row: BoardRow, correct_url: str | None) -> str:
    number = row.number
    head = (
        f'<a href="{escape(correct_url)}{number}" aria-label="Correct round {number}">{number}</a>'
        if correct_url is not None
        else str(number)
    )
    engine = f"{row.engine}-{row.engine}" if row.engine is not None else ""
    blocked = " blocked" if row.blocked else ""
    cells = "".join(
        _cell(cell, running) for cell, running in zip(row.cells, row.running, strict=True)
    )
    return (
        f'    <tr>\n      <th scope="row">\n        {head}\n'
        f'        <span class="engine-small">{engine}{blocked}</span>\n      </th>\n'
        f"{cells}    </tr>\n"
    )


def _cell(cell: Cell | None, running: int) -> str:
    total = f'        <span class="running">{running}</span>\n      </td>\n'
    if cell is None:
        return '      <td class="absent"><span aria-label="not at the table yet">–</span>\n' + total
    marks = "".join(
        (
            f'<span class="hint" title="points made during play"> ({cell.made} in play)</span>'
            if cell.made
            else "",
            '<span class="mark" title="went out"> ✓</span>' if cell.went_out else "",
            '<span class="mark" title="won the round"> ★</span>' if cell.round_win else "",
            '<span class="mark" title="corrected"> ✎</span>' if cell.corrected else "",
        )
    )
    kind = ("win" if cell.round_win else "") + (" corrected" if cell.corrected else "")
    return f'      <td class="{kind}">\n        {cell.points}{marks}\n' + total
