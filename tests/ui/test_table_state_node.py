"""The table page's reducer (static/ui/table/state.js) tested under Node's own test runner
on the recorded socket streams of every variant (tests/ui/js/, tests/ui/streams/): run here
so the suite fails when they do."""

import json
import shutil
import subprocess
from pathlib import Path

from games.engine.registry import variant_ids

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node") or "node"


def test_the_reducer_passes_its_node_tests_on_every_variants_stream():
    done = subprocess.run([NODE, "--test", str(HERE / "js")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


def test_there_is_a_stream_of_every_variant_with_what_the_page_reads_of_the_server():
    """The streams are the server's own messages (tests/ui/record_streams.py records them
    again): each has the view's `acting` and `teams` the page relies on."""
    assert sorted(p.stem for p in (HERE / "streams").glob("*.json")) == sorted(variant_ids())
    for path in (HERE / "streams").glob("*.json"):
        stream = json.loads(path.read_text())
        views = [m["view"] for m in stream["messages"] if m.get("view")]
        assert views and all("acting" in v and "teams" in v for v in views), path.name
        assert len(stream["truth"]) == len(stream["messages"])
