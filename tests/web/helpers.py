"""Small actions for client tests: start a game, enter a round, read a form token."""

from __future__ import annotations

import html
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


HIDDEN_FIELDS = ("form_token", "round_number", "game_version", "based_on")


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden fields a round or correction form says its write is based on."""
    found = {}
    for name in HIDDEN_FIELDS:
        match = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
        if match:
            found[name] = html.unescape(match.group(1))
    return found


def round_form_fields(client: FlaskClient, public_id: str, number: int | None = None) -> dict:
    """The hidden fields of the next round's form (or of round ``number``'s correction)."""
    url = f"/g/{public_id}/rounds/{number}" if number else f"/g/{public_id}/round"
    page = client.get(url).get_data(as_text=True)
    fields = hidden_fields(page)
    assert "form_token" in fields, page
    return fields


def form_token(client: FlaskClient, public_id: str) -> str:
    return round_form_fields(client, public_id)["form_token"]


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
    if "form_token" not in data or "round_number" not in data:
        for name, value in round_form_fields(client, public_id).items():
            data.setdefault(name, value)
    return client.post(f"/g/{public_id}/round", data=data)


def correct_round(
    client: FlaskClient,
    public_id: str,
    number: int,
    points: dict[int, Any] | None = None,
    tiles: dict[int, str] | None = None,
    went_out: int | str | None = None,
    **extra: Any,
) -> Any:
    """Open round ``number``'s correction form and save it with these values."""
    data = round_data(points, tiles, went_out, **extra)
    for name, value in round_form_fields(client, public_id, number).items():
        data.setdefault(name, value)
    return client.post(f"/g/{public_id}/rounds/{number}", data=data)


def errors_in(page: str) -> list[str]:
    return re.findall(r'class="field-error"[^>]*>([^<]*)<', page)
