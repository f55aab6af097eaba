"""games/engine/errors.py: a refusal's code, words and parameters; and every code the engine
can raise (found in its source) has its row in docs/protocol.md's table of refusals, whose
parameters are those the engine gives, and a sentence in English and Chinese in the page's
static/ui/reasons.js."""

import json
import re
import shutil
import subprocess
from pathlib import Path

from games.engine.errors import RuleError, given

from .test_refusals import raised

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "games" / "engine"
PROTOCOL = ROOT / "docs" / "protocol.md"
REASONS = ROOT / "static" / "ui" / "reasons.js"
NODE = shutil.which("node") or "node"


def test_a_refusal_keeps_its_code_words_and_parameters():
    error = RuleError("not_your_turn", "it is not your turn", turn=2)
    assert (error.code, error.message, error.params) == ("not_your_turn", "it is not your turn", {"turn": 2})
    assert str(error) == "it is not your turn"
    bare = RuleError("hand_over")
    assert (bare.message, bare.params) == ("hand_over", {})


def test_what_an_action_gave_stays_json():
    assert [given(v) for v in ("X9", 99, None, 1.5)] == ["X9", 99, None, 1.5]
    assert given(["H2"]) == "['H2']" and given({"a": 1}) == "{'a': 1}"


def engine_codes():
    """Every code the engine's source raises or returns as a RuleError."""
    codes = set()
    for path in ENGINE.rglob("*.py"):
        codes.update(re.findall(r'RuleError\(\s*"([a-z_]+)"', path.read_text()))
    return codes


def protocol_rows():
    """{code: its params column} of docs/protocol.md's table of the engine's refusals."""
    text = PROTOCOL.read_text()
    section = text[text.index("#### Refusals of the engine"):]
    section = section[:section.index("\n## ")]
    return {code: params for code, params in re.findall(r"^\| `([a-z_]+)` \|[^|]*\| (.*) \|$", section, re.M)}


def reasons_languages():
    """{code: [languages]} of reasons.js's table, as Node loads the module."""
    program = (
        "import(process.argv[1]).then(m => process.stdout.write(JSON.stringify("
        "Object.fromEntries(Object.entries(m.REASONS).map(([code, texts]) => [code, "
        "Object.keys(texts).filter(k => typeof texts[k] === 'function').sort()])))))"
    )
    done = subprocess.run([NODE, "--input-type=module", "-e", program, REASONS.as_uri()],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_scan_finds_the_codes_of_the_issue():
    assert {"illegal_follow", "illegal_lead", "throw_refused", "not_your_turn", "cards_not_held",
            "play_not_in_hand", "wrong_count", "illegal_bid", "declaration_rejected",
            "wrong_phase"} <= engine_codes()


def test_every_engine_code_has_exactly_one_documented_row():
    rows = protocol_rows()
    assert sorted(engine_codes() - set(rows)) == []
    assert sorted(set(rows) - engine_codes()) == []  # no row for a code the engine lost


def test_the_documented_params_are_those_the_engine_gives():
    rows = protocol_rows()
    for code, params in raised():
        for name in params:
            assert f"`{name}`" in rows[code], (code, name)


def test_every_engine_code_has_an_english_and_a_chinese_sentence():
    languages = reasons_languages()
    assert {code: languages.get(code) for code in engine_codes()} == {
        code: ["en", "zh"] for code in engine_codes()}
