"""Compile the engine with mypyc for the current sources, unless that build is there.

    .venv/bin/python platform/engine_native.py          # build if missing (platform/venv.sh)
    .venv/bin/python platform/engine_native.py --force  # build again

A finished build is also kept in ~/.cache/tractor (TRACTOR_BUILD_CACHE), keyed by the same
stamp and mypyc's version: another checkout of the same sources copies it from there.

The build goes to build/engine-native/<stamp>/ (games/engine/native.py says how it is
found and when it is used). It compiles a copy of the sources, so the repository's own
tree never holds a binary next to a .py. Older builds are removed. A failed build leaves
nothing behind and exits non-zero; the engine then runs as plain Python.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from importlib.metadata import version

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _native_module():
    # By path: importing the package would install the loader this script builds for.
    spec = importlib.util.spec_from_file_location(
        "_engine_native", os.path.join(REPO, "games", "engine", "native.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(native, target):
    work = target + ".tmp"
    shutil.rmtree(work, ignore_errors=True)
    engine = os.path.join(work, "games", "engine")
    shutil.copytree(native.ENGINE_DIR, engine,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    with open(os.path.join(work, "games", "__init__.py"), "w"):
        pass
    # mypy looks for its configuration up the tree: the repository's mypy.ini (the platform's
    # Django checks) must not reach the engine's build, so the build has its own, empty.
    with open(os.path.join(work, "mypy.ini"), "w") as f:
        f.write("[mypy]\n")
    files = [os.path.join("games", "engine", m) for m in native.compiled_sources()]
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=work,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        sys.stderr.write(done.stdout[-4000:])
        return False
    # Keep only the extension modules, where the finder looks for them.
    shutil.rmtree(target, ignore_errors=True)
    for file in native.compiled_modules(work).values():
        rel = os.path.relpath(file, work)
        if rel.split(os.sep)[0] == "build":
            continue  # mypyc's intermediate copies
        dest = os.path.join(target, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.move(file, dest)
    shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(target, "COMPLETE"), "w") as f:
        f.write(f"built in {time.monotonic() - started:.0f} s\n")
    return True


def _cache_dir(native):
    """The same build kept outside the checkout (like pip's wheel cache), so a fresh clone
    of the same sources, on the same interpreter and mypyc, copies it instead of compiling:
    TRACTOR_BUILD_CACHE, else ~/.cache/tractor. Nothing is shared when it cannot be written."""
    root = os.environ.get("TRACTOR_BUILD_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "tractor")
    return os.path.join(root, "engine-native", f"{native.stamp()}-mypy{version('mypy')}")


def _copy_complete(source, dest):
    """Copy a finished build; True when `dest` then holds one."""
    if not os.path.exists(os.path.join(source, "COMPLETE")):
        return False
    work = dest + ".copy"
    try:
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(source, work)
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        os.replace(work, dest)
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
        return False
    return True


def _prune(root, keep):
    """Keep the `keep` newest builds of the cache: each edit of the engine makes another."""
    builds = sorted((os.path.join(root, name) for name in os.listdir(root)),
                    key=os.path.getmtime, reverse=True)
    for old in builds[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    native = _native_module()
    target = native.build_dir()
    cache = _cache_dir(native)
    if os.path.exists(os.path.join(target, "COMPLETE")) and not args.force:
        if not os.path.exists(os.path.join(cache, "COMPLETE")):
            _copy_complete(target, cache)
        return 0
    if args.force or not _copy_complete(cache, target):
        print("Compiling the engine with mypyc (about a minute) ...", file=sys.stderr)
        if not build(native, target):
            print("The engine's compilation failed; it runs as plain Python.", file=sys.stderr)
            return 1
        if _copy_complete(target, cache):
            _prune(os.path.dirname(cache), keep=4)
    for old in os.listdir(native.BUILD_ROOT):
        if os.path.join(native.BUILD_ROOT, old) != target:
            shutil.rmtree(os.path.join(native.BUILD_ROOT, old), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
