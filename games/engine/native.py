"""The compiled engine: the same modules built by mypyc, used when built for exactly these sources.

The engine is plain Python and stays so: ``platform/engine_native.py`` compiles the modules
of ``compiled_sources()`` with mypyc into ``build/engine-native/<stamp>/`` (the README's commands run
it), and this module, installed by the package's ``__init__`` before any other engine
module is imported, makes ``import games.engine.hand`` load the compiled one from there.
The stamp is a hash of every engine source file and of the interpreter's ABI, so a build
is used only for the sources it was made from: after an edit the interpreter runs the
edited ``.py`` until the next build, never a stale binary. ``TRACTOR_ENGINE=python`` runs
the sources even when a build is there. Both play the same hands from the same seed
(tests/games/engine/test_native.py).

Why: search bots live on rollouts (issue 14), and the engine's step is a few µs of Python
that mypyc runs without the interpreter's dispatch. Nothing here imports Django.
"""

import hashlib
import importlib.abc
import importlib.util
import os
import sys
import sysconfig
from typing import TYPE_CHECKING

ENGINE_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(os.path.dirname(ENGINE_DIR))
BUILD_ROOT = os.path.join(REPO_DIR, "build", "engine-native")

# Not compiled: the package __init__ files (they install the loader), this module, the
# descriptors and the registry (import-time wiring, run once), the bot levels' dispatch
# (once per decision), the errors, the loss bounds (once per table) and conformance (the
# rules_check tool), the typed facts the platform reads (facts.py, once per change) and a
# hand's review (analysis.py: its time is in the rollouts it asks for). Every other module
# is, a new variant's package included.
NOT_COMPILED = ("__init__.py", "native.py", "descriptor.py", "registry.py", "strength.py",
                "errors.py", "bounds.py", "loss.py", "conformance.py", "conformance_adapters.py",
                "facts.py", "analysis.py")

if TYPE_CHECKING:  # the compiler reads these decorators; they do nothing when run
    from mypy_extensions import mypyc_attr, trait
else:
    def mypyc_attr(**_):
        return lambda cls: cls

    def trait(cls):
        return cls


def source_files():
    """Every .py of the engine, relative to games/engine, sorted: what the stamp covers."""
    out = []
    for root, dirs, files in os.walk(ENGINE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(root, ENGINE_DIR)
        out.extend(os.path.normpath(os.path.join(rel, f)) for f in files if f.endswith(".py"))
    return sorted(out)


def compiled_sources():
    """The modules the build compiles, relative to games/engine."""
    return [rel for rel in source_files() if os.path.basename(rel) not in NOT_COMPILED]


def stamp():
    """Hash of the interpreter's extension ABI and of every engine source file."""
    h = hashlib.sha256()
    h.update(sysconfig.get_config_var("EXT_SUFFIX").encode())
    for rel in source_files():
        h.update(rel.encode() + b"\0")
        with open(os.path.join(ENGINE_DIR, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:20]


def build_dir():
    """Where the build for these sources is (or would be)."""
    return os.path.join(BUILD_ROOT, stamp())


def compiled_modules(directory):
    """{module name: extension file} of a finished build: the engine's modules and mypyc's
    shared library (a top-level module the others import)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    found = {}
    for root, _, files in os.walk(directory):
        for f in files:
            if not f.endswith(suffix):
                continue
            rel = os.path.relpath(os.path.join(root, f), directory)[: -len(suffix)]
            found[rel.replace(os.sep, ".")] = os.path.join(root, f)
    return found


class _CompiledFinder(importlib.abc.MetaPathFinder):
    def __init__(self, modules):
        self.modules = modules

    def find_spec(self, fullname, path=None, target=None):
        file = self.modules.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def install():
    """Load the compiled engine from now on, where a complete build for these sources is
    there and not switched off; returns whether it is used."""
    if os.environ.get("TRACTOR_ENGINE", "") == "python":
        return False
    directory = build_dir()
    if not os.path.exists(os.path.join(directory, "COMPLETE")):
        return False
    modules = compiled_modules(directory)
    if not any(name.startswith("games.engine.") for name in modules):
        return False
    sys.meta_path.insert(0, _CompiledFinder(modules))
    return True


def in_use():
    """Whether the engine's modules run compiled in this process."""
    return not importlib.import_module("games.engine.hand").__file__.endswith(".py")
