"""Small actions for client tests: start a game, enter a round, read a form token."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

SETUP_DEFAULTS = {
    "max_pip": "12",
    "copies": "1",
    "order": "descending",
    "first_engine": "",
    "deal_table": "standard",
    "double_blank": "0",
    "blank_half": "0",
    "end_on_double": "allowed",
    "marker_penalty": "0",
    "going_out_bonus": "0",
    "start_rule": "rotate",
    "tie_break": "co_winners",
    "first_starter": "0",
    "action": "",
}


def setup_data(names: list[str], **rules: Any) -> dict[str, str]:
    data = dict(SETUP_DEFAULTS)
    data.update({key: str(value) for key, value in rules.items()})
    data.update({f"names-{i}": name for i, name in enumerate(names)})
    return data


def start_game(client: FlaskClient, names: list[str], **rules: Any) -> str:
    """Create a game through the setup form; returns its public id."""
    response = client.post("/games/new", data=setup_data(names, **rules))
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def form_token(client: FlaskClient, public_id: str) -> str:
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    match = re.search(r'name="form_token" type="hidden" value="([^"]+)"', page)
    assert match, page
    return match.group(1)


def round_data(
    points: dict[int, Any] | None = None,
    tiles: dict[int, str] | None = None,
    went_out: int | str | None = None,
    **extra: Any,
) -> dict[str, str]:
    data: dict[str, str] = {}
    for position, value in (points or {}).items():
        data[f"seat_{position}-hand"] = str(value)
    for position, text in (tiles or {}).items():
        data[f"seat_{position}-tiles"] = text
    if went_out is not None:
        data["went_out"] = str(went_out)
    data.update({key: str(value) for key, value in extra.items()})
    return data


def enter_round(
    client: FlaskClient,
    public_id: str,
    points: dict[int, Any] | None = None,
    tiles: dict[int, str] | None = None,
    went_out: int | str | None = None,
    **extra: Any,
) -> Any:
    data = round_data(points, tiles, went_out, **extra)
    data.setdefault("form_token", form_token(client, public_id))
    return client.post(f"/g/{public_id}/round", data=data)


def errors_in(page: str) -> list[str]:
    return re.findall(r'class="field-error"[^>]*>([^<]*)<', page)
