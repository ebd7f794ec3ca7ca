"""The reader is split by stage (issue 40, item 4): what the app runs to read a photo stays
apart from the render and training tools, and the stages stay small enough to read."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

VISION = Path(__file__).resolve().parents[3] / "scorekeeper" / "vision"
# every module of the package: the reader's stages (the looks, one look, finding tiles,
# other outlines, reading the halves, deciding how sure), what they use, and the tools
MODULES = sorted(p.stem for p in VISION.glob("*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_each_module_of_the_reader_is_short_with_short_functions(name):
    text = (VISION / f"{name}.py").read_text()
    assert len(text.splitlines()) <= 500
    long = [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > 60
    ]
    assert long == []


@pytest.mark.slow  # a fresh interpreter
def test_reading_a_photo_loads_no_render_or_training_code():
    pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    code = (
        "import sys\n"
        "import numpy as np, cv2\n"
        "from scorekeeper.vision import read_hand\n"
        "img = np.full((300, 400, 3), 40, np.uint8)\n"
        "read_hand(cv2.imencode('.png', img)[1].tobytes())\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=VISION.parents[1],
    ).stdout.split()
    vision = {m for m in out if m.startswith("scorekeeper.vision.")}
    assert "scorekeeper.vision.look" in vision  # the photo was read
    for tool in ("synth", "synth_faces", "synth_modes", "synth_surfaces", "evaluate", "overlay"):
        assert f"scorekeeper.vision.{tool}" not in vision
    assert not {"torch", "onnx"} & set(out)
