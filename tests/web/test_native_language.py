"""Spanish and French as native players read them (issue 36, items 23 to 30), on rendered
pages: the plural goes by the number the noun counts, numbers are written the language's way,
lists of names are joined the language's way, names take the article and elision they need.

    .venv/bin/python -m pytest -q tests/web/test_native_language.py
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import text_of

NBSP = "\u00a0"


def _text(client: FlaskClient, path: str, language: str) -> str:
    page = client.get(path, headers={"Accept-Language": language}).get_data(as_text=True)
    return text_of(page)


def test_rounds_played_take_the_plural_of_the_rounds_played(client: FlaskClient) -> None:
    """Item 24: "1 manche sur 13", never "1 manches sur 13"; "3 manches sur 13"."""
    game = start_game(client, ["Ann", "Bob", "Cy"])
    assert enter_round(client, game, points={1: 12, 2: 30}, went_out=0).status_code == 302
    for path in (f"/g/{game}/scoreboard", f"/g/{game}/watch"):
        french = _text(client, path, "fr")
        assert "1 manche sur 13" in french, path
        assert "manches sur 13" not in french, path
        assert "1 de 13 rondas" in _text(client, path, "es"), path
    for _ in range(2):
        assert enter_round(client, game, points={1: 5, 2: 7}, went_out=0).status_code == 302
    assert "3 manches sur 13" in _text(client, f"/g/{game}/scoreboard", "fr")
