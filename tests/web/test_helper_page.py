"""The table helper page through the Flask test client, bad input included."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


def test_start_page_links_to_the_helper_and_a_new_game(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/helper"' in page
    assert 'href="/games/new"' in page


def test_defaults_show_a_double_12_table_for_four(client: FlaskClient) -> None:
    response = client.get("/helper")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "deal 15 each; 30 stay in the boneyard" in page
    assert page.count('class="round"') == 13


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("max_pip=12&players=8", "deal 10 each; 10 stay in the boneyard"),
        ("max_pip=12&players=8&deal_table=cardinal", "deal 11 each; 2 stay in the boneyard"),
        ("max_pip=9&players=4", "deal 9 each; 18 stay in the boneyard"),
        ("max_pip=6&players=2", "deal 9 each; 9 stay in the boneyard"),
        ("max_pip=15&players=12", "deal 11 each; 3 stay in the boneyard"),
        ("max_pip=18&players=13", "deal 11 each; 46 stay in the boneyard"),
    ],
)
def test_deal_for_set_and_players(client: FlaskClient, query: str, expected: str) -> None:
    assert expected in client.get(f"/helper?{query}").get_data(as_text=True)


def test_more_players_than_hub_spokes_is_allowed_with_a_warning(client: FlaskClient) -> None:
    page = client.get("/helper?max_pip=12&players=9").get_data(as_text=True)
    assert "deal 8 each" in page
    assert "notice warning" in page


def test_computed_suggestion_is_labelled(client: FlaskClient) -> None:
    page = client.get("/helper?max_pip=18&players=6").get_data(as_text=True)
    assert "computed suggestion" in page


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("max_pip=6&players=5", "double-6"),
        ("max_pip=12&players=1", "from 2 to 16"),
        ("max_pip=12&players=abc", "from 2 to 16"),
        ("max_pip=12&players=", "how many people"),
        ("max_pip=12&players=99999999999999999999", "from 2 to 16"),
    ],
)
def test_bad_player_counts_get_a_message_and_keep_the_input(
    client: FlaskClient, query: str, message: str
) -> None:
    response = client.get(f"/helper?{query}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'class="field-error"' in page
    assert message in page


@pytest.mark.parametrize("bad_set", ["7", "abc", "-1", ""])
def test_unknown_set_is_an_error_not_a_crash(client: FlaskClient, bad_set: str) -> None:
    response = client.get(f"/helper?max_pip={bad_set}&players=4&hand=3-4")
    assert response.status_code == 200
    assert 'class="field-error"' in response.get_data(as_text=True)


def test_count_a_hand_with_the_double_blank_rule(client: FlaskClient) -> None:
    page = client.get(
        "/helper?max_pip=12&players=4&hand=12-5%2C+3%2F4%2C+double+blank&double_blank=50"
    ).get_data(as_text=True)
    assert '<span class="big">74</span>' in page
    assert "5-12, 3-4, 0-0" in page


def test_count_error_names_the_text_and_keeps_it(client: FlaskClient) -> None:
    page = client.get("/helper?max_pip=12&players=4&hand=12-5%2C+13-2").get_data(as_text=True)
    assert "&#34;13&#34; is not on a double-12 set" in page
    assert "12-5, 13-2</textarea>" in page


def test_count_partial_for_htmx(client: FlaskClient) -> None:
    response = client.get("/helper/count?max_pip=9&hand=64+55")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.lstrip().startswith('<div id="hand-count"')
    assert '<span class="big">20</span>' in page


@pytest.mark.parametrize(
    "hand", ["7", "112", "foo", "[3|5", "double", "3-", "-", "x\x00", "9" * 5000, "😀"]
)
def test_any_hand_text_gets_an_answer_never_a_500(client: FlaskClient, hand: str) -> None:
    response = client.get("/helper/count", query_string={"max_pip": "12", "hand": hand})
    assert response.status_code == 200
    assert "notice error" in response.get_data(as_text=True)


def test_security_headers(client: FlaskClient) -> None:
    response = client.get("/helper")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "Page not found" in response.get_data(as_text=True)
