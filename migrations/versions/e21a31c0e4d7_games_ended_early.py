"""issue 21: a game ended by the table before its last round is marked (ended_early); the
average standings leave such games out

Revision ID: e21a31c0e4d7
Revises: 7d3e9a41c2b8
Create Date: 2026-11-25 15:00:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e21a31c0e4d7'
down_revision = '7d3e9a41c2b8'
branch_labels = None
depends_on = None


def upgrade():
    # Games already ended keep counting as they did: the mark starts with this version.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('ended_early', sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('ended_early')
