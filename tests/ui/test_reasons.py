"""static/ui/reasons.js under Node: its own tests (tests/ui/js/reasons.test.mjs, Node's test
runner), and the sentences it makes of the refusals the engine really raises
(tests/games/engine/test_refusals.py's): each a sentence in both languages with no parameter
gone missing."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.games.engine.test_refusals import raised

HERE = Path(__file__).resolve().parent
REASONS = HERE.parents[1] / "static" / "ui" / "reasons.js"
NODE = shutil.which("node") or "node"


def test_the_node_tests_of_reasons_pass():
    done = subprocess.run([NODE, "--test", str(HERE / "js" / "reasons.test.mjs")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


def sentences(refusals, lang):
    program = (
        "const [source, lang] = process.argv.slice(1);"
        "const refusals = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "import(source).then(m => process.stdout.write(JSON.stringify("
        "refusals.map(([code, params]) => m.reasonText(code, params, lang)))));"
    )
    done = subprocess.run([NODE, "-e", program, REASONS.as_uri(), lang], input=json.dumps(refusals),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_refusal_the_engine_raises_reads_as_a_sentence(lang):
    refusals = raised()
    for (code, params), text in zip(refusals, sentences(refusals, lang)):
        assert text, code
        assert not any(word in text for word in ("undefined", "NaN", "null", "[object")), (code, params, text)
    if lang == "zh":  # the cards named in Chinese: the protocol's example follow
        follow = sentences([("illegal_follow", refusals[2][1])], lang)[0]
        assert "红桃K" in follow and "拖拉机" in follow, follow
