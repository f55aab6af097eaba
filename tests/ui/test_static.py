"""The page scripts hold no rules: the server's view says what is legal, what is trump, how
cards sort and when a timer runs out (docs/protocol.md), so no script names a variant."""

import re
from pathlib import Path

import pytest

from games.engine.registry import variant_ids

STATIC = Path(__file__).resolve().parents[2] / "static" / "ui"
SCRIPTS = sorted(STATIC.rglob("*.js"))
TABLE = sorted((STATIC / "table").glob("*.js"))


def test_there_are_scripts_to_check():
    assert {"state.js", "draw.js", "socket.js", "main.js"} <= {path.name for path in TABLE}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: str(path.relative_to(STATIC)))
def test_no_script_names_a_variant(path):
    text = path.read_text()
    named = [variant for variant in variant_ids() if re.search(rf"\b{variant}\b", text)]
    assert named == []


@pytest.mark.parametrize("path", TABLE, ids=lambda path: path.name)
def test_the_table_scripts_keep_no_rules_of_their_own(path):
    text = path.read_text()
    # No trump tables, follow rules, bid ladders, declaration strengths or timer lengths.
    for name in ("PERMANENT", "followHint", "declareOptions", "strength(", "client.timers",
                 "adjacentPairs", "- 5", "120"):
        assert name not in text, name
    # Whose turn it is and who plays with whom come in the view (`acting`, `teams`); the
    # figures of a refusal are fields of the error message, never read out of its text.
    for derived in ("% 2", "seat % 2", ".turn ===", ".turn !==", "match(/"):
        assert derived not in text, derived


def test_production_static_files_load_the_table_modules_by_their_hashed_names(tmp_path, settings):
    """collectstatic with production's storage (config.storage): each module of the table
    imports the others under their hashed names, as the page loads main.js."""
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = dict(settings.STORAGES,
                             staticfiles={"BACKEND": "config.storage.StaticStorage"})
    call_command("collectstatic", "--noinput", verbosity=0)
    (main,) = (tmp_path / "ui" / "table").glob("main.*.js")
    imports = [line for line in main.read_text().splitlines() if line.startswith("import")]
    assert len(imports) == 5
    assert all(re.search(r'from "\./\w+\.[0-9a-f]{12}\.js";$', line) for line in imports), imports
