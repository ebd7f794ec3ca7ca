"""The migration that stores seat totals fills them in for games recorded before it."""

from __future__ import annotations

from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import text

from scorekeeper.extensions import db
from tests.conftest import make_app

BEFORE = "d4b51ab1aea1"  # the revision before seat totals were stored


def test_existing_games_get_their_totals_and_places(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'old.sqlite'}")
    with app.app_context():
        upgrade(revision=BEFORE)
        statements = [
            "INSERT INTO league (id, code, name, passphrase_hash, passphrase_version, "
            "organiser_device, ranking, min_games, min_nights_percent, placement_points, rules, "
            "created_at) VALUES (1, 'ABCDEF', 'Club', 'x', 1, 'd', 'average', 3, 0, '5,3,2,1', "
            "'{}', '2025-01-01')",
            "INSERT INTO night (id, league_id, played_on, place, created_at) "
            "VALUES (1, 1, '2025-01-02', '', '2025-01-02')",
            "INSERT INTO game (id, public_id, edit_code, creator_device, kind, rules, "
            "first_starter, status, created_at, updated_at, night_id, keep_photos, version) "
            "VALUES (1, 'g1', 'CODE12', 'd', 'mexican_train', '{}', 0, 'finished', "
            "'2025-01-02', '2025-01-02', 1, 0, 1)",
            *(
                f"INSERT INTO player (id, name, created_at, league_id, is_guest) "
                f"VALUES ({i}, 'P{i}', '2025-01-01', 1, 0)"
                for i in (1, 2, 3)
            ),
            *(
                f"INSERT INTO seat (id, game_id, player_id, position) VALUES ({i}, 1, {i}, {i - 1})"
                for i in (1, 2, 3)
            ),
            "INSERT INTO round (id, game_id, number, engine, went_out_seat_id, "
            "went_out_on_double, form_token, recorded_at) VALUES "
            "(1, 1, 1, 12, 1, 0, 't1', '2025-01-02'), (2, 1, 2, 11, 2, 0, 't2', '2025-01-02')",
            "INSERT INTO score (round_id, seat_id, hand, markers, points, corrected) VALUES "
            "(1, 1, 0, 0, 0, 0), (1, 2, 10, 0, 10, 0), (1, 3, 30, 0, 30, 0), "
            "(2, 1, 20, 0, 20, 0), (2, 2, 0, 0, 0, 0), (2, 3, 5, 0, 5, 0)",
        ]
        for statement in statements:
            db.session.execute(text(statement))
        db.session.commit()
        upgrade()
        seats = db.session.execute(
            text("SELECT id, total, rounds_played, rounds_out, place FROM seat ORDER BY id")
        ).all()
        stamp = db.session.execute(text("SELECT standings_stamp FROM league")).scalar()
        db.session.remove()
        db.engine.dispose()
    # Totals 20, 10, 35: Bob 1st, Ann 2nd, Cy 3rd; Ann and Bob each went out once.
    assert [tuple(row) for row in seats] == [(1, 20, 2, 1, 2), (2, 10, 2, 1, 1), (3, 35, 2, 0, 3)]
    assert stamp
