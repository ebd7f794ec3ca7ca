"""The text a player sees on a page (HTML or an SVG card), for the language tests (issue 25):
every text node not inside ``<script>``/``<style>``, and the attributes a phone shows or reads
aloud (aria-label, title, alt, placeholder, a button's value, the meta description...).

Elements hidden until a script shows them (``hidden``) are read too: they are shown in the
page's language when they appear.

``untranslated(page, allowed)`` lists what the pseudo-language (``lang=pseudo``, every
translated sentence inside ``⟦…⟧``) did not mark: text outside every ``⟦…⟧`` that still holds
letters once the ``allowed`` texts (what the test typed, names of months...) are taken out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser

OPEN, CLOSE = "⟦", "⟧"
INVISIBLE = {"script", "style"}
#: Machine words shown as such (a CSV column name, an import keyword): the same in every
#: language, like the data the test typed.
MACHINE = {"code", "kbd", "samp", "pre"}  # <pre>: a sample of a file to import
#: Attributes a phone shows (a tooltip, a placeholder) or reads aloud.
SHOWN_ATTRIBUTES = {
    "aria-label",
    "aria-description",
    "aria-roledescription",
    "aria-valuetext",
    "aria-placeholder",
    "title",
    "alt",
    "placeholder",
    "label",
}
BUTTON_INPUTS = {"submit", "button", "reset"}
META_SHOWN = {"description", "og:title", "og:description", "twitter:title", "twitter:description",
              "apple-mobile-web-app-title", "application-name"}  # fmt: skip
#: A sentence translated with markup inside (``{% trans %}Open <a>the rules</a>{% endtrans %}``)
#: is split over several text nodes inside one block: the ⟦ of its first node marks them all.
#: A block element starts afresh (an unclosed ⟦ cannot hide the rest of the page).
BLOCKS = {
    "address", "article", "aside", "blockquote", "body", "button", "caption", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "head", "header", "html", "label", "legend", "li", "main",
    "nav", "ol", "optgroup", "option", "p", "pre", "section", "select", "summary", "table",
    "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title", "tr", "ul", "svg",
}  # fmt: skip
# (Not an SVG's <text>: a card wraps a long sentence over several <text> lines.)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.invisible = 0
        self.machine = 0
        self.depth = 0  # how many ⟦ are open in the current block
        self.texts: list[tuple[str, str]] = []  # (the text, what is outside every ⟦…⟧)

    def _block(self) -> None:
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCKS:
            self._block()
        if tag in INVISIBLE:
            self.invisible += 1
        if tag in MACHINE:
            self.machine += 1
        values = dict(attrs)
        for name, value in attrs:
            if not value:
                continue
            shown = name in SHOWN_ATTRIBUTES
            shown |= (
                name == "value"
                and tag == "input"  # a <button> shows its content, not its value
                and (values.get("type") or "").lower() in BUTTON_INPUTS
            )
            shown |= (
                name == "content"
                and tag == "meta"
                and (values.get("name") or values.get("property") or "") in META_SHOWN
            )
            # A sentence a script shows (data-seat-hint="Tap the players in seat order...").
            shown |= name.startswith("data-") and bool(re.search(r"[^\W\d_]{2,}\s+\S", value))
            if shown:
                self.texts.append((f"[{name}] {value}", _outside(value, 0)[0]))
        if tag in VOID:
            self.handle_endtag(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in INVISIBLE and self.invisible:
            self.invisible -= 1
        if tag in MACHINE and self.machine:
            self.machine -= 1
        if tag in BLOCKS:
            self._block()

    def handle_data(self, data: str) -> None:
        if self.invisible or not data.strip():
            return
        outside, self.depth = _outside(data, self.depth)
        if self.machine:
            return
        self.texts.append((" ".join(data.split()), outside))


def _outside(text: str, depth: int) -> tuple[str, int]:
    """The characters of ``text`` outside every ⟦…⟧ (``depth`` of them open before it)."""
    kept = []
    for char in text:
        if char == OPEN:
            depth += 1
            kept.append(" ")
        elif char == CLOSE:
            depth = max(0, depth - 1)
            kept.append(" ")
        elif depth == 0:
            kept.append(char)
    return "".join(kept), depth


def shown_texts(page: str) -> list[tuple[str, str]]:
    """Each text a player sees on ``page``: (the text, its part outside every ⟦…⟧)."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.texts


URL = re.compile(r"\b(?:https?://|www\.)\S*|(?<!\w)/[\w./?=&%-]+")
LETTERS = re.compile(r"[^\W\d_]")


def allowed_pattern(allowed: Iterable[str]) -> re.Pattern[str]:
    """One pattern for the texts a page may show as they are, longest first."""
    words = sorted({a for a in allowed if a and a.strip()}, key=len, reverse=True)
    if not words:
        return re.compile(r"(?!x)x")
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


def untranslated(page: str, allowed: re.Pattern[str]) -> list[str]:
    """The texts of ``page`` with letters outside every ⟦…⟧ that are not ``allowed``."""
    found = []
    for text, outside in shown_texts(page):
        rest = allowed.sub(" ", URL.sub(" ", outside))
        if LETTERS.search(rest):
            found.append(text)
    return list(dict.fromkeys(found))
