"""The engine's wiring: the registry names every variant, no module needs an import cycle
broken (each imports alone, none imports inside a function), the engine needs nothing
but the standard library, and the rule classes know nothing of rules_check."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import games.engine
from games.engine.conformance_adapters import ADAPTERS
from games.engine.registry import descriptor, get_variant, variant_ids

ENGINE = Path(games.engine.__file__).parent
ROOT = ENGINE.parent.parent
MODULES = sorted(
    "games.engine" + "".join(f".{part}" for part in path.relative_to(ENGINE).with_suffix("").parts if part != "__init__")
    for path in ENGINE.rglob("*.py")
)


def test_every_engine_module_is_listed():
    assert {"games.engine.registry", "games.engine.families.two_deck", "games.engine.classic.hand"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone_in_a_fresh_interpreter(module):
    run = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def _type_checking_body(node):
    """The body of an ``if TYPE_CHECKING:`` block, which is read by mypy and mypyc and never
    run: only mypyc's decorators may be imported there (games/engine/native.py)."""
    if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
        assert all(isinstance(n, ast.ImportFrom) and n.module == "mypy_extensions" for n in node.body), (
            "only mypy_extensions may be imported for type checking alone")
        return node.body
    return ()


def imports_of(path):
    """(node, the function it sits in or None) for every import statement of a module."""
    found = []

    def walk(node, function):
        skipped = _type_checking_body(node)
        for child in ast.iter_child_nodes(node):
            if any(child is n for n in skipped):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, function))
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            walk(child, inner)

    walk(ast.parse(path.read_text()), None)
    return found


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_import_inside_a_function_and_nothing_outside_the_standard_library(path):
    for node, function in imports_of(path):
        assert function is None, f"{path.name}:{node.lineno} imports inside {function}()"
        if isinstance(node, ast.ImportFrom) and node.level:
            continue  # within the engine
        names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
        for name in names:
            assert name.split(".")[0] in sys.stdlib_module_names, f"{path.name}:{node.lineno} imports {name}"


@pytest.mark.parametrize("variant_id", sorted(ADAPTERS))
def test_rules_check_adapters_cover_the_real_variants_and_the_rules_have_no_rc_members(variant_id):
    assert variant_id in variant_ids()
    assert descriptor(variant_id).id == get_variant(variant_id).id == variant_id
    assert [name for name in dir(get_variant(variant_id)) if name.startswith("rc_")] == []
