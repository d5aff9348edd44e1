"""Lint, format and types run with the tests; the engine stays pure Python with no third-party imports."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed beside {sys.executable}"
    return found


def test_ruff_lint() -> None:
    result = subprocess.run(
        [_tool("ruff"), "check", "src", "tests", "benchmarks", "scripts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = subprocess.run(
        [_tool("ruff"), "format", "--check", "src", "tests", "benchmarks", "scripts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_all_of_parlour() -> None:
    """Engine, game definitions, store, server and command line: all typed, all checked."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "src/parlour"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


TEST_FOLDERS = sorted(
    path.name for path in (ROOT / "tests").iterdir() if path.is_dir() and any(path.rglob("*.py"))
)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("folder", ["", *TEST_FOLDERS])
def test_mypy_strict_on_the_tests(folder: str) -> None:
    """The tests are typed too: each folder on its own (each has its conftest module), with the shared
    helpers of ``tests/``, the test games (``tests/games``) and the benchmarks the tests drive on the
    path."""
    targets = (
        [str(path) for path in sorted((ROOT / "tests").glob("*.py"))] if not folder else [f"tests/{folder}"]
    )
    search = os.pathsep.join(
        [
            "src",
            f"tests/{folder}" if folder else "tests",
            "tests",
            "tests/server",
            "tests/games",
            "benchmarks",
        ]
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
         "--cache-dir", f".mypy_cache/tests-{folder or 'top'}", *targets],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "MYPYPATH": search}, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_import_contracts_hold() -> None:
    """import-linter's contracts (pyproject.toml): the engines, then the games, then the store, then the
    server, the terminal app and the command line, each importing only below itself; the two engines
    independent of each other, as the server and the terminal app are; no third-party package in the
    engines."""
    result = subprocess.run(
        [_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr
    assert result.stdout.count(" KEPT") >= 2, result.stdout[-2000:]


def test_no_import_circle_among_the_server_modules() -> None:
    """The server's modules import one another without a circle (imports made only for type checking
    aside): the socket pages, the cluster's relay and the process's context each sit on what is below
    them, and the cluster is handed the room handler instead of importing the sockets."""
    import grimp

    graph = grimp.build_graph("parlour", exclude_type_checking_imports=True, cache_dir=None)
    server = sorted(module for module in graph.modules if module.startswith("parlour.server."))
    below = {
        module: {
            imported
            for imported in graph.find_modules_directly_imported_by(module)
            if imported.startswith("parlour.server.")
        }
        for module in server
    }
    circles = []
    for module in server:  # a circle through ``module``: a path from what it imports back to it
        seen, frontier = set(), set(below[module])
        while frontier:
            seen |= frontier
            frontier = {nxt for current in frontier for nxt in below.get(current, ())} - seen
        if module in seen:
            circles.append(module)
    assert not circles, f"modules in an import circle: {circles}"


def test_engine_imports_nothing_outside_the_standard_library() -> None:
    # The engines' modules, as the import-linter contract lists them (a game's package holds its platform
    # parts beside its engine: those may import what they need).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pure = next(
        each
        for each in config["tool"]["importlinter"]["contracts"]
        if each["name"].startswith("The engines are pure Python")
    )
    modules: list[str] = pure["source_modules"]
    probe = (
        "import sys, importlib, pkgutil\n"
        "before = set(sys.modules)\n"
        f"for name in {modules!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    if hasattr(module, '__path__'):\n"
        "        for info in pkgutil.walk_packages(module.__path__, name + '.'):\n"
        "            importlib.import_module(info.name)\n"
        "new = set(sys.modules) - before\n"
        "bad = sorted(m for m in new if m.split('.')[0] not in sys.stdlib_module_names\n"
        "             and m.split('.')[0] != 'parlour')\n"
        "adapters = ('parlour.server', 'parlour.store', 'parlour.cli', 'parlour.i18n', 'parlour.web')\n"
        "bad += sorted(m for m in new if m.startswith(adapters))\n"
        "print('\\n'.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"the engine imports: {result.stdout}"


def _pins(lines: list[str]) -> dict[str, str]:
    """``name: version`` of every ``name==version`` requirement (extras and markers dropped)."""
    found = {}
    for line in lines:
        match = re.match(r"\s*\"?([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s\";\\]+)", line)
        if match:
            found[match.group(1).lower().replace("_", "-")] = match.group(2)
    return found


@pytest.mark.parametrize("lock", ["main.lock", "dev.lock"])
def test_the_lock_files_hold_every_pin_of_the_project_with_hashes(lock: str) -> None:
    """`make run`, `make test` and the container install from the lock files: every direct pin of
    pyproject.toml (and of the build requirements) is there at the same version, and every locked
    package carries at least one hash (pip's --require-hashes refuses the file otherwise)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    if lock == "dev.lock":
        wanted += project["optional-dependencies"]["dev"]
    wanted += (ROOT / "requirements" / "build.in").read_text().splitlines()
    text = (ROOT / "requirements" / lock).read_text()
    locked = _pins(text.splitlines())
    for name, version in _pins(wanted).items():
        assert locked.get(name) == version, f"{name}=={version} is not in requirements/{lock}: run make lock"
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    unhashed = [entry.split()[0] for entry in entries if "==" in entry and "--hash=sha256:" not in entry]
    assert not unhashed


def _css_rules(text: str, media: str | None = None) -> list[tuple[str | None, str, set[str]]]:
    """The style rules of a style sheet in order: (the @media condition around it or None, one selector,
    the properties it sets). Enough for our own sheets: no @supports, no nested @media."""
    rules: list[tuple[str | None, str, set[str]]] = []
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    at = 0
    while (found := re.compile(r"([^{}]+)\{").search(text, at)) is not None:
        depth, end = 1, found.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        head, body = found.group(1).strip(), text[found.end() : end - 1]
        if head.startswith("@media"):
            rules += _css_rules(body, head)
        elif not head.startswith("@"):
            properties = {part.split(":")[0].strip() for part in body.split(";") if ":" in part}
            rules += [(media, selector.strip(), properties) for selector in head.split(",")]
        at = end
    return rules


STYLE_SHEETS = {path.name: path for path in (ROOT / "src/parlour").glob("**/static/css/*.css")}
"""The platform's style sheets and each game's own."""


@pytest.mark.parametrize("sheet", sorted(STYLE_SHEETS))
def test_no_phone_rule_is_undone_by_a_later_rule_of_the_same_selector(sheet: str) -> None:
    # A rule inside "@media (max-width: …)" loses to a later rule of the same selector outside it (the same
    # weight, written later): a phone would get the wide layout's value. A phone's long Thirteen trick
    # wrapped onto four lines that way and pushed the hand off the screen.
    rules = _css_rules(STYLE_SHEETS[sheet].read_text(encoding="utf-8"))
    undone = [
        (selector, media, sorted(props & later_props))
        for index, (media, selector, props) in enumerate(rules)
        if media and "max-width" in media
        for later_media, later_selector, later_props in rules[index + 1 :]
        if later_media is None and later_selector == selector and props & later_props
    ]
    assert undone == []
