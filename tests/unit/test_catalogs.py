"""Every sentence a player can see goes through the catalogs, and every catalog translates all
of them (issue 25).

- The catalogs: extract the sentences afresh (``pybabel extract``, as ``make messages`` runs it
  with babel.cfg and pyproject.toml's ``[tool.babel.extract_messages]``) and compare: every
  one translated in every language, none fuzzy, the same placeholders on both sides (a missing
  ``%(name)s`` would be a server error).
- The sources: a template's text and visible attributes, and a Python module's prose, must go
  through gettext. A Python literal that is not for players (a CSV column name, a log line)
  says so with ``# i18n: <why>`` on its line.
"""

from __future__ import annotations

import ast
import contextlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from jinja2 import Environment

from scorekeeper.web.i18n import TRANSLATIONS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"
TEMPLATES = ROOT / "templates"

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w*)\}")

#: Words that are the same in every language offered here (names, abbreviations).
SAME_EVERYWHERE = {
    "Scorekeeper",
    "CSV",
    "PDF",
    "PNG",
    "SVG",
    "QR",
    "HTTPS",
    "HTTP",
    "Wi-Fi",
    "OK",
    "English",
    "Español",
    "Français",
    "Pséûdö",
    "ID",
}


def languages() -> list[str]:
    """The translated languages (each a folder under translations/), English not included."""
    return sorted(p.name for p in TRANSLATIONS.iterdir() if (p / "LC_MESSAGES").is_dir())


def read(language: str) -> Catalog:
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """What ``make messages`` extracts: pybabel with the project's own settings."""
    template = tmp_path_factory.mktemp("catalogs") / "messages.pot"
    with contextlib.chdir(ROOT):
        CommandLineInterface().run(["pybabel", "-q", "extract", "-o", str(template)])
    with template.open("rb") as pot:
        return read_po(pot)


@pytest.mark.parametrize("language", languages())
def test_every_sentence_is_translated(extracted, language):
    catalog = read(language)
    # A catalog whose header is fuzzy is skipped whole by pybabel compile (make translations).
    assert not catalog.fuzzy, f"{language}: remove '#, fuzzy' above the header (msgid \"\")"
    missing, empty, fuzzy = [], [], []
    for message in extracted:
        if not message.id:
            continue
        translated = catalog.get(message.id, context=message.context)
        where = f"{message.locations[0][0]}:{message.locations[0][1]}" if message.locations else "?"
        if translated is None:
            missing.append(f"{where} {message.id!r}")
        elif translated.fuzzy:
            fuzzy.append(f"{where} {message.id!r}")
        elif not (
            all(translated.string)
            if isinstance(translated.string, (tuple, list))
            else translated.string
        ):
            empty.append(f"{where} {message.id!r}")
    report = []
    for name, found in (("not in the catalog", missing), ("fuzzy", fuzzy), ("empty", empty)):
        if found:
            report.append(f"{len(found)} {name} (make messages, then translate):")
            report.extend("  " + line for line in found[:40])
    assert not report, f"{language}:\n" + "\n".join(report)


@pytest.mark.parametrize("language", languages())
def test_translations_keep_the_placeholders(language):
    wrong = []
    for message in read(language):
        if not message.id or not message.string:
            continue
        sources = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        targets = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        wanted = {m.group(0) for s in sources for m in PLACEHOLDER.finditer(s)}
        for target in targets:
            got = {m.group(0) for m in PLACEHOLDER.finditer(target)}
            # A singular may leave out %(num)s ("one round"); nothing else may go or come.
            if not got <= wanted or not (wanted - {"%(num)s", "%(num)d"}) <= got:
                wrong.append(f"{message.id!r} -> {target!r}")
    assert not wrong, f"{language}: placeholders changed:\n" + "\n".join(wrong[:40])


# ---------------------------------------------------------------------------------------
# Templates

#: Attributes a player reads or hears.
VISIBLE_ATTRIBUTES = {"alt", "title", "placeholder", "aria-label", "aria-description", "label"}


class _TextFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        attributes = dict(attrs)
        for name, value in attrs:
            if value and name in VISIBLE_ATTRIBUTES:
                self.found.append(value)
        if tag == "meta" and attributes.get("name") == "description":
            self.found.append(attributes.get("content") or "")
        if tag == "input" and attributes.get("type") in ("submit", "button"):
            self.found.append(attributes.get("value") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.found.append(data)


def _has_words(text: str) -> bool:
    text = text.replace("\x00", " ")
    for word in SAME_EVERYWHERE:
        text = text.replace(word, " ")
    return re.search(r"[^\W\d_]{2,}", text) is not None


def template_text(source: str) -> list[str]:
    """The text of a template a player sees that is not in a ``{% trans %}`` block or a
    ``{{ _() }}``: the template's own words, outside every tag (``\\x00`` where a tag was)."""
    env = Environment(extensions=["jinja2.ext.i18n", "jinja2.ext.do"])
    parts: list[str] = []
    in_trans = False
    in_comment = False
    previous = ""
    for _lineno, token, value in env.lex(source):
        if token == "comment_begin":
            in_comment = True
        elif token == "comment_end":
            in_comment = False
        elif token == "name" and previous == "block_begin" and value in ("trans", "pluralize"):
            in_trans = True
        elif token == "name" and previous == "block_begin" and value == "endtrans":
            in_trans = False
        elif token == "data" and not in_trans and not in_comment:
            parts.append(value)
        elif token in ("variable_begin", "block_begin") and not in_trans:
            parts.append("\x00")
        if token not in ("whitespace",):
            previous = token
    finder = _TextFinder()
    finder.feed("".join(parts))
    return [t.strip() for t in finder.found if _has_words(t)]


def _templates():
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in (".html", ".svg"))


def test_templates_show_no_untranslated_text():
    found = []
    for path in _templates():
        for text in template_text(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}: {text.replace(chr(0), '…')[:80]!r}")
    assert not found, f"{len(found)} template texts outside gettext:\n" + "\n".join(found[:80])


def test_the_template_check_sees_text_and_attributes():
    assert template_text("<p>Save the round</p>") == ["Save the round"]
    assert template_text('<img alt="A tile" src="x">') == ["A tile"]
    assert template_text("<p>{{ _('Save the round') }}</p>") == []
    assert template_text("<p>{% trans %}Save {{ n }} rounds{% endtrans %}</p>") == []
    assert template_text("<p>{{ name }} · 12</p>") == []
    assert template_text("{# a note #}<p>{{ x }}</p>") == []


# ---------------------------------------------------------------------------------------
# Python

#: Modules whose words are not for players: the terminal commands for
#: whoever runs the server, the photo reader's benchmark and training tools.
NOT_FOR_PLAYERS = {
    "cli.py",
    "__main__.py",
    "vision/evaluate.py",
}
TRANSLATED_CALLS = {"_", "gettext", "ngettext", "lazy_gettext", "_l", "lazy", "N_", "lazy_ngettext"}
#: Exceptions a player never reads (a programmer's message).
INTERNAL_EXCEPTIONS = {
    "ValueError",
    "TypeError",
    "RuntimeError",
    "KeyError",
    "AssertionError",
    "LookupError",
    "NotImplementedError",
    "AttributeError",
    "IndexError",
    "OSError",
}
#: Keyword arguments whose text is shown (a label, a button's words, a validator's message).
SHOWN_KEYWORDS = {"label", "description", "message", "placeholder", "title", "text"}
#: Prose: two words or more, a capital or a sentence's punctuation.
PROSE = re.compile(r"[A-Za-z]{2,}[ ,.:;!?'’()…-]+[A-Za-z]{2,}")
NOT_PROSE = re.compile(
    r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|WITH|PRAGMA|BEGIN)\b|^[/#.]|https?://|"
    r"^[\w.-]+$|[{};]\s*$|^[a-z0-9_-]+( [a-z0-9_-]+)*$|^\s*<|%\(\w+\)s$|"
    r"\.(html|svg|js|css|txt|csv|json|py)$|->"
)


def _python_modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in NOT_FOR_PLAYERS or relative.startswith("vision/synth"):
            continue
        yield path


class _ProseFinder(ast.NodeVisitor):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.found: list[tuple[int, str]] = []
        self._quiet = 0

    def _pragma(self, node: ast.AST) -> bool:
        first = node.lineno - 1
        last = (node.end_lineno or node.lineno) - 1
        return any("# i18n:" in self.lines[i] for i in range(first, min(last + 2, len(self.lines))))

    def visit_Expr(self, node: ast.Expr):
        # A string standing alone as a statement is a docstring (or a note): never shown.
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        name = (
            node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        )
        owner = node.func.value if isinstance(node.func, ast.Attribute) else None
        owner_name = getattr(owner, "id", "") if owner is not None else ""
        quiet = (
            name in TRANSLATED_CALLS
            or name in INTERNAL_EXCEPTIONS
            or owner_name in ("logger", "log", "logging", "log_event")
            or name
            in ("getLogger", "warn", "exec_driver_sql", "text", "execute", "strftime", "strptime")
        )
        if not quiet:
            # A single word shown as a label is prose too: a form field's label, a button.
            shown = [*node.args[:1]] if name.endswith("Field") or name == "flash" else []
            shown += [k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS]
            for value in shown:
                if (
                    isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and re.search(r"[A-Za-z]{2,}", value.value)
                    and not PROSE.search(value.value)
                    and not self._pragma(value)
                ):
                    self.found.append((value.lineno, value.value))
        if quiet:
            self._quiet += 1
        self.generic_visit(node)
        if quiet:
            self._quiet -= 1

    def visit_Constant(self, node: ast.Constant):
        if (
            isinstance(node.value, str)
            and not self._quiet
            and PROSE.search(node.value)
            and not NOT_PROSE.search(node.value)
            and not self._pragma(node)
        ):
            self.found.append((node.lineno, node.value))

    def visit_JoinedStr(self, node: ast.JoinedStr):
        text = "".join(v.value if isinstance(v, ast.Constant) else "…" for v in node.values)
        if (
            not self._quiet
            and PROSE.search(text)
            and not NOT_PROSE.search(text)
            and not self._pragma(node)
        ):
            self.found.append((node.lineno, text))
        # The parts are not looked at again one by one.


def python_prose(source: str) -> list[tuple[int, str]]:
    finder = _ProseFinder(source.splitlines())
    finder.visit(ast.parse(source))
    return finder.found


def test_python_shows_no_untranslated_prose():
    found = []
    for path in _python_modules():
        for lineno, text in python_prose(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{lineno}: {text[:70]!r}")
    assert not found, (
        f"{len(found)} sentences outside gettext (wrap them, or mark a line that is not for "
        "players with `# i18n: <why>`):\n" + "\n".join(found[:100])
    )


def test_the_python_check_sees_prose():
    assert python_prose('flash("Round saved.")') == [(1, "Round saved.")]
    assert python_prose('flash(_("Round saved."))') == []
    assert python_prose('x = f"Round {n} saved"') == [(1, "Round … saved")]
    assert python_prose('raise ValueError("not a tile here")') == []
    assert python_prose('def f():\n    """A docstring, not shown."""\n') == []
    assert python_prose('COLUMNS = ("Went out",)  # i18n: CSV column') == []
    assert python_prose('kind = "mexican_train"') == []
    assert python_prose('save = SubmitField("Save")') == [(1, "Save")]
    assert python_prose('save = SubmitField(_l("Save"))') == []
    assert python_prose('Length(max=40, message="Shorter")') == [(1, "Shorter")]
