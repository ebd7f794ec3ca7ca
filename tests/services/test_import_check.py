"""Checking an imported scores CSV, called directly: every bad row is named with its line and
reason, whole games are checked, nothing is written. Table-driven from the import format."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.leagues import transfer

HEADER = "night,table,player,round,score"
GOOD = [
    "2024-01-04,Table 1,Ann,1,0",
    "2024-01-04,Table 1,Bob,1,23",
]


def check(league: Any, *rows: str, header: str = HEADER) -> transfer.ImportPlan:
    return transfer.check_scores(league, "\n".join([header, *rows]) + "\n")


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("04/01/2024x,Table 1,Cy,1,5", "“04/01/2024x” is not a date (use 2024-01-04)"),
        (",Table 1,Cy,1,5", "the night's date is missing"),
        ("1999-12-31,Table 1,Cy,1,5", "the night 1999-12-31 is not between 2000 and 2100"),
        ("2024-01-04,,Cy,1,5", "the table is missing"),
        ("2024-01-04,Table 1,,1,5", "the player's name is missing"),
        ("2024-01-04,Table 1,Cy,0,5", "the round “0” is not a number from 1 to 100"),
        ("2024-01-04,Table 1,Cy,1,", "the score is missing"),
        ("2024-01-04,Table 1,Cy,1,lots", "the score “lots” is not a whole number"),
        ("2024-01-04,Table 1,Cy,1,9999", "the score 9999 is not possible"),
        ("2024-01-04,Table 1,Cy,14,5", "round 14, but this league's games have 13 rounds"),
    ],
)
def test_a_bad_row_is_named_with_its_line_and_reason(
    make_league: Any, row: str, reason: str
) -> None:
    plan = check(make_league(["Ann", "Bob"]), *GOOD, row)
    sentence = reason[0].upper() + reason[1:] + "."
    assert [(p.line, p.message) for p in plan.problems] == [(4, sentence)]


@pytest.mark.parametrize(
    ("extra", "header", "reason"),
    [
        ("2024-01-04,Table 1,Cy,1,5,maybe", HEADER + ",guest", "guest “maybe” should be yes or no"),
        ("2024-01-04,Table 1,Cy,1,5,7-6", HEADER + ",engine", "the engine “7-6” is not a double"),
        ("2024-01-04,Table 1,Cy,1,5,14", HEADER + ",engine", "the engine 14-14 is not in this"),
        ("2024-01-04,Table 1,Cy,1,5,-1", HEADER + ",hand", "the hand “-1” is not a whole number"),
        ("2024-01-04,Table 1,Cy,1,5,21", HEADER + ",markers", "markers should be a number from 0"),
        ("2024-01-04,Table 1,Cy,1,5,13-1", HEADER + ",tiles", "tiles: "),
        ("2024-01-04,Table 1,Cy,1,5,x", HEADER + ",game", "the game “x” is not a number like 1"),
    ],
)
def test_optional_columns_are_checked_too(
    make_league: Any, extra: str, header: str, reason: str
) -> None:
    plan = check(make_league(["Ann", "Bob"]), extra, header=header)
    assert len(plan.problems) == 1 and plan.problems[0].line == 2
    assert reason.casefold() in plan.problems[0].message.casefold()


def test_several_reasons_of_one_row_are_one_problem(make_league: Any) -> None:
    plan = check(make_league(), "someday,,Cy,1,")
    assert len(plan.problems) == 1
    message = plan.problems[0].message
    assert "is not a date" in message and "the table is missing" in message
    assert "the score is missing" in message


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (["2024-01-04,Table 1,Ann,1,0", "2024-01-04,Table 1,Bob,2,5"], "round 1 at Table 1"),
        (["2024-01-04,Table 1,Ann,2,0", "2024-01-04,Table 1,Bob,2,5"], "round 1 is missing"),
        (["2024-01-04,Table 1,Ann,1,0"], "has only one player"),
        (["2024-01-04,Table 1,Ann,1,0", "2024-01-04,Table 1,Ann,1,3"], "already has a score"),
    ],
)
def test_whole_games_are_checked(make_league: Any, rows: list[str], reason: str) -> None:
    plan = check(make_league(["Ann", "Bob"]), *rows)
    assert any(reason in p.message for p in plan.problems), plan.problems


def test_two_players_out_in_one_round_and_two_engines_are_refused(make_league: Any) -> None:
    header = HEADER + ",went_out,engine"
    out_twice = check(
        make_league(), "2024-01-04,T,Ann,1,0,yes,12", "2024-01-04,T,Bob,1,0,yes,11", header=header
    )
    messages = " ".join(p.message for p in out_twice.problems)
    assert "Ann and Bob cannot both go out" in messages
    assert "has different engines" in messages


def test_a_valid_file_is_planned_with_known_and_new_players(make_league: Any) -> None:
    plan = check(
        make_league(["Ann"]), *GOOD, "2024-01-04,Table 1,ann,2,4", "2024-01-04,Table 1,Bob,2,0"
    )
    assert plan.problems == [] and plan.fatal is None
    assert plan.known_players == ["Ann"] and plan.new_players == ["Bob"]
    (night,) = plan.nights
    (game,) = night.games
    assert sorted(game.rounds) == [1, 2] and game.players == ["Ann", "Bob"]


def test_a_file_already_imported_is_refused(make_league: Any, session: Any) -> None:
    league = make_league(["Ann", "Bob"])
    plan = check(league, *GOOD)
    transfer.apply_import(league, plan, "d" * 64, "token-1", "scores.csv")
    session.commit()
    again = check(league, *GOOD)
    assert any("already in this league" in p.message for p in again.problems)


def test_a_header_without_scores_and_a_missing_column_are_fatal(make_league: Any) -> None:
    assert check(make_league()).fatal == "The file has a header row but no scores."
    fatal = check(make_league(), header="night,table,player,score").fatal or ""
    assert fatal.startswith("The first row must name the columns. Missing: round.")


LONG = "Bartholomew Alexander Montgomery-Fitzwilliam"  # 44 characters


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (
            f"2024-01-04,Table 1,{LONG} Jr,1,5",
            f"Player: “{LONG} Jr” has 47 characters; a name may have at most 40.",
        ),
        (
            "2024-01-04,Table 1,\u200b,1,5",
            "Player: a name needs at least one letter, digit or sign one can see.",
        ),
        (
            f"2024-01-04,{'Table ' * 7},Cy,1,5",
            f"Table “{'Table ' * 6}Table” has 41 characters; at most 40.",
        ),
    ],
)
def test_a_name_is_never_cut_or_invisible(make_league: Any, row: str, reason: str) -> None:
    plan = check(make_league(["Ann", "Bob"]), *GOOD, row)
    assert [(p.line, p.message) for p in plan.problems] == [(4, reason)]


def test_two_long_names_are_two_refused_lines_not_one_player(make_league: Any) -> None:
    # Cut to 40 characters, both were "Bartholomew Alexander Montgomery-Fitzwil": one player
    # with both players' games (issue 36, item 15).
    plan = check(
        make_league(),
        f"2024-01-04,Table 1,{LONG}liam,1,0",
        f"2024-01-04,Table 1,{LONG}iam,1,9",
    )
    assert [p.line for p in plan.problems] == [2, 3]
    assert all("a name may have at most 40" in p.message for p in plan.problems)
    assert plan.new_players == []


def test_a_name_typed_with_a_combining_accent_is_the_same_player(make_league: Any) -> None:
    plan = check(
        make_league(["José", "Bob"]), "2024-01-04,T,Jose\u0301,1,0", "2024-01-04,T,Bob,1,9"
    )
    assert plan.problems == [] and plan.new_players == []
    assert plan.known_players == ["José", "Bob"]
    assert plan.nights[0].games[0].players == ["José", "Bob"]
