"""config/serve.py: daphne's loop is uvloop's only if the policy is set before daphne.server
is imported (it creates the loop at import). Each case runs in its own interpreter, because
importing daphne.server installs Twisted's reactor for the whole process."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOOP_OF_DAPHNE = """
import sys
{before}
import config.serve
installed = config.serve.event_loop_install()
import daphne.server
from twisted.internet import reactor
assert reactor._asyncioEventloop is daphne.server.twisted_loop
print(installed, type(daphne.server.twisted_loop).__module__)
"""


def loop_of_daphne(before=""):
    done = subprocess.run([sys.executable, "-c", LOOP_OF_DAPHNE.format(before=before)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_daphne_runs_twisted_on_uvloop():
    assert loop_of_daphne() == ["True", "uvloop"]


def test_without_uvloop_daphne_keeps_asyncio_loop():
    # A None entry in sys.modules makes `import uvloop` raise ImportError, as where it is
    # not installed.
    assert loop_of_daphne(before="sys.modules['uvloop'] = None") == ["False", "asyncio.unix_events"]


def test_procfile_web_process_is_daphne_on_uvloop():
    web = next(line for line in (ROOT / "platform" / "Procfile").read_text().splitlines()
               if line.startswith("web: "))
    assert web.split()[1:4] == ["python", "-m", "config.serve"]
