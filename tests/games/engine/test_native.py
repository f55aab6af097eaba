"""games/engine/native.py: the compiled engine is used only for its own sources, and it
plays exactly the hands the plain-Python engine plays."""

import json
import os
import shutil
import subprocess
import sys

from games.engine import native

# Plays hands of every variant with random legal moves and prints, per variant, a hash of
# every state and event on the way and whether the engine ran compiled.
HANDS = """
import hashlib, json, random, sys
sys.path.insert(0, "bench")
from engine_simulate import play_hand
from games.engine import native
from games.engine.registry import machine_for, variant_ids

out = {"compiled": native.in_use()}
for variant in sorted(variant_ids()):
    machine = machine_for(variant)
    digest = hashlib.sha256()
    for seed in (1, 7):
        rng = random.Random(seed)
        state = machine.new_match(seed)
        for _ in range(40):
            state = play_hand(machine, state, rng)
            digest.update(json.dumps(state, sort_keys=True, default=list).encode())
            state = machine.next_hand(state)
    # The search bot too: its decisions ride on the rollouts the compiled code runs.
    from games.engine.strength import bot_decide
    state = machine.new_match(3)
    rng = random.Random(3)
    while state["phase"] != "play":  # as bench/engine_simulate.py's hands, to the first lead
        calls = [c for s in range(4) for c in machine.legal_calls(state, s)]
        if calls and rng.random() < 0.5:
            state, _ = machine.apply(state, rng.choice(calls))
            continue
        kind, seat, action = machine.timer(state)
        state, _ = machine.apply(state, dict(action, count=1000) if kind == "deal" else action)
    action = bot_decide(state, state["turn"], level="hard", seed=5, budget_ms=None, rollouts=24)
    digest.update(json.dumps(action, sort_keys=True, default=list).encode())
    out[variant] = digest.hexdigest()
print(json.dumps(out))
"""


def _play(**env):
    env = dict({k: v for k, v in os.environ.items() if k != "TRACTOR_ENGINE"}, **env)
    done = subprocess.run([sys.executable, "-c", HANDS], capture_output=True, text=True,
                          cwd=native.REPO_DIR, env=env, check=True)
    return json.loads(done.stdout)


def test_the_compiled_engine_plays_the_same_hands_as_the_sources():
    assert os.path.exists(os.path.join(native.build_dir(), "COMPLETE")), (
        "no compiled engine for these sources: run .venv/bin/python platform/engine_native.py")
    compiled = _play()
    plain = _play(TRACTOR_ENGINE="python")
    assert compiled.pop("compiled") is True
    assert plain.pop("compiled") is False
    assert sorted(compiled) == ["classic", "four_deck", "guigang", "point_bid"]
    assert compiled == plain


def _copy_engine(tmp_path, monkeypatch):
    engine = tmp_path / "games" / "engine"
    shutil.copytree(native.ENGINE_DIR, engine, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(native, "ENGINE_DIR", str(engine))
    monkeypatch.setattr(native, "BUILD_ROOT", str(tmp_path / "build"))
    return engine


def test_an_edit_to_any_engine_source_changes_the_stamp(tmp_path, monkeypatch):
    engine = _copy_engine(tmp_path, monkeypatch)
    before = native.stamp()
    assert native.stamp() == before
    rules = engine / "guigang" / "rules.py"  # a module that is not the first compiled one
    rules.write_text(rules.read_text() + "\n# an edit\n")
    assert native.stamp() != before
    # A file that is not compiled counts too: the compiled modules import it.
    rules.write_text(rules.read_text().replace("\n# an edit\n", ""))
    assert native.stamp() == before
    (engine / "errors.py").write_text((engine / "errors.py").read_text() + "\n")
    assert native.stamp() != before


def test_no_build_or_an_unfinished_one_leaves_the_sources_in_use(tmp_path, monkeypatch):
    _copy_engine(tmp_path, monkeypatch)
    monkeypatch.delenv("TRACTOR_ENGINE", raising=False)
    finders = list(sys.meta_path)
    assert native.install() is False  # nothing built for this copy
    unfinished = native.build_dir()
    os.makedirs(os.path.join(unfinished, "games", "engine"))
    open(os.path.join(unfinished, "games", "engine", "hand.so"), "w").close()
    assert native.install() is False  # no COMPLETE mark: the build was cut short
    open(os.path.join(unfinished, "COMPLETE"), "w").close()
    monkeypatch.setenv("TRACTOR_ENGINE", "python")
    assert native.install() is False  # switched off
    assert sys.meta_path == finders


def test_the_build_holds_every_compiled_module(tmp_path):
    modules = native.compiled_modules(native.build_dir())
    expected = {"games.engine." + m[:-3].replace("/", ".") for m in native.compiled_sources()}
    assert expected <= set(modules)
    # mypyc's shared library is the one other module, imported by the others by its name.
    (shared,) = set(modules) - expected
    assert "." not in shared and shared.endswith("__mypyc")
    assert json.dumps(sorted(modules))  # names only, no paths into the sources' tree
    assert all(not file.startswith(native.ENGINE_DIR) for file in modules.values())
