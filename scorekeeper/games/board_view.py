"""What the round-by-round table needs besides the scoreboard: short column labels where the
players' names do not fit a phone's width (templates/games/_board_table.html draws the table).
"""

from __future__ import annotations

#: Up to this many players the table takes the usual type; more (six to eight) take smaller
#: figures and the page's side margins, so that every column still fits a phone 360 px wide.
ROOMY = 5
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


def board_header(names: list[str]) -> tuple[list[str] | None, bool]:
    """The table's header labels (None: the names themselves) and whether it is crowded (six
    to eight players: smaller figures, so that every total shows without scrolling sideways)."""
    return header_labels(names), len(names) > ROOMY
