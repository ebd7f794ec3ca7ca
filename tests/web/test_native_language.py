"""Spanish and French as native players read them (issue 36, items 23 to 30), on rendered
pages: the plural goes by the number the noun counts, numbers are written the language's way,
lists of names are joined the language's way, names take the article and elision they need.

    .venv/bin/python -m pytest -q tests/web/test_native_language.py
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import start_league, start_night, text_of
from tests.web.test_leagues import hand_league, settings_data

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


def test_tie_notes_write_numbers_the_languages_way(client: FlaskClient) -> None:
    """Item 23: "Empatado a 60,0", "À égalité à 60,0", as the averages beside them; never
    "60.0" in Spanish or French."""
    code, _, _ = hand_league(client)
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="3"))
    english = _text(client, f"/leagues/{code}", "en")
    assert "Level on 60.0 with the place above" in english
    for language in ("es", "fr"):
        page = client.get(f"/leagues/{code}", headers={"Accept-Language": language})
        notes = re.findall(r'class="hint tie-note">([^<]*)<', page.get_data(as_text=True))
        assert notes, language
        assert any("60,0" in note for note in notes), (language, notes)
        assert not any(re.search(r"\d\.\d", note) for note in notes), (language, notes)


def test_co_winners_are_joined_as_the_language_joins_names(client: FlaskClient) -> None:
    """Item 28: Babel's list format, never "Ana & Bruno & Carla"; Spanish "e" before "I"."""
    game = start_game(client, ["Ana", "Bruno", "Isabel", "Zoë"])
    played = enter_round(client, game, points={0: 10, 1: 10, 2: 10, 3: 30}, went_out="blocked")
    assert played.status_code == 302
    assert client.post(f"/g/{game}/finish").status_code == 302
    expected = {
        "en": "Ana, Bruno and Isabel",
        "es": "Ana, Bruno e Isabel",
        "fr": "Ana, Bruno et Isabel",
    }
    for language, names in expected.items():
        for path in (f"/g/{game}/summary", f"/g/{game}/watch", f"/g/{game}/print"):
            page = _text(client, path, language)
            assert names in page, (language, path)
            assert "&" not in page.replace("&amp;", ""), (language, path)


def test_ordinals_agree_with_the_game_they_count(client: FlaskClient) -> None:
    """Item 25: "a partir de su 3.ª partida" (not "su partida 3.º"), "sa 3e partie"."""
    code, _, _ = hand_league(client)
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="3"))
    assert "ranked from their 3rd game." in _text(client, f"/leagues/{code}", "en")
    assert "a partir de su 3.ª partida." in _text(client, f"/leagues/{code}", "es")
    assert "à partir de sa 3e partie." in _text(client, f"/leagues/{code}", "fr")


def test_french_elides_de_before_a_name(client: FlaskClient) -> None:
    """Item 27: "la partie d’Ana", never "de Ana"; "de Bob" stays."""
    game = start_game(client, ["Ana", "Bob", "Cy"])
    french = _text(client, f"/g/{game}/delete", "fr")
    assert "La partie d’Ana, Bob" in french
    assert "de Ana" not in french
    other = start_game(client, ["Bob", "Ana", "Cy"])
    assert "La partie de Bob, Ana" in _text(client, f"/g/{other}/delete", "fr")
    assert "La partida de Ana, Bob" in _text(client, f"/g/{game}/delete", "es")


def test_french_writes_the_first_of_a_month_1er(client: FlaskClient) -> None:
    """Item 27: "samedi 1er mars 2025"; the 11th stays "11"."""
    code = start_league(client)
    start_night(client, code, "2025-03-01")
    start_night(client, code, "2025-03-11")
    french = _text(client, f"/leagues/{code}/nights", "fr")
    assert "1er mars 2025" in french
    assert "11 mars 2025" in french
    assert "1 mar 2025" in _text(client, f"/leagues/{code}/nights", "es")


def test_the_https_notice_is_put_away_in_the_pages_language(client: FlaskClient) -> None:
    """Item 29: the notice's "OK" is translated."""
    expected = {"en": ">OK</button>", "es": ">Entendido</button>", "fr": ">J’ai compris</button>"}
    for language, button in expected.items():
        page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
        notice = page.split('id="https-notice"', 1)[1].split("</aside>", 1)[0]
        assert button in notice, language
