"""deleted games wait in the trash: when, by whom, from which device and night

Revision ID: 7d3e9a41c2b8
Revises: 5e1f0c2b7a90
Create Date: 2026-11-25 14:45:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '7d3e9a41c2b8'
down_revision = '5e1f0c2b7a90'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('deleted_by', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('deleted_device', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('deleted_night_id', sa.Integer(), nullable=True))
        batch_op.create_index(
            batch_op.f('ix_game_deleted_night_id'), ['deleted_night_id'], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f('fk_game_deleted_night_id_night'),
            'night',
            ['deleted_night_id'],
            ['id'],
            ondelete='CASCADE',
        )


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_deleted_night_id_night'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_deleted_night_id'))
        batch_op.drop_column('deleted_night_id')
        batch_op.drop_column('deleted_device')
        batch_op.drop_column('deleted_by')
        batch_op.drop_column('deleted_at')
