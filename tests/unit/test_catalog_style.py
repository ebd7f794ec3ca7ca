"""The Spanish and French catalogs read as a native player writes (issue 36, items 25 to 29):
the glossary of docs/translations.md (one word per thing, the words that must not come back),
French spacing before ``: ; ? !`` and inside « », the Spanish double masculine, usted
throughout, one quote style per language.

    .venv/bin/python -m pytest -q tests/unit/test_catalog_style.py
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.unit.test_catalogs import read

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "translations.md"
TAG = re.compile(r"<[^>]*>")
NBSP, NNBSP = "\u00a0", "\u202f"


def translations(language: str) -> list[tuple[str, str]]:
    """(English, translation) of every entry, each plural form on its own; markup left out."""
    found = []
    for message in read(language):
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple | list) else [message.string]
        found.extend((english, TAG.sub(" ", text)) for text in strings if text)
    return found


def glossary() -> list[tuple[str, list[str], list[str]]]:
    """(English, never in Spanish, never in French) of each row of the glossary's table."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("English", "---"):
            continue
        never = [[w.strip() for w in cell.split(",") if w.strip()] for cell in cells[3:]]
        rows.append((cells[0], never[0], never[1]))
    return rows


def test_the_glossary_is_read() -> None:
    rows = dict((english, (es, fr)) for english, es, fr in glossary())
    assert "la doble" in rows["double"][0]
    assert "noter les scores" in rows["keep score (a phone)"][1]


@pytest.mark.parametrize(("language", "column"), [("es", 0), ("fr", 1)])
def test_the_glossarys_words_are_used(language: str, column: int) -> None:
    found = []
    texts = translations(language)
    for english, *never in glossary():
        for word in never[column]:
            pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
            found += [f"{english}: {word!r} in {t!r}" for _, t in texts if pattern.search(t)]
    assert not found, "\n".join(found[:40])


def test_french_spaces_before_the_high_punctuation_and_inside_guillemets() -> None:
    wrong = []
    for _english, text in translations("fr"):
        plain = re.sub(r"%\(\w+\)s|https?://\S+|\d:\d|&\w+;", "", text)
        for match in re.finditer(r"(.)([:;?!])(?=\s|$)", plain):
            before, mark = match.groups()
            wanted = NBSP if mark == ":" else NNBSP
            if before not in (NBSP, NNBSP) or (mark != ":" and before != wanted):
                wrong.append(f"{mark!r} after {before!r}: {text!r}")
        if re.search(rf"«[^{NBSP}]|[^{NBSP}]»", text):
            wrong.append(f"« » without no-break spaces: {text!r}")
    assert not wrong, f"{len(wrong)} places:\n" + "\n".join(wrong[:40])


def test_spanish_doubles_are_masculine() -> None:
    feminine = re.compile(
        r"\b(la|una|esa|esta|las|unas|primera|otra)\s+dobles?\b|"
        r"\bdobles?\s+(blancas?|abiertas?|más altas?|más bajas?)\b|"
        r"\b(la|una|de la|a la)\s+(\d+-\d+|%\((tile|first|last|high|engine)\)s)|"
        r"\bdoble que queda abierta\b",
        re.IGNORECASE,
    )
    found = [text for _, text in translations("es") if feminine.search(text)]
    assert not found, "\n".join(found[:40])


def test_spanish_says_usted() -> None:
    informal = re.compile(
        r"\b(ustedes|vosotros|vuestr[oa]s?|tienes|puedes|quieres|haz|pulsa|toca|tu|tus|"
        r"busquen|jueguen|pongan|elijan|miren)\b",
        re.IGNORECASE,
    )
    found = [text for _, text in translations("es") if informal.search(text)]
    assert not found, "\n".join(found[:40])


@pytest.mark.parametrize("language", ["es", "fr"])
def test_one_quote_style(language: str) -> None:
    found = [
        text
        for _, text in translations(language)
        if re.search(r"[\"“”]", text) or (language == "fr" and re.search(r"\w'\w", text))
    ]
    assert not found, "\n".join(found[:40])


def test_ordinals_agree_with_their_noun() -> None:
    spanish = dict(translations("es"))
    french = dict(translations("fr"))
    assert spanish["%(n)sth game"] == "%(n)s.ª partida"
    assert french["1st game"] == "1re partie"
    assert french["1st"] == "1er"


def test_names_and_labels_native_players_flagged() -> None:
    """Item 26 and 29: the games' names, the round column, the notice's button, the paper size
    and the README's section are said in the language."""
    spanish = dict(translations("es"))
    french = dict(translations("fr"))
    assert spanish["Draw"] == "Dominó con robo"
    assert "All Fives" not in spanish["All Fives (Muggins)"]
    assert "All Fives" not in french["All Fives (Muggins)"]
    assert french["Rd"] != "M."
    assert spanish["OK"] != "OK" and french["OK"] != "OK"
    sheet = "Or use your browser’s Print: the page fits one A4 or Letter sheet."
    assert "Letter" not in spanish[sheet] and "Letter " not in french[sheet]
    readme = 'The steps are in the README under "Use it at your table".'
    assert "Úselo en su mesa" in spanish[readme]
    assert "Utilisez-le à votre table" in french[readme]


@pytest.mark.parametrize(
    ("language", "bare"),
    [
        (
            "es",
            r"\b(en|de|Abrir|Seguir|Empezar|Quitar)\s+%\((table|round)\)s|"
            r"\ba %\(table\)s|^%\(table\)s \w",
        ),
        ("fr", r"(\bà|\bde|Ouvrir|Suivre|Commencer|Retirer)\s+%\((table|round)\)s|^%\(table\)s \w"),
    ],
)
def test_tables_and_rounds_take_the_article(language: str, bare: str) -> None:
    """Item 28: "en la Mesa 2", "à la Table 2", not "Anotar en Mesa 2"."""
    found = [text for _, text in translations(language) if re.search(bare, text)]
    assert not found, "\n".join(found[:40])
