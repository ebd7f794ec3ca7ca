"""The reader on the real development photos, when they are there (``../shared/photos``
beside the clone; never copied into the repository). Skipped without them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

PHOTOS = Path(__file__).resolve().parents[3].parent / "shared" / "photos"

pytestmark = [
    pytest.mark.skipif(
        not (PHOTOS / "manifest.json").is_file(), reason="development photos not present"
    ),
    pytest.mark.slow,  # the evaluation runs in a process of its own
]


def _evaluate(folder: Path, *options: str) -> dict:
    """The evaluation command's results, run in a process of its own (its peak memory is
    then the reader's, not the test run's)."""
    import json
    import subprocess
    import sys

    out = folder / "result.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "scorekeeper.vision.evaluate",
            str(PHOTOS),
            "--json",
            str(out),
            *options,
        ],
        check=True,
        capture_output=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    """Read as the app reads, within its CPU-time budget."""
    return _evaluate(tmp_path_factory.mktemp("evaluate"))


@pytest.fixture(scope="module")
def unlimited(tmp_path_factory):
    """Read to the end: what the reader can read, whatever this machine's speed (a loaded
    machine gives up on the slowest photos within the budget, and says so)."""
    return _evaluate(tmp_path_factory.mktemp("evaluate-unlimited"), "--no-time-limit")


def test_photos_from_above_are_read_and_never_confidently_wrong(result, unlimited):
    top = unlimited["summary"]["top_down"]
    assert top["photos"] >= 10
    assert top["exact_total_rate"] >= 0.95
    assert top["confident_rate"] >= 0.5
    for reading in (result, unlimited):
        assert reading["summary"]["top_down"]["confident_wrong_total"] == 0
        assert reading["summary"]["top_down"]["confident_wrong_tiles"] == 0


def test_a_photo_given_up_on_within_the_budget_says_so(result):
    for photo in result["photos"]:
        if not photo["total_ok"] and not photo["side_view"]:
            assert photo["unreadable"] or photo["problems"], photo["file"]


def test_side_views_are_never_confident(result):
    assert result["summary"]["side_view"]["confident"] == 0


def test_every_photo_within_the_time_budget(result):
    # the budget is 1 s of CPU on an idle core; a shared CI machine gets some slack
    assert result["summary"]["all"]["cpu_max"] <= 1.5
    assert result["summary"]["peak_rss_mb"] <= 500
