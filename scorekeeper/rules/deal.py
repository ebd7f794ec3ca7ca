"""How many tiles to deal (rules.md 2.3): the default deal table, the named sheets, a group's
own numbers or a computed suggestion, with the warnings a table should see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from scorekeeper.rules.house import DEAL_PRESETS, PRESET_MAX_PIP, HouseRules
from scorekeeper.rules.tiles import DominoSet, set_name
from scorekeeper.rules.words import _, ngettext

_DEFAULT_RULES = HouseRules()

#: The default deal table of rules.md 2.3: set -> players -> tiles each (engine held out).
DEAL_TABLE: Mapping[int, Mapping[int, int]] = MappingProxyType(
    {
        6: MappingProxyType({2: 9, 3: 8, 4: 6}),
        9: MappingProxyType({2: 9, 3: 9, 4: 9, 5: 7, 6: 7, 7: 7, 8: 6}),
        12: DEAL_PRESETS["standard"],
        15: MappingProxyType(
            {2: 15, 3: 15, 4: 15, 5: 15, 6: 15, 7: 13, 8: 13, 9: 11, 10: 11, 11: 11, 12: 11}
        ),
        18: MappingProxyType({13: 11, 14: 11}),
    }
)
#: Most players per set (rules.md 2.3). Double-12 with 9-10 players is allowed with a warning.
PLAYER_LIMITS: Mapping[int, int] = MappingProxyType({6: 4, 9: 8, 12: 10, 15: 12, 18: 16})
MIN_PLAYERS = 2
#: Spokes on a standard hub; more players than this on a set up to double-12 get a warning
#: (the `*` cells of the table). Bigger sets have tables made for more players.
HUB_SPOKES = 8
#: Largest computed deal.
COMPUTED_MAX_TILES = 15
#: A home-made set takes as many players as can each get at least this many tiles from the
#: computed suggestion, and never more than CUSTOM_SET_MAX_PLAYERS.
CUSTOM_SET_MIN_TILES = 5
CUSTOM_SET_MAX_PLAYERS = 16
#: Warn when fewer than this share of all tiles stays in the boneyard.
LOW_BONEYARD_SHARE = 0.10


def computed_deal(total_tiles: int, players: int) -> int:
    """The computed suggestion of rules.md 2.3: ``min(15, floor(0.8 * (tiles - 1) / players))``,
    which keeps about a fifth of the tiles in the boneyard. Exact integer arithmetic."""
    return min(COMPUTED_MAX_TILES, (4 * (total_tiles - 1)) // (5 * players))


def max_players(max_pip: int, copies: int = 1) -> int:
    """Most players for a double-``max_pip`` set (rules.md 2.3): double-6 4, double-9 8,
    double-12 10 (9-10 with a warning), double-15 12, double-18 16.

    A home-made set takes as many players as each get at least 5 tiles from the computed
    suggestion, at most 16 (0 when even 2 players would get fewer).
    """
    if max_pip in PLAYER_LIMITS:
        return PLAYER_LIMITS[max_pip]
    total = DominoSet(max_pip, copies).total_tiles
    fitting = [
        players
        for players in range(MIN_PLAYERS, CUSTOM_SET_MAX_PLAYERS + 1)
        if computed_deal(total, players) >= CUSTOM_SET_MIN_TILES
    ]
    return max(fitting, default=0)


def suggest_set(players: int) -> int:
    """Which set for how many players (a suggestion, never forced; rules.md 2.3): double-9 for
    2-4, double-12 for 5-8, double-15 for 9-12, double-18 for 13 or more."""
    _check_players(players)
    if players <= 4:
        return 9
    if players <= 8:
        return 12
    if players <= 12:
        return 15
    return 18


@dataclass(frozen=True)
class DealPlan:
    """How to deal: ``tiles_each`` per player after holding out one engine; ``boneyard`` tiles stay
    to draw. ``source`` is "table", a preset name ("cardinal", "fundex", "gamerules"), "custom" or
    "computed". ``warnings`` are plain sentences to show next to the deal."""

    players: int
    tiles_each: int
    boneyard: int
    source: str
    warnings: list[str] = field(default_factory=list)

    @property
    def computed(self) -> bool:
        """True when no table gives a number and the computed suggestion is used."""
        return self.source == "computed"

    @property
    def tiles_dealt(self) -> int:
        """Tiles in all hands together."""
        return self.players * self.tiles_each


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"The number of players must be a whole number, got {players!r}")
    if players < MIN_PLAYERS:
        raise ValueError(
            _(
                "Mexican Train needs at least %(least)s players, got %(players)s",
                least=MIN_PLAYERS,
                players=players,
            )
        )
    return players


def _set_words(rules: HouseRules) -> str:
    name = set_name(rules.max_pip)
    if rules.copies == 1:
        return _("a %(set)s set", set=name)
    return _("two %(set)s sets mixed", set=name)


def deal_plan(players: int, rules: HouseRules = _DEFAULT_RULES) -> DealPlan:
    """Tiles per player, boneyard and warnings (rules.md 2.3).

    Order of sources: the group's custom numbers; for one double-12 set the chosen preset (the
    named sheets cover 2-8 players); the default table; otherwise the computed suggestion. Two
    sets mixed always use the computed suggestion (the tables are for one set) unless the group
    typed its own numbers. Raises ValueError for fewer than 2 players or more than the set takes.
    Warnings: more players than the 8 spokes of a hub (sets up to double-12), fewer than 10% of
    the tiles left to draw, a computed number, a preset that does not apply.
    """
    _check_players(players)
    _check_set_takes(players, rules)
    warnings: list[str] = []
    tiles_each, source = _tiles_each(players, rules, warnings)
    total = rules.domino_set.total_tiles
    if tiles_each < 1:
        raise ValueError(_too_small(rules.domino_set.name, players))
    boneyard = total - 1 - players * tiles_each
    if boneyard < 0:  # HouseRules checks custom numbers; kept as a guard.
        raise ValueError(
            _(
                "%(players)s players with %(tiles)s tiles each need %(need)s tiles, but "
                "%(set)s has %(has)s",
                players=players,
                tiles=tiles_each,
                need=players * tiles_each + 1,
                set=_set_words(rules),
                has=total,
            )
        )
    warnings.extend(_table_warnings(players, rules, boneyard))
    return DealPlan(players, tiles_each, boneyard, source, warnings)


def _check_set_takes(players: int, rules: HouseRules) -> None:
    """Refuse more players than the set can deal to, naming a bigger set when one would."""
    dominoes = rules.domino_set
    limit = max_players(rules.max_pip, rules.copies)
    if players <= limit:
        return
    if limit < MIN_PLAYERS:
        raise ValueError(_too_small(dominoes.name, players))
    bigger = suggest_set(players)
    if bigger > rules.max_pip:
        raise ValueError(
            _(
                "A %(set)s set is for at most %(limit)s players; for %(players)s players "
                "try a double-%(bigger)s set",
                set=dominoes.name,
                limit=limit,
                players=players,
                bigger=bigger,
            )
        )
    raise ValueError(
        _(
            "A %(set)s set is for at most %(limit)s players",
            set=dominoes.name,
            limit=limit,
        )
    )


def _fallback(players: int, rules: HouseRules) -> str | None:
    """Why the group's chosen deal (custom numbers or a named sheet) does not apply, or None."""
    custom, preset = rules.custom_deal, rules.deal_preset
    if custom is not None:
        if players in custom:
            return None
        return _("The custom deal has no number for %(players)s players", players=players)
    if preset == "standard":
        return None
    if rules.max_pip != PRESET_MAX_PIP or rules.copies != 1:
        return _("The %(sheet)s sheet is for one double-12 set", sheet=preset)
    sheet = DEAL_PRESETS[preset]
    if players not in sheet:
        return _(
            "The %(sheet)s sheet stops at %(players)s players", sheet=preset, players=max(sheet)
        )
    return None


def _tiles_each(players: int, rules: HouseRules, warnings: list[str]) -> tuple[int, str]:
    """Tiles per player and where the number comes from; adds to ``warnings`` why a chosen
    deal did not apply and when the number is only computed."""
    custom, preset = rules.custom_deal, rules.deal_preset
    table = DEAL_TABLE.get(rules.max_pip) if rules.copies == 1 else None
    fallback = _fallback(players, rules)
    if custom is not None and players in custom:
        return custom[players], "custom"
    if custom is None and preset != "standard" and fallback is None:
        return DEAL_PRESETS[preset][players], preset
    if table is not None and players in table:
        if fallback:
            warnings.append(_("%(why)s: using the standard table", why=fallback))
        return table[players], "table"
    tiles_each = computed_deal(rules.domino_set.total_tiles, players)
    if fallback:
        warnings.append(_("%(why)s: using a computed suggestion", why=fallback))
    warnings.append(
        _(
            "No rule book gives a number for %(players)s players with %(set)s: %(tiles)s "
            "tiles each is a computed suggestion",
            players=players,
            set=_set_words(rules),
            tiles=tiles_each,
        )
    )
    return tiles_each, "computed"


def _table_warnings(players: int, rules: HouseRules, boneyard: int) -> list[str]:
    """A crowded hub; few or no tiles left to draw."""
    warnings: list[str] = []
    if players > HUB_SPOKES and rules.max_pip <= PRESET_MAX_PIP:
        warnings.append(
            _(
                "%(players)s players are more than the %(spokes)s spokes of a standard hub: "
                "allowed, but the table gets crowded",
                players=players,
                spokes=HUB_SPOKES,
            )
        )
    if boneyard < LOW_BONEYARD_SHARE * rules.domino_set.total_tiles:
        if boneyard == 0:
            warnings.append(_("No tiles stay in the boneyard to draw"))
        else:
            warnings.append(
                ngettext(
                    "Only %(num)s tile stays in the boneyard",
                    "Only %(num)s tiles stay in the boneyard",
                    boneyard,
                )
            )
    return warnings


def _too_small(name: str, players: int) -> str:
    return _("A %(set)s set is too small to deal to %(players)s players", set=name, players=players)


def deal_count(players: int, rules: HouseRules = _DEFAULT_RULES) -> int:
    """Tiles to deal to each player (rules.md 2.3): see ``deal_plan`` for the sources and limits.
    Raises ValueError for impossible player counts."""
    return deal_plan(players, rules).tiles_each
