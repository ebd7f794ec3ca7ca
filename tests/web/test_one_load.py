"""One load per request: a write or a page works out what it needs of a game (its rules, its
variant, its rows) once (``games.loaded.load``) and passes that value down, instead of every
service asking again."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.games import rows, setup
from tests.web.helpers import enter_round, round_data, round_form_fields, start_game

WATCHED = {"game_rules": setup.game_rules, "variant_of": setup.variant_of, "rows": rows.table}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often each of ``WATCHED`` is called, under whatever name a module imported it."""
    counted: Counter[str] = Counter()

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return function(*args, **kwargs)

        return wrapper

    wrappers = {id(function): counting(name, function) for name, function in WATCHED.items()}
    originals = {id(function) for function in WATCHED.values()}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("scorekeeper"):
            continue
        for attribute, value in list(vars(module).items()):
            if id(value) in originals and callable(value):
                monkeypatch.setattr(module, attribute, wrappers[id(value)])
    yield counted


def _game_with_a_round(client: FlaskClient) -> str:
    public_id = start_game(client, ["Ana", "Ben", "Cy"])
    assert enter_round(client, public_id, {0: 0, 1: 5, 2: 7}, went_out=0).status_code == 302
    client.get(f"/g/{public_id}")  # this version's rows kept, as after any look at the table
    return public_id


def test_saving_a_round_works_out_the_games_rules_variant_and_rows_once(
    client: FlaskClient, calls: Counter[str]
) -> None:
    public_id = _game_with_a_round(client)
    data = round_data({0: 3, 1: 0, 2: 9}, went_out=1)
    data.update(round_form_fields(client, public_id))
    calls.clear()
    response = client.post(f"/g/{public_id}/round", data=data)
    assert response.status_code == 302
    assert dict(calls) == {"game_rules": 1, "variant_of": 1, "rows": 1}


def test_a_refused_round_works_them_out_once(client: FlaskClient, calls: Counter[str]) -> None:
    public_id = _game_with_a_round(client)
    data = round_data({0: 3, 1: 0}, went_out=1)  # a player left out
    data.update(round_form_fields(client, public_id))
    calls.clear()
    assert client.post(f"/g/{public_id}/round", data=data).status_code == 422
    assert dict(calls) == {"game_rules": 1, "variant_of": 1, "rows": 1}


def test_the_round_form_and_the_live_check_work_them_out_once(
    client: FlaskClient, calls: Counter[str]
) -> None:
    public_id = _game_with_a_round(client)
    calls.clear()
    assert client.get(f"/g/{public_id}/round").status_code == 200
    assert dict(calls) == {"game_rules": 1, "variant_of": 1, "rows": 1}
    calls.clear()
    data = round_data({0: 3, 1: 0}, went_out=1)
    assert client.post(f"/g/{public_id}/round/check", data=data).status_code == 200
    assert dict(calls) == {"game_rules": 1, "variant_of": 1, "rows": 1}


@pytest.mark.parametrize("page", ["/g/{id}", "/g/{id}/scoreboard", "/g/{id}/watch"])
def test_a_page_works_them_out_once(client: FlaskClient, calls: Counter[str], page: str) -> None:
    public_id = _game_with_a_round(client)
    url = page.format(id=public_id)
    calls.clear()
    assert client.get(url).status_code == 200
    assert dict(calls) == {"game_rules": 1, "variant_of": 1, "rows": 1}


def test_a_correction_works_them_out_once(client: FlaskClient, calls: Counter[str]) -> None:
    public_id = _game_with_a_round(client)
    data = round_data({0: 0, 1: 6, 2: 7}, went_out=0)
    data.update(round_form_fields(client, public_id, 1))
    calls.clear()
    assert client.post(f"/g/{public_id}/rounds/1", data=data).status_code == 302
    assert dict(calls) == {"game_rules": 1, "variant_of": 1, "rows": 1}


@pytest.mark.parametrize("action", ["join", "finish"])
def test_a_write_from_the_table_works_them_out_once(
    client: FlaskClient, calls: Counter[str], action: str
) -> None:
    public_id = _game_with_a_round(client)
    calls.clear()
    data = {"name": "Di"} if action == "join" else {}
    assert client.post(f"/g/{public_id}/{action}", data=data).status_code == 302
    assert calls["game_rules"] == 1 and calls["variant_of"] == 1 and calls["rows"] <= 1
