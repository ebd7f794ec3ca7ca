"""What is left to put through gettext in some files (the checks of tests/unit/test_catalogs.py,
for one part of the app): python tools/i18n_todo.py templates/games scorekeeper/games"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "unit"))

from test_catalogs import _python_modules, _templates, python_prose, template_text  # noqa: E402


def main(paths: list[str]) -> None:
    wanted = [(ROOT / p).resolve() for p in paths] or [ROOT]
    total = 0
    for path in [*_templates(), *_python_modules()]:
        if not any(path == w or w in path.parents for w in wanted):
            continue
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            found = [f"{line}: {text!r}" for line, text in python_prose(source)]
        else:
            found = [repr(text) for text in template_text(source)]
        for item in found:
            print(f"{path.relative_to(ROOT)}:{item}")
        total += len(found)
    print(f"{total} left")


if __name__ == "__main__":
    main(sys.argv[1:])
