"""issue 38: a league's ranking method is no longer held to a list in the database (the
ranking_known check): a standings method is declared once, in the code, and a new one needs no
migration. The settings form and the standings maths refuse a name no method has.

Revision ID: a7c2e9d41b36
Revises: f3a8c51d92b6
Create Date: 2026-11-29 02:40:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'a7c2e9d41b36'
down_revision = 'f3a8c51d92b6'
branch_labels = None
depends_on = None

# The methods the check allowed when it was dropped.
KNOWN = ('average', 'wins', 'points', 'rating')


def upgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_league_ranking_known'), type_='check')


def downgrade():
    # A league ranked by a method the older code does not declare goes back to the default.
    known = ", ".join(f"'{name}'" for name in KNOWN)
    op.execute(f"UPDATE league SET ranking = 'average' WHERE ranking NOT IN ({known})")
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.create_check_constraint(op.f('ck_league_ranking_known'), f"ranking IN ({known})")
