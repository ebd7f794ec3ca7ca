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

#: Up to this many players, every column fits a phone 360 px wide; more scroll sideways.
FITS_A_PHONE = 6
#: The longest word of a name that fits a column header 360 px wide, by the number of
#: players. Where every word of every name fits, the header shows the names (wrapped between
#: words, never inside one); otherwise short labels, with a key above the table.
HEADER_LETTERS = {1: 16, 2: 12, 3: 8, 4: 6, 5: 4, 6: 3, 7: 3, 8: 3}


def header_labels(names: list[str]) -> list[str] | None:
    """Short column labels for ``names``, or None where the names themselves fit.

    A label is the name's initials (the first word's, then the last word's: "Bea Hart" is
    "BH"); where two labels are alike, those take more letters of the first word (up to five:
    "Annabel", "Alastair": "An", "Al"), then of the last word ("Ann Bee", "Ann Bo": "ABe",
    "ABo"); names nothing tells apart get their seat numbers."""
    budget = HEADER_LETTERS.get(len(names), 0)
    if all(len(word) <= budget for name in names for word in name.split()):
        return None
    words = [name.split() or [name] for name in names]

    def label(parts: list[str], first: int, last: int) -> str:
        tail = parts[-1][:last] if len(parts) > 1 else ""
        return parts[0][:first] + tail

    steps = [(first, 1) for first in (1, 2, 3, 4, 5)] + [(1, last) for last in (2, 3)]
    labels = [label(w, 1, 1) for w in words]
    for first, last in steps:
        keys = [lbl.casefold() for lbl in labels]
        alike = [i for i, key in enumerate(keys) if keys.count(key) > 1]
        if not alike:
            return labels
        for i in alike:
            labels[i] = label(words[i], first, last)
    keys = [lbl.casefold() for lbl in labels]
    return [lbl if keys.count(lbl.casefold()) == 1 else str(i + 1) for i, lbl in enumerate(labels)]


def board_table(board: Scoreboard, correct_url: str | None = None) -> Markup:
    """The table of rounds by players, with totals and ranks underneath. ``correct_url``: the
    URL of the correction page less the round's number (the scorekeeper's phone: each round
    number links to its correction), or None.

    Up to six players every column fits a phone's width (short labels in the header when the
    names do not fit, with a key); seven or eight scroll sideways, the round column staying in
    place, with a hint and a shadow that say so."""
    labels = header_labels([p.name for p in board.players])
    wide = len(board.players) > FITS_A_PHONE
    parts = []
    if wide:
        parts.append(
            '<p class="scroll-hint" id="board-scroll-hint">'
            f"{len(board.players)} players: swipe sideways →</p>\n"
        )
    if labels is not None:
        parts.append('<p class="board-key" aria-hidden="true">')
        parts.extend(
            f'<span class="key"><b>{escape(label)}</b> {escape(p.name)}</span> '
            for label, p in zip(labels, board.players, strict=True)
        )
        parts.append("</p>\n")
    parts.append(
        '<div class="table-scroll board-scroll'
        + (' wide" data-scroll-cue="board-scroll-hint">' if wide else '">')
        + '\n<table class="board">\n'
        '  <caption class="sr-only">Points per round. ★ won the round, ✓ went out, ✎ corrected.'
        "</caption>\n  <thead>\n"
        '    <tr><th scope="col">Rd</th>'
    )
    if labels is None:
        parts.extend(f'<th scope="col">{escape(p.name)}</th>' for p in board.players)
    else:
        parts.extend(
            f'<th scope="col"><span aria-hidden="true">{escape(label)}</span>'
            f'<span class="sr-only">{escape(p.name)}</span></th>'
            for label, p in zip(labels, board.players, strict=True)
        )
    parts.append("</tr>\n  </thead>\n  <tbody>\n")
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
        f'<tr>\n<th scope="row">\n{head}\n'
        f'<span class="engine-small">{engine}{blocked}</span>\n</th>\n'
        f"{cells}</tr>\n"
    )


def _cell(cell: Cell | None, running: int) -> str:
    total = f'<span class="running">{running}</span>\n</td>\n'
    if cell is None:
        return '<td class="absent"><span aria-label="not at the table yet">–</span>\n' + total
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
