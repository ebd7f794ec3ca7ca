"""Getting a league's data out (one JSON document, or a .zip of CSV files) and in (a CSV file of
round scores, such as old paper score sheets typed into a spreadsheet, or the exported .zip).

Import format, one row per player per round (a header row names the columns; any order; other
columns are ignored; commas, semicolons or tabs):

    night,table,player,round,score
    2024-01-04,Table 1,Ann,1,0
    2024-01-04,Table 1,Bob,1,23

Optional columns: ``place`` (where the night was), ``game`` (1, 2 … when a table played more than
one game that night), ``guest`` (yes: not ranked), ``went_out`` (yes for who went out; without the
column a round's only 0 is taken as going out), ``engine``, ``hand``, ``tiles``, ``markers``,
``on_double``, ``finished`` (no: a game still being played).

Nothing is written until the whole file is valid: every bad row is reported with its line
number (the header is line 1) and the reason.

Modules: export (JSON and .zip out), reading (a file into rows, with the size caps that keep
hostile files out), plan (what an import would write), checking (rows into a plan with every
problem named), applying (writing a confirmed plan, and the uploads waiting for confirmation).
"""

from scorekeeper.leagues.transfer.applying import (
    apply_import,
    drop_pending,
    load_pending,
    save_pending,
    start_confirmed_import,
)
from scorekeeper.leagues.transfer.checking import check_scores, read_upload
from scorekeeper.leagues.transfer.csv_export import export_zip
from scorekeeper.leagues.transfer.export import export_document
from scorekeeper.leagues.transfer.plan import (
    ImportPlan,
    PlannedGame,
    PlannedNight,
    PlannedScore,
    Problem,
)
from scorekeeper.leagues.transfer.reading import (
    MAX_ARCHIVE_BYTES,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_LINES,
    MAX_MEMBER_BYTES,
    MAX_RATIO,
    parse_date,
)

__all__ = [
    "ImportPlan",
    "MAX_ARCHIVE_BYTES",
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_LINES",
    "MAX_MEMBER_BYTES",
    "MAX_RATIO",
    "PlannedGame",
    "PlannedNight",
    "PlannedScore",
    "Problem",
    "apply_import",
    "check_scores",
    "drop_pending",
    "export_document",
    "export_zip",
    "load_pending",
    "parse_date",
    "read_upload",
    "save_pending",
    "start_confirmed_import",
]
