"""issue 25: a league's default language for its pages and its members' link (NULL: each
phone's own)

Revision ID: f3a8c51d92b6
Revises: e21a31c0e4d7
Create Date: 2026-11-25 17:30:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'f3a8c51d92b6'
down_revision = 'e21a31c0e4d7'
branch_labels = None
depends_on = None


def upgrade():
    # Leagues already running keep following each phone's language.
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_column('language')
