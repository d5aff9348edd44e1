"""A game is one package (decision 0061): outside its package no code names it, and every module of it is
either its engine (pure Python, checked by import-linter) or one of its platform parts.

The scan reads code, not prose: identifiers and string constants, leaving docstrings and comments,
which may well mention a game as an example. No file is exempt by its name; only the migrations are,
since they say what the database held before (a game's name in old rows).
"""

from __future__ import annotations

import ast
import itertools
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARLOUR = ROOT / "src" / "parlour"
GAMES = ("tripeaks", "thirteen")
NAMES = re.compile(r"tripeaks|thirteen|\bT[PH][12]-", re.IGNORECASE)
PLATFORM_PARTS = {
    "definition",
    "texts",
    "seat_view",
    "review_texts",
    "puzzle_board",
    "site",
    "terminal",
    "commands",
    "learn",
}
"""A game package's parts that face the platform; every other module of the package is its engine."""
ASSETS = ("templates", "static", "locale")


def _docstrings(tree: ast.AST) -> set[int]:
    """Return the ids of the string constants that are docstrings (of the module, a class, a function)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
        # an attribute's docstring: the string right after an assignment
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for before, after in itertools.pairwise(body):
                if (
                    isinstance(before, ast.Assign | ast.AnnAssign)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    found.add(id(after.value))
    return found


def named_in_code(path: Path) -> list[str]:
    """Return the identifiers and string constants of a module (not its docstrings) that name a game."""
    tree = ast.parse(path.read_text())
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.alias):
            text = node.name
        elif isinstance(node, ast.ImportFrom):
            text = node.module
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = node.name
        if text and NAMES.search(text):
            found.append(f"{getattr(node, 'lineno', '?')}: {text[:80]}")
    return found


def platform_files(suffix: str) -> list[Path]:
    """Every file of ``suffix`` in ``src/parlour`` outside the games' packages and the migrations."""
    return [
        path
        for path in sorted(PARLOUR.rglob(f"*{suffix}"))
        if path.relative_to(PARLOUR).parts[0] not in GAMES and "migrations" not in path.parts
    ]


def test_no_platform_module_names_a_game() -> None:
    found = {
        str(path.relative_to(PARLOUR)): lines[:3]
        for path in platform_files(".py")
        if (lines := named_in_code(path))
    }
    assert not found, found


def test_no_platform_template_script_or_style_names_a_game() -> None:
    found = {}
    for suffix in (".html", ".js", ".css"):
        for path in platform_files(suffix):
            lines = [line.strip() for line in path.read_text().splitlines() if NAMES.search(line)]
            if lines:
                found[str(path.relative_to(PARLOUR))] = lines[:3]
    assert not found, found


def engine_modules(game: str) -> set[str]:
    """The modules of a game's package that are its engine: all but its platform parts and assets."""
    package = PARLOUR / game
    names = {path.stem for path in package.glob("*.py") if path.stem != "__init__"}
    names |= {path.name for path in package.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    return names - PLATFORM_PARTS


def test_the_purity_contract_names_every_engine_module() -> None:
    """A new engine module must join the import-linter contract that keeps the engines pure Python."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    pure = next(
        contract for contract in contracts if contract["name"].startswith("The engines are pure Python")
    )
    for game in GAMES:
        listed = {
            module.split(".")[2] for module in pure["source_modules"] if module.startswith(f"parlour.{game}.")
        }
        assert listed == engine_modules(game), game


def test_each_game_keeps_its_own_files_in_its_package() -> None:
    """The game's templates, scripts, styles and catalogs are found in its package, not the platform's."""
    for game in GAMES:
        package = PARLOUR / game
        assert all((package / folder).is_dir() for folder in ASSETS), game
        assert (package / "templates" / f"{game}.html").exists()
        assert (package / "static" / "js" / f"{game}.js").exists()
        assert list((package / "locale").glob("*/LC_MESSAGES/*.po"))
