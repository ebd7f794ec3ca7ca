"""standings read from indexes: nights by date, finished games and versions by night, seats' results

Revision ID: 5e1f0c2b7a90
Revises: 9c0faa6b0c05
Create Date: 2026-11-23 22:45:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '5e1f0c2b7a90'
down_revision = '9c0faa6b0c05'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_night_league_id_played_on', 'night', ['league_id', 'played_on'])
    op.create_index(
        'ix_game_night_id_status_version', 'game', ['night_id', 'status', 'version', 'public_id']
    )
    op.create_index(
        'ix_seat_game_id_results',
        'seat',
        ['game_id', 'position', 'player_id', 'total', 'rounds_played', 'rounds_out'],
    )


def downgrade():
    op.drop_index('ix_seat_game_id_results', table_name='seat')
    op.drop_index('ix_game_night_id_status_version', table_name='game')
    op.drop_index('ix_night_league_id_played_on', table_name='night')
