/* The table's one socket (docs/protocol.md): `hello` with the last seq on every open, the
   reconnection with backoff while it is down, the close codes that end it, and actions sent
   with the version they were chosen on. */

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;
// The deal moves the version several times a second, so a declaration (or Ready) is often
// one step late; it means the same on the new version, so it is sent again (a few times).
// A play is never resent: the table it was chosen for has changed.
const RESEND_WHEN_STALE = { declare: true, ready: true, take_back: true };
const RESEND_MAX = 5;
const CLOSE_SIGNED_OUT = 4401;

/* Opens the socket at `path`. `on`: {message(msg), down(), up(), stopped(code), seq()}:
   `seq()` is the last seq taken (null before any), `stopped(code)` a close code after
   which the page does not reconnect (4400, 4403, 4404, 4409, 4429). */
export function tableSocket(path, on) {
  let socket = null;
  let wait = RECONNECT_MIN_MS;
  let stopped = false;
  let last = null;            // the last action sent, to resend it once it went stale

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    socket.onopen = () => {
      wait = RECONNECT_MIN_MS;
      on.up();
      // The server answers with the missed events or a snapshot.
      hello();
    };
    socket.onmessage = (e) => on.message(JSON.parse(e.data));
    socket.onclose = (e) => {
      if (stopped) return;
      if (e.code === CLOSE_SIGNED_OUT) {
        stopped = true;
        location.href = "/accounts/login/?next=" + encodeURIComponent(location.pathname);
        return;
      }
      if (on.stopped(e.code)) { stopped = true; return; }
      on.down();
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, RECONNECT_MAX_MS);
    };
  }

  function open() { return !!socket && socket.readyState === WebSocket.OPEN; }

  /* Sends `message` as it is; false (and the banner) when the socket is down. */
  function send(message) {
    if (!open()) { on.down(); return false; }
    socket.send(JSON.stringify(message));
    return true;
  }

  function hello() {
    const seq = on.seq();
    send(seq != null ? { type: "hello", seq: seq } : { type: "hello" });
  }

  function act(action, version, retry) {
    if (!open()) { on.down(); return; }
    last = { action: action, retry: retry || 0 };
    send({ type: "action", action: action, version: version });
  }

  /* After an error message (and its snapshot taken): true if it was a stale action worth
     sending again, which it then was, on `version`. */
  function resendStale(msg, version) {
    if (msg.code !== "stale_version" || !last || !RESEND_WHEN_STALE[last.action.type] || last.retry >= RESEND_MAX) return false;
    act(last.action, version, last.retry + 1);
    return true;
  }

  connect();
  return { send: send, hello: hello, act: act, resendStale: resendStale, open: open };
}
