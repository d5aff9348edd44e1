"""Every Python example of docs/learn.md runs as shown, the training example to its last line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "learn.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_its_five_examples() -> None:
    assert len(EXAMPLES) == 5


@pytest.mark.timeout(300)
@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_each_example_runs(number: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", EXAMPLES[number]], capture_output=True, text=True, timeout=280, check=False
    )
    assert done.returncode == 0, done.stderr
    if "REINFORCE" in EXAMPLES[number] or "points a round" in EXAMPLES[number]:
        shape = r"points a round: first 50 rounds (\d\.\d\d), last 50 (\d\.\d\d)\n"
        figures = re.fullmatch(shape, done.stdout)
        assert figures, done.stdout
        assert all(0 <= float(value) <= 3 for value in figures.groups())
