"""The apps import one way (docs/architecture.md): every import of every module of every app,
module-level or inside a function, is checked against the table below; the engine imports
nothing but the standard library and itself."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "games.engine"

# What each part may import besides itself (docs/architecture.md has the picture).
ALLOWED = {
    ENGINE: set(),
    "accounts": set(),
    "stats": {"accounts"},
    "lobby": {"accounts"},
    "games": {"accounts", "stats", "lobby", ENGINE},
    "moderation": {"accounts", "stats", "lobby", "games"},
    # The API reads the operators' log (moderation.selectors) for staff.
    "api": {"accounts", "stats", "lobby", "games", "moderation", "tournaments"},
    "ui": {"accounts", "stats", "lobby", "games", "tournaments"},
    # Duplicate tournaments: their tables are games' (games.signals tells them of results).
    "tournaments": {"accounts", "stats", "lobby", "games"},
    # The routing of the tournaments' socket (tournaments.routing) beside games'.
    "config": {"games", "tournaments"},
}
APPS = {part.split(".")[0] for part in ALLOWED}
STDLIB = sys.stdlib_module_names


def part_of(module):
    """The part of the project `module` (a dotted name) belongs to, or None (stdlib, Django,
    any other library)."""
    if module == ENGINE or module.startswith(ENGINE + "."):
        return ENGINE
    top = module.split(".")[0]
    return top if top in APPS else None


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source, module, is_package=False):
    """(line, dotted name) of everything `source` (the text of `module`) imports, at any
    depth: module level, in functions, in classes. `from a import b` also yields `a.b`,
    since b may be a module (`from games import engine`)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield node.lineno, target
            for alias in node.names:
                yield node.lineno, f"{target}.{alias.name}"


def type_checking_lines(source):
    """Lines of the statements inside `if TYPE_CHECKING:` blocks: read by mypy and mypyc,
    never run."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            lines.update(n.lineno for stmt in node.body for n in ast.walk(stmt) if hasattr(n, "lineno"))
    return lines


def violations(source, module, is_package=False):
    """The imports of `module` its part may not make, as readable lines (one per import
    statement and part)."""
    own = part_of(module)
    allowed = ALLOWED[own] | {own}
    found = {}
    compile_time = type_checking_lines(source)
    for line, target in imported_modules(source, module, is_package):
        if own == ENGINE and target.split(".")[0] == "mypy_extensions" and line in compile_time:
            continue  # mypyc's decorators for the compiled engine (games/engine/native.py)
        other = part_of(target)
        if own == ENGINE and other is None and target.split(".")[0] not in STDLIB:
            found.setdefault((line, None), f"{module}:{line} imports {target} (the engine uses "
                                            "the standard library only)")
        elif other is not None and other not in allowed:
            found.setdefault((line, other), f"{module}:{line} imports {target} ({own} may not "
                                             f"import {other})")
    return sorted(found.values())


def project_modules():
    for app in sorted(APPS):
        for path in sorted((ROOT / app).rglob("*.py")):
            yield path, module_name(path)


def test_every_app_imports_only_what_the_architecture_allows():
    found = []
    for path, module in project_modules():
        found += violations(path.read_text(), module, path.name == "__init__.py")
    assert found == []


def test_the_allowed_imports_have_no_cycle():
    order, seen = [], set()

    def visit(part, trail):
        assert part not in trail, f"cycle: {' -> '.join(trail + [part])}"
        if part not in seen:
            for other in sorted(ALLOWED[part]):
                visit(other, trail + [part])
            seen.add(part)
            order.append(part)

    for part in sorted(ALLOWED):
        visit(part, [])
    assert order.index("accounts") < order.index("lobby") < order.index("games") \
        < order.index("moderation")


def test_the_checker_sees_every_module_of_every_app():
    modules = {module for _, module in project_modules()}
    assert {"games.services.unit_of_work", "games.engine.registry", "moderation.services", "ui.views",
            "api.views", "stats.services", "lobby.models", "config.urls"} <= modules


@pytest.mark.parametrize("module,source,expected", [
    # An upward import, at module level and hidden in a function.
    ("games.services", "from api.selectors import x\n", "games may not import api"),
    ("lobby.services", "def f():\n    from games.services import table_create\n",
     "lobby may not import games"),
    ("accounts.admin", "import moderation.admin_actions\n", "accounts may not import moderation"),
    # Between peers at the top.
    ("ui.views", "from moderation.services import table_force_close\n",
     "ui may not import moderation"),
    ("moderation.admin", "from api.views import Pages\n", "moderation may not import api"),
    # The engine is games' own.
    ("api.filters", "from games.engine.registry import variant_ids\n",
     "api may not import games.engine"),
    ("stats.services", "from games import engine\n", "stats may not import games"),
    ("ui.forms", "from games import engine\n", "ui may not import games.engine"),
    # The engine imports the standard library and itself only.
    ("games.engine.hand", "from django.db import models\n", "standard library only"),
    ("games.engine.hand", "from lobby.models import Table\n", "games.engine may not import lobby"),
    ("games.engine.hand", "def f():\n    from games.services import x\n",
     "games.engine may not import games"),
])
def test_the_checker_finds_a_forbidden_import(module, source, expected):
    found = violations(source, module)
    assert found and all(expected in line for line in found), found


@pytest.mark.parametrize("module,source", [
    ("games.services", "from games.engine.registry import machine_for\n"),
    ("ui.views", "from games import services\n"),
    ("games.engine.four_deck.hand", "from ..hand import HandMachine\nimport random\n"),
    ("moderation.services", "from accounts import services as accounts_services\n"),
    ("api.views", "from rest_framework import generics\n"),
])
def test_the_checker_lets_allowed_imports_pass(module, source):
    assert violations(source, module) == []


def function_level_imports(source):
    """Lines of the imports made inside a function or class body, outside `if TYPE_CHECKING:`."""
    compile_time = type_checking_lines(source)
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            lines.update(n.lineno for n in ast.walk(node)
                         if isinstance(n, (ast.Import, ast.ImportFrom))
                         and n.lineno not in compile_time)
    return sorted(lines)


def test_games_imports_only_at_module_level():
    """An import inside a function hides a cycle (games.services and games.tasks once did):
    in games every import is at the top, where the cycle test below sees it."""
    found = [f"{module}:{line}" for path, module in project_modules()
             if part_of(module) in ("games", ENGINE) and ".migrations." not in module
             for line in function_level_imports(path.read_text())]
    assert found == []


def test_the_checker_finds_a_function_level_import():
    assert function_level_imports("def f():\n    from games.tasks import x\n") == [2]
    assert function_level_imports("from typing import TYPE_CHECKING\nclass A:\n"
                                  "    if TYPE_CHECKING:\n        import x\n") == []


def module_graph():
    """{module: the project modules it imports at module level} over every app."""
    modules = {module: (path, path.name == "__init__.py") for path, module in project_modules()}
    graph = {}
    for module, (path, is_package) in modules.items():
        source = path.read_text()
        skip = set(function_level_imports(source)) | type_checking_lines(source)
        targets = set()
        for line, target in imported_modules(source, module, is_package):
            if line not in skip and target in modules and target != module:
                targets.add(target)
        graph[module] = targets
    return graph


def import_cycle(graph):
    """One cycle of `graph` as a list of modules, or None."""
    state, trail = {}, []

    def visit(module):
        state[module] = "open"
        trail.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                return trail[trail.index(other):] + [other]
            if other not in state:
                cycle = visit(other)
                if cycle:
                    return cycle
        trail.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def test_no_modules_of_the_project_import_each_other_in_a_cycle():
    assert import_cycle(module_graph()) is None


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert import_cycle(graph) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b"}, "b": set()}) is None


def test_the_repository_stands_on_its_own():
    """The rules, the conformance cases and everything else are inside the repository: no
    tracked file points at a folder beside it (docs/rules/README.md)."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    # Spelt in two pieces so that this file does not match itself.
    outside = re.compile(r"\.\./" + "shared|/work/" + "shared")
    offenders = [name for name in tracked
                 if (ROOT / name).is_file() and not name.endswith((".png", ".mo"))
                 and outside.search((ROOT / name).read_text(errors="ignore"))]
    assert offenders == []
    for name in ("RULES.md", "NOTATION.md", "CONFORMANCE.md"):
        assert (ROOT / "docs" / "rules" / name).is_file()


MAX_LINES = 500  # past this a module holds more than one thing: split it by what each part does


def test_no_module_of_games_is_longer_than_max_lines():
    long = [f"{path.relative_to(ROOT)}: {n}" for path in sorted((ROOT / "games").rglob("*.py"))
            if "migrations" not in path.parts
            and (n := len(path.read_text().splitlines())) > MAX_LINES]
    assert long == []
