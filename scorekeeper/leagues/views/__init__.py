"""Views of a league, one module per sub-area (all on one blueprint, ``leagues``). Thin:
check the league rights, parse the form, call one service, render or redirect.

Private pages live under /leagues/<code>/ and need league rights (see ../access.py); the optional
public read-only page lives under /p/<token>/ and offers nothing that changes anything.

- common: loading a league, the rights decorators, shared page helpers
- joining: leagues on this phone, creating and joining, the members' link, organiser claim
- standings, nights (nights and their tables), seating (seat tonight's tables, late
  arrivals), roster (players), settings (seasons, settings,
  passphrase, public page), transfer (export and import), results (a night's card, print views)
"""

from scorekeeper.leagues.views import (  # noqa: F401  (each registers its routes)
    joining,
    nights,
    results,
    roster,
    seating,
    settings,
    standings,
    transfer,
)
from scorekeeper.leagues.views.common import bp

__all__ = ["bp"]
