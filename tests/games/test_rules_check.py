"""``manage.py rules_check`` exactly as CONFORMANCE.md: every case file with an engine
behind it passes --check (exit 0), output order and exit codes follow the contract."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.registry import variant_ids

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "rules_cases"


def rules_check(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "manage.py", "rules_check", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("variant", sorted(variant_ids()))
def test_check_passes_every_published_case(variant):
    path = CASES / f"{variant}.json"
    run = rules_check("--check", str(path))
    assert run.returncode == 0, run.stderr
    cases = json.loads(path.read_text())
    out = json.loads(run.stdout)
    assert [o["id"] for o in out] == [c["id"] for c in cases]
    assert f"checked {len(cases)}, failed 0" in run.stderr


def test_failed_expectation_exits_1_and_names_the_case():
    case = {"id": "x-1", "kind": "score", "variant": "classic", "defender_points": 80,
            "expect": {"winner": "dealer"}}
    run = rules_check("--check", "-", stdin=json.dumps([case]))
    assert run.returncode == 1
    assert "checked 1, failed 1" in run.stderr and "x-1" in run.stderr
    assert json.loads(run.stdout)[0]["result"]["winner"] == "defenders"


def test_errors_are_results_not_failures_without_check():
    run = rules_check("-", stdin=json.dumps([{"id": "e", "kind": "nope", "variant": "classic"}]))
    assert run.returncode == 0
    assert json.loads(run.stdout) == [{"id": "e", "error": "unknown_kind"}]


@pytest.mark.parametrize("stdin", ["{}", "not json", '{"id": 1}'])
def test_not_a_json_array_exits_2_with_nothing_on_stdout(stdin):
    run = rules_check("-", stdin=stdin)
    assert run.returncode == 2
    assert run.stdout == ""


def test_unreadable_file_exits_2(tmp_path):
    run = rules_check(str(tmp_path / "missing.json"))
    assert run.returncode == 2 and run.stdout == ""
