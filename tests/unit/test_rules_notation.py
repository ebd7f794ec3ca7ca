"""Typing a hand: every notation of rules.md section 3, separators and errors."""

from __future__ import annotations

import pytest

from scorekeeper.rules import HandError, Tile, format_hand, parse_hand, tile_label

# rules.md 3: "All of these must parse to the same tile" (grouped by tile).
SAME_TILE = [
    ("3-5", Tile(3, 5)),
    ("5-3", Tile(3, 5)),
    ("3/5", Tile(3, 5)),
    ("3:5", Tile(3, 5)),
    ("3|5", Tile(3, 5)),
    ("[3|5]", Tile(3, 5)),
    ("(3 5)", Tile(3, 5)),
    ("3x5", Tile(3, 5)),
    ("three-five", Tile(3, 5)),
    ("blank-4", Tile(0, 4)),
    ("4-blank", Tile(0, 4)),
    ("0-4", Tile(0, 4)),
    ("double 6", Tile(6, 6)),
    ("double-six", Tile(6, 6)),
    ("dbl 6", Tile(6, 6)),
    ("double blank", Tile(0, 0)),
    ("double zero", Tile(0, 0)),
]

MORE_FORMS = [
    ("THREE-FIVE", Tile(3, 5)),
    ("Blank-4", Tile(0, 4)),
    ("DOUBLE SIX", Tile(6, 6)),
    ("Dbl. 6", Tile(6, 6)),
    ("dbl.6", Tile(6, 6)),
    ("double6", Tile(6, 6)),
    ("3 - 5", Tile(3, 5)),
    ("3 x 5", Tile(3, 5)),
    ("3X5", Tile(3, 5)),
    ("3\u20135", Tile(3, 5)),  # en dash from a phone keyboard
    ("3\u00d75", Tile(3, 5)),  # multiplication sign
    ("(3, 5)", Tile(3, 5)),
    ("[3 5]", Tile(3, 5)),
    ("(double 6)", Tile(6, 6)),
    ("none-4", Tile(0, 4)),
    ("nil-4", Tile(0, 4)),
    ("twelve-eleven", Tile(11, 12)),
    ("  3-5  ", Tile(3, 5)),
    ("12-12", Tile(12, 12)),
]


@pytest.mark.parametrize(("text", "tile"), SAME_TILE + MORE_FORMS)
def test_notation(text: str, tile: Tile) -> None:
    assert parse_hand(text) == [tile]


WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
]


@pytest.mark.parametrize(("value", "word"), list(enumerate(WORDS)))
def test_number_words(value: int, word: str) -> None:
    assert parse_hand(f"{word}-blank", max_pip=18) == [Tile(value, 0)]
    assert parse_hand(f"double {word}", max_pip=18) == [Tile(value, value)]


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("", []),
        ("   ", []),
        (",;\n+", []),
        ("12-5 3/4 double blank", [Tile(5, 12), Tile(3, 4), Tile(0, 0)]),
        ("3-5,4-6", [Tile(3, 5), Tile(4, 6)]),
        ("3-5; 4-6", [Tile(3, 5), Tile(4, 6)]),
        ("3-5 + 4-6", [Tile(3, 5), Tile(4, 6)]),
        ("3-5\n4-6\r\n0-1", [Tile(3, 5), Tile(4, 6), Tile(0, 1)]),
        ("3-5 4-6", [Tile(3, 5), Tile(4, 6)]),
        ("3-5, , 4-6,", [Tile(3, 5), Tile(4, 6)]),
        ("[3|5][4|6]", [Tile(3, 5), Tile(4, 6)]),
        ("(3 5) (4 6)", [Tile(3, 5), Tile(4, 6)]),
        ("double 6 double six", [Tile(6, 6), Tile(6, 6)]),
        ("3-5 3-5", [Tile(3, 5), Tile(3, 5)]),  # duplicates are the validator's job
    ],
)
def test_separators(text: str, tiles: list[Tile]) -> None:
    assert parse_hand(text) == tiles


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("64", [Tile(4, 6)]),
        ("00", [Tile(0, 0)]),
        ("64 53, 99", [Tile(4, 6), Tile(3, 5), Tile(9, 9)]),
        ("[64]", [Tile(4, 6)]),
        ("12", [Tile(1, 2)]),
    ],
)
def test_digits_together_on_double_9(text: str, tiles: list[Tile]) -> None:
    assert parse_hand(text, max_pip=9) == tiles


def test_digits_together_on_double_6() -> None:
    assert parse_hand("64", max_pip=6) == [Tile(4, 6)]


@pytest.mark.parametrize(
    ("text", "max_pip", "piece", "says"),
    [
        ("7", 12, "7", '"7" is a single number, not a tile: did you mean a total?'),
        ("3-5 7", 12, "7", "did you mean a total?"),
        ("3 5", 12, "3", "single number"),
        ("seven", 12, "seven", "single number"),
        ("12", 12, "12", "For a tile, write 1-2"),
        ("13", 12, "13", '"13" is not on a double-12 set'),
        ("13-2", 12, "13-2", '"13" is not on a double-12 set'),
        ("thirteen-2", 12, "thirteen-2", '"thirteen" is not on a double-12 set'),
        ("double 13", 12, "double 13", '"13" is not on a double-12 set'),
        ("7-1", 6, "7-1", '"7" is not on a double-6 set'),
        ("7", 6, "7", "not on a double-6 set"),
        ("112", 12, "112", '"112" is ambiguous on a double-12 set: write 1-12 or 11-2'),
        ("64", 12, "64", "write 6-4"),
        ("112", 9, "112", "is not a tile"),
        ("foo", 12, "foo", '"foo" is not a tile'),
        ("3-5, foo", 12, "foo", '"foo" is not a tile'),
        ("3-foo", 12, "3-foo", '"foo" is not a number'),
        ("3-5-6", 12, "3-5-6", "two numbers"),
        ("3-", 12, "3-", "a number is missing"),
        ("- 5", 12, "- 5", "a number is missing"),
        ("(3 5", 12, "(3 5", "not closed"),
        ("(3 5]", 12, "(3 5]", "not closed"),
        ("3-5)", 12, "3-5)", "no partner"),
        ("((3 5))", 12, "((3 5))", "brackets inside brackets"),
        ("()", 12, "()", "empty"),
        ("double", 12, "double", "double what?"),
        ("3-5 double", 12, "double", "double what?"),
        ("double 6-5", 12, "double 6-5", "write a double as double 6 or 6-6"),
        ("6-double", 12, "6-double", "write a double"),
        ("3.5", 12, "3.5", "is not a tile"),
        ("Foo Bar", 12, "Foo", '"Foo" is not a tile'),
    ],
)
def test_errors_name_the_text(text: str, max_pip: int, piece: str, says: str) -> None:
    with pytest.raises(HandError) as caught:
        parse_hand(text, max_pip=max_pip)
    error = caught.value
    assert error.text == piece
    assert says in str(error)
    assert f'"{piece}"' in str(error)
    assert error.reason
    assert error.position == text.index(piece)
    assert isinstance(error, ValueError)


def test_hand_error_names_the_first_bad_piece() -> None:
    with pytest.raises(HandError) as caught:
        parse_hand("3-5, 7, foo")
    assert caught.value.text == "7"


def test_parse_rejects_non_text() -> None:
    with pytest.raises(TypeError):
        parse_hand(None)  # type: ignore[arg-type]


def test_format_hand_is_canonical_and_in_order() -> None:
    assert format_hand([Tile(4, 0), Tile(5, 3)]) == "0-4, 3-5"
    assert format_hand([]) == ""


@pytest.mark.parametrize(
    ("tile", "label"),
    [
        (Tile(6, 6), "double 6"),
        (Tile(0, 0), "double blank"),
        (Tile(4, 0), "blank-4"),
        (Tile(5, 3), "3-5"),
    ],
)
def test_tile_label(tile: Tile, label: str) -> None:
    assert tile_label(tile) == label
    assert parse_hand(label) == [tile]


def test_a_huge_number_is_not_a_tile_and_does_not_crash() -> None:
    with pytest.raises(HandError, match="is not a tile"):
        parse_hand("9" * 5000)


# Issue 36, item 30: what players type in Spanish and French (Mexican players call a double a
# "mula": "la mula de seis", "la mula de blancas").
IN_THEIR_LANGUAGE = [
    ("mula de 6", Tile(6, 6)),
    ("Mula de seis", Tile(6, 6)),
    ("mula de seises", Tile(6, 6)),
    ("mula 6", Tile(6, 6)),
    ("mula de blancas", Tile(0, 0)),
    ("mula de ases", Tile(1, 1)),
    ("doble 6", Tile(6, 6)),
    ("doble seis", Tile(6, 6)),
    ("doble de 6", Tile(6, 6)),
    ("doble blanco", Tile(0, 0)),
    ("doble blanca", Tile(0, 0)),
    ("blanca-4", Tile(0, 4)),
    ("cinco-tres", Tile(3, 5)),
    ("double 6", Tile(6, 6)),
    ("double six", Tile(6, 6)),
    ("double blanc", Tile(0, 0)),
    ("blanc-4", Tile(0, 4)),
    ("(mula de 12)", Tile(12, 12)),
]


@pytest.mark.parametrize(("text", "tile"), IN_THEIR_LANGUAGE)
def test_spanish_and_french_words(text: str, tile: Tile) -> None:
    assert parse_hand(text) == [tile]


def test_spanish_and_french_hands() -> None:
    assert parse_hand("mula de 6, doble 5 double blanc blanca-3") == [
        Tile(6, 6),
        Tile(5, 5),
        Tile(0, 0),
        Tile(0, 3),
    ]
    assert parse_hand("mula de seis mula de blancas") == [Tile(6, 6), Tile(0, 0)]


@pytest.mark.parametrize("text", ["mula de", "6 de 5", "de 6", "mula de 6-5"])
def test_de_only_names_a_double(text: str) -> None:
    with pytest.raises(HandError):
        parse_hand(text)
