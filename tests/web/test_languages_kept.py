"""What a game's pages keep per version is kept per language (issue 25): the same version of a
game, asked in English, then Spanish, then English again, reads in each phone's language, never
in the language of whoever asked first."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.helpers import start_game


def _rules_in_play(html: str) -> list[str]:
    block = re.search(r"<summary class=\"label\">.*?</summary>\s*<ul>(.*?)</ul>", html, re.S)
    assert block, "the table view lists the rules in play"
    return re.findall(r"<li>(.*?)</li>", block.group(1), re.S)


def test_the_rules_in_play_follow_each_phone_not_the_first(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    english = client.get(f"/g/{public_id}").get_data(as_text=True)
    spanish = client.get(f"/g/{public_id}", headers={"Accept-Language": "es"}).get_data(
        as_text=True
    )
    again = client.get(f"/g/{public_id}").get_data(as_text=True)

    assert 'lang="es"' in spanish and "Reglas en juego" in spanish
    lines_en, lines_es = _rules_in_play(english), _rules_in_play(spanish)
    assert lines_en and len(lines_es) == len(lines_en)
    assert not set(lines_en) & set(lines_es), "no rule line stays English in Spanish"
    assert _rules_in_play(again) == lines_en


def test_a_polled_page_is_not_304_after_a_change_of_language(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob"])
    first = client.get(f"/g/{public_id}/watch/board")
    etag = first.headers["ETag"]
    same = client.get(f"/g/{public_id}/watch/board", headers={"If-None-Match": etag})
    assert same.status_code == 304
    other = client.get(
        f"/g/{public_id}/watch/board",
        headers={"If-None-Match": etag, "Accept-Language": "fr"},
    )
    assert other.status_code == 200 and other.headers["ETag"] != etag
