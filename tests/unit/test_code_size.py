"""Functions a reader can hold in mind, modules a reader can find their way in (issue 38,
item 4): no function over 60 lines in rules/, games/, leagues/ and web/, no module over 500
lines anywhere in scorekeeper/.

A function's length is measured on its AST: ``end_lineno - lineno + 1`` of its ``def``, so its
decorators are not counted and its docstring, comments and blank lines inside it are. A nested
function counts inside the one that holds it, and on its own too. A module's length is its
number of lines."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"

FUNCTION_LINES = 60
MODULE_LINES = 500
FUNCTION_PACKAGES = ("rules", "games", "leagues", "web")


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def long_functions(source: str, limit: int = FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """(name, line, length) of every function of ``source`` longer than ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                found.append((node.name, node.lineno, length))
    return sorted(found, key=lambda item: item[1])


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_function_is_over_sixty_lines() -> None:
    offenders = [
        f"{_relative(path)}:{line} {name} is {length} lines"
        for path in _modules()
        if _relative(path).split("/")[0] in FUNCTION_PACKAGES
        for name, line, length in long_functions(path.read_text("utf-8"))
    ]
    assert offenders == [], "split these into functions of their own:\n" + "\n".join(offenders)


def test_no_module_is_over_five_hundred_lines() -> None:
    offenders = [
        f"{_relative(path)} is {length} lines"
        for path in _modules()
        if (length := len(path.read_text("utf-8").splitlines())) > MODULE_LINES
    ]
    assert offenders == [], "split these modules:\n" + "\n".join(offenders)


def test_the_measure_sees_a_long_function_and_not_its_decorators() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(59))
    exactly = f"@decorated\n@twice\ndef f():\n{body}"  # 60 lines from its def
    assert long_functions(exactly) == []
    indented = body.replace("    ", "        ")
    longer = f"class C:\n    def g(self):\n        '''Its docstring counts.'''\n{indented}"
    assert long_functions(longer) == [("g", 2, 61)]
    inner = "".join(f"        y{n} = {n}\n" for n in range(60))
    nested = f"def outer():\n    def inner():\n{inner}"
    assert long_functions(nested) == [("outer", 1, 62), ("inner", 2, 61)]
