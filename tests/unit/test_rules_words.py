"""The rules word their sentences in the player's language (``rules.words``): with a translator
installed, a deal sentence, a "Rules in play" line, a rule's label and a typing error come out
in that language; without one they stay English. The tile notation also reads the Spanish and
French words for tiles."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorekeeper.rules import words
from scorekeeper.rules.games import VARIANTS
from scorekeeper.rules.house import HOUSE_RULES, RULE_LABELS, HouseRules
from scorekeeper.rules.notation import HandError, parse_hand
from scorekeeper.rules.placings import ordinal
from scorekeeper.rules.schedule import deal_plan, deal_text
from scorekeeper.rules.tiles import Tile

#: A small Spanish catalog, as Flask-Babel would give it: translated text, placeholders unfilled.
SPANISH = {
    "Set": "Juego de fichas",
    "Set: %(set)s": "Juego de fichas: %(set)s",
    "double-%(number)s": "doble %(number)s",
    "Mexican Train": "Tren Mexicano",
    "Going-out bonus: none": "Bonificación por salir: ninguna",
    "is not a tile": "no es una ficha",
    '"%(piece)s" %(reason)s': '"%(piece)s" %(reason)s',
    "%(n)snd": "%(n)s.º",
}
SPANISH_PLURALS = {
    "Take out the %(tile)s and put it in the hub, shuffle, deal %(tiles)s each; %(num)s "
    "stays in the boneyard": (
        "Aparte la %(tile)s y póngala en la estación, mezcle y reparta %(tiles)s a cada uno; "
        "queda %(num)s en el pozo",
        "Aparte la %(tile)s y póngala en la estación, mezcle y reparta %(tiles)s a cada uno; "
        "quedan %(num)s en el pozo",
    ),
}


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


@pytest.fixture
def spanish() -> Iterator[None]:
    def gettext(message: str) -> str:
        return SPANISH.get(message, message)

    def ngettext(singular: str, plural: str, n: int) -> str:
        forms = SPANISH_PLURALS.get(singular)
        if forms is None:
            return _english_plural(singular, plural, n)
        return forms[0] if n == 1 else forms[1]

    words.install(gettext, ngettext)
    try:
        yield
    finally:
        words.install(_english, _english_plural)


def test_a_deal_sentence_comes_out_in_spanish(spanish: None) -> None:
    rules = HouseRules()
    text = deal_text(deal_plan(4, rules), rules, engine=12)
    assert text == (
        "Aparte la 12-12 y póngala en la estación, mezcle y reparta 15 a cada uno; "
        "quedan 30 en el pozo"
    )


def test_rules_in_play_come_out_in_spanish(spanish: None) -> None:
    lines = VARIANTS["mexican_train"].in_play(HouseRules())
    assert "Juego de fichas: doble 12" in lines
    assert "Bonificación por salir: ninguna" in lines
    # A line with no translation yet stays English rather than failing.
    assert "Deal: standard table" in lines


def test_labels_declared_at_import_are_worded_when_shown(spanish: None) -> None:
    assert HOUSE_RULES["max_pip"].label_in("mexican_train") == "Juego de fichas"
    assert str(RULE_LABELS["max_pip"]) == "Juego de fichas"
    assert f"{VARIANTS['mexican_train'].label}" == "Tren Mexicano"
    # Keys stay the English message: a dict keyed by a label works in every language.
    assert hash(RULE_LABELS["max_pip"]) == hash("Set")


def test_a_typing_error_comes_out_in_spanish(spanish: None) -> None:
    with pytest.raises(HandError) as caught:
        parse_hand("12-5, hola", max_pip=12)
    assert caught.value.message == '"hola" no es una ficha'
    assert ordinal(2) == "2.º"


def test_without_a_translator_the_rules_speak_english() -> None:
    rules = HouseRules()
    assert "Set: double-12" in VARIANTS["mexican_train"].in_play(rules)
    assert deal_text(deal_plan(4, rules), rules, engine=12).startswith("Take out the 12-12")
    assert str(RULE_LABELS["max_pip"]) == "Set"
    assert ordinal(2) == "2nd"


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("doble blanca", [Tile(0, 0)]),
        ("double blanc", [Tile(0, 0)]),
        ("Doble Seis, blanca-4", [Tile(6, 6), Tile(0, 4)]),
        ("double six, cinq-trois", [Tile(6, 6), Tile(3, 5)]),
        ("blanc-douze, doble doce", [Tile(0, 12), Tile(12, 12)]),
        ("dieciséis-quince, seize-quinze", [Tile(15, 16), Tile(15, 16)]),
        # English keeps working.
        ("12-5, 3/4, double blank", [Tile(5, 12), Tile(3, 4), Tile(0, 0)]),
    ],
)
def test_spanish_and_french_tile_words(text: str, tiles: list[Tile]) -> None:
    assert parse_hand(text, max_pip=18) == tiles
