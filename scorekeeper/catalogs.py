"""The translation catalogs: extract every sentence the app shows, update each language's
catalog, compile them for the server (``python -m scorekeeper.catalogs extract|update|compile``,
``init LANG`` for a new language; the Makefile's ``messages``, ``translations`` and
``new-language`` run these).

One extraction for Python, templates and scripts, with one set of keywords, so that what the
Makefile extracts and what the catalog test compares are the same list.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from scorekeeper.web.i18n import KEYWORDS, SCRIPTS, TRANSLATIONS

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
TEMPLATE = TRANSLATIONS / "messages.pot"

#: (folder, method map): where the sentences are and how each kind of file is read.
SOURCES: tuple[tuple[Path, list[tuple[str, str]]], ...] = (
    (PACKAGE, [("vision/**", "ignore"), ("**.py", "python")]),
    (PACKAGE / "vision", [("**.py", "python")]),
    (
        ROOT / "templates",
        [("**.html", "jinja2.ext:babel_extract"), ("**.svg", "jinja2.ext:babel_extract")],
    ),
    (ROOT / "static", SCRIPTS),
)
JINJA_OPTIONS = {"extensions": "jinja2.ext.do", "trimmed": "true"}


def languages() -> list[str]:
    """The translated languages (each a folder under translations/), English not included."""
    return sorted(p.name for p in TRANSLATIONS.iterdir() if (p / "LC_MESSAGES").is_dir())


def _extracted() -> Iterator[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    for folder, method_map in SOURCES:
        if not folder.is_dir():
            continue
        options = {pattern: JINJA_OPTIONS for pattern, method in method_map if "jinja2" in method}
        for filename, lineno, message, comments, context in extract_from_dir(
            str(folder),
            method_map,
            options_map=options,
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        ):
            where = str((folder / filename).relative_to(ROOT))
            yield where, lineno, message, comments, context


def extract() -> Catalog:
    """Every sentence the app shows, with where it is used."""
    catalog = Catalog(project="scorekeeper", msgid_bugs_address="", charset="utf-8")
    for where, lineno, message, comments, context in _extracted():
        catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return catalog


def read(language: str) -> Catalog:
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


def write(language: str, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, omit_header=False)
    (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").write_bytes(buffer.getvalue())


def update() -> None:
    """Write the template (messages.pot) and bring every language's catalog up to it: new
    sentences come in untranslated, sentences no longer used go (obsolete entries are not
    kept: the catalog test lists what is missing)."""
    template = extract()
    buffer = io.BytesIO()
    write_po(buffer, template, width=100, omit_header=False)
    TEMPLATE.write_bytes(buffer.getvalue())
    for language in languages():
        catalog = read(language)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(language, catalog)


def init(language: str) -> None:
    """Start a catalog for ``language`` (a Babel locale code such as ``de`` or ``pt_BR``)."""
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    if (folder / "messages.po").exists():
        sys.exit(f"{language} has a catalog already: {folder / 'messages.po'}")
    folder.mkdir(parents=True)
    catalog = Catalog(locale=language, project="scorekeeper", charset="utf-8")
    catalog.update(extract(), no_fuzzy_matching=True)
    write(language, catalog)
    print(f"Started {folder / 'messages.po'}: translate it, then `make translations`.")


def compile_all() -> None:
    """messages.po -> messages.mo for every language whose .mo is missing or older."""
    for language in languages():
        folder = TRANSLATIONS / language / "LC_MESSAGES"
        po, mo = folder / "messages.po", folder / "messages.mo"
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        catalog = read(language)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        mo.write_bytes(buffer.getvalue())


PARTS = ROOT / "translations-work"


def part(name: str, paths: list[str]) -> None:
    """For a translator working on some files at once: ``translations-work/NAME.<lang>.po``
    holds the sentences of ``paths`` (files or folders, from the project root), keeping what
    was already translated there; ``merge`` brings the parts into the catalogs."""
    wanted = [str((ROOT / p).resolve().relative_to(ROOT)) for p in paths]
    template = extract()
    PARTS.mkdir(exist_ok=True)
    for language in languages():
        target = PARTS / f"{name}.{language}.po"
        if target.exists():
            with open(target, "rb") as po:
                catalog = read_po(po, locale=language)
        else:
            catalog = Catalog(locale=language, project="scorekeeper", charset="utf-8")
        kept = {m.id: m for m in catalog if m.id}
        fresh = Catalog(locale=language, project="scorekeeper", charset="utf-8")
        main = read(language)
        for message in template:
            if not message.id or not any(
                where == w or where.startswith(w.rstrip("/") + "/")
                for where, _line in message.locations
                for w in wanted
            ):
                continue
            old = kept.get(message.id) or main.get(message.id)
            string = old.string if old is not None and not old.fuzzy else ""
            fresh.add(message.id, string, message.locations, auto_comments=message.auto_comments)
        buffer = io.BytesIO()
        write_po(buffer, fresh, width=100, omit_header=True)
        target.write_bytes(buffer.getvalue())
        todo = sum(
            1
            for m in fresh
            if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)
        )
        count = len([m for m in fresh if m.id])
        print(f"{target.relative_to(ROOT)}: {count} sentences, {todo} to translate")


def merge() -> None:
    """Bring every part's translations into the catalogs (the catalogs are updated first)."""
    update()
    for language in languages():
        catalog = read(language)
        for path in sorted(PARTS.glob(f"*.{language}.po")):
            with open(path, "rb") as po:
                for message in read_po(po, locale=language):
                    if not message.id or not message.string or message.fuzzy:
                        continue
                    target = catalog.get(message.id)
                    if target is not None:
                        target.string = message.string
                        target.flags.discard("fuzzy")
        write(language, catalog)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.catalogs")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="write translations/messages.pot")
    sub.add_parser("update", help="extract, then update every language's catalog")
    sub.add_parser("compile", help="compile every catalog for the server")
    new = sub.add_parser("init", help="start a catalog for a new language")
    new.add_argument("language")
    piece = sub.add_parser("part", help="a translator's part: the sentences of some files")
    piece.add_argument("name")
    piece.add_argument("paths", nargs="+")
    sub.add_parser("merge", help="bring translations-work/*.po into the catalogs")
    args = parser.parse_args(argv)
    if args.command == "extract":
        buffer = io.BytesIO()
        write_po(buffer, extract(), width=100, omit_header=False)
        TEMPLATE.write_bytes(buffer.getvalue())
    elif args.command == "update":
        update()
    elif args.command == "compile":
        compile_all()
    elif args.command == "part":
        part(args.name, args.paths)
    elif args.command == "merge":
        merge()
    else:
        init(args.language)


if __name__ == "__main__":
    main()
