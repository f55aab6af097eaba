"""The page scripts hold no rules: the server's view says what is legal, what is trump, how
cards sort and when a timer runs out (docs/protocol.md), so no script names a variant."""

import re
from pathlib import Path

import pytest

from games.engine.registry import variant_ids

STATIC = Path(__file__).resolve().parents[2] / "static" / "ui"
SCRIPTS = sorted(STATIC.glob("*.js"))


def test_there_are_scripts_to_check():
    assert any(path.name == "table.js" for path in SCRIPTS)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_no_script_names_a_variant(path):
    text = path.read_text()
    named = [variant for variant in variant_ids() if re.search(rf"\b{variant}\b", text)]
    assert named == []


def test_the_table_script_keeps_no_rules_of_its_own():
    text = (STATIC / "table.js").read_text()
    # No trump tables, follow rules, bid ladders, declaration strengths or timer lengths.
    for name in ("PERMANENT", "followHint", "declareOptions", "strength(", "client.timers",
                 "adjacentPairs", "- 5", "120"):
        assert name not in text, name
