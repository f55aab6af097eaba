/* Table chat (docs/protocol.md, "Chat"): the messages come as `chat` / `chat_deleted` events
   of the table's sequence through table.js's `tractor:message` hook, and a snapshot's `chat`
   replaces what was shown; messages leave on the table's own socket
   (window.TractorTable.sendMessage). The server decides who hears whom: a seat hears the
   players; a spectator hears the spectators and, read-only, the players' table talk.
   Every name and text is inserted as text, never as markup. */
"use strict";

(function (root) {
  /* The messages shown after one socket message: a snapshot's `chat` replaces them, `chat`
     events are added once each (by seq), `chat_deleted` removes one. Oldest first. */
  function reduce(messages, msg) {
    var snapshot = msg.type === "snapshot" && Array.isArray(msg.chat);
    var out = snapshot ? msg.chat.slice() : messages.slice();
    (msg.type === "snapshot" ? [] : msg.events || []).forEach(function (ev) {
      if (ev.type === "chat" && !out.some(function (m) { return m.seq === ev.seq; })) out.push(ev);
      else if (ev.type === "chat_deleted") {
        out = out.filter(function (m) { return m.seq !== ev.chat_seq; });
      }
    });
    return out;
  }

  /* The one channel a reader writes to, and sees first: "players" or "spectators". */
  function channelOf(message) { return message.spectator ? "spectators" : "players"; }

  var api = { reduce: reduce, channelOf: channelOf };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  root.TableChat = api;

  var panel = document.getElementById("chat-panel");
  if (!panel) return;
  var client = JSON.parse(document.getElementById("table-client").textContent);
  var L = client.catalog.labels;
  var ERR = client.catalog.errors;
  var watching = client.seat == null;
  var app = document.getElementById("table-app");
  var el = {
    log: document.getElementById("chat-log"),
    form: document.getElementById("chat-form"),
    input: document.getElementById("chat-input"),
    send: document.getElementById("chat-send"),
    counter: document.getElementById("chat-counter"),
    note: document.getElementById("chat-note"),
    phrases: document.getElementById("chat-phrases"),
    channels: document.getElementById("chat-channels"),
    tab: document.getElementById("open-chat"),
  };
  var MAX = 200;  // games.chat.CHAT_MAX_CHARS: a hint as one types; the server decides
  var messages = [];
  var channel = watching ? "spectators" : "players";
  var seen = 0;               // the newest seq the reader has had in sight
  var seenIn = {};            // the same per channel, for a spectator
  var loaded = false;         // the first snapshot was taken
  var fresh = false;          // ... and not yet drawn
  var pending = null;         // the text last sent, given back if it was refused
  var quietUntil = 0;         // a flood refusal's retry_after, as a time
  var quietTimer = null;

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  function node(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text != null) n.textContent = text;
    return n;
  }
  function open() {
    // On a wide screen the panel is always in sight; on a phone only while its sheet is open.
    return window.matchMedia("(min-width: 62rem)").matches || app.dataset.sheet === "chat";
  }

  function render() {
    var atBottom = el.log.scrollHeight - el.log.scrollTop - el.log.clientHeight < 8;
    el.log.innerHTML = "";
    var shown = messages.filter(function (m) { return channelOf(m) === channel; });
    if (!shown.length) el.log.appendChild(node("p", "empty muted", L.chat_empty_log));
    shown.forEach(function (m) {
      var line = node("p", "chat-line" + (m.user === client.user ? " mine" : ""));
      line.dataset.seq = m.seq;
      if (m.spectator) line.classList.add("spectator");
      else line.classList.add("team-" + (m.seat % 2 ? "b" : "a"));
      line.appendChild(node("span", "from", m.name));
      var text = m.phrase ? client.catalog.phrases[m.phrase] || m.phrase : m.text;
      line.appendChild(node("span", "said" + (m.phrase ? " phrase" : ""), text));
      el.log.appendChild(line);
    });
    if (atBottom || fresh) el.log.scrollTop = el.log.scrollHeight;
    renderUnread();
  }

  function renderUnread() {
    var newest = messages.length ? messages[messages.length - 1].seq : 0;
    var newestIn = {};
    messages.forEach(function (m) { newestIn[channelOf(m)] = m.seq; });
    if (fresh) {  // what the page loads with is not news
      seen = newest;
      seenIn = newestIn;
      fresh = false;
    } else if (open()) {
      seen = newest;
      seenIn[channel] = newestIn[channel];
    }
    var unread = messages.filter(function (m) { return m.seq > seen; }).length;
    el.tab.querySelector(".n").textContent = unread ? unread : "";
    el.tab.classList.toggle("unread", unread > 0);
    if (!watching) return;
    // A spectator reading one channel sees how many lines came in the other.
    Array.prototype.forEach.call(el.channels.querySelectorAll("button"), function (b) {
      var name = b.dataset.channel;
      var n = messages.filter(function (m) {
        return channelOf(m) === name && m.seq > (seenIn[name] || 0);
      }).length;
      b.querySelector(".n").textContent = n && name !== channel ? "(" + n + ")" : "";
    });
  }

  function note(text, kind) {
    el.note.textContent = text || "";
    el.note.className = "chat-note " + (kind || "");
  }

  function say(message) {
    if (Date.now() < quietUntil) return;
    note("");
    if (!window.TractorTable.sendMessage(message)) note(L.chat_offline, "error");
  }

  el.form.addEventListener("submit", function (e) {
    e.preventDefault();
    pending = el.input.value;
    say({ type: "chat", text: pending });
    el.input.value = "";
    count();
  });

  function count() {
    var n = Array.from(el.input.value.trim()).length;
    el.counter.textContent = n ? n + "/" + MAX : "";
    el.counter.classList.toggle("over", n > MAX);
  }
  el.input.addEventListener("input", count);

  Object.keys(client.catalog.phrases).forEach(function (id) {
    var b = node("button", "small phrase", client.catalog.phrases[id]);
    b.type = "button";
    b.dataset.phrase = id;
    b.addEventListener("click", function () { pending = null; say({ type: "chat", phrase: id }); });
    el.phrases.appendChild(b);
  });

  // A spectator reads two channels: their own (where they write) and the players' talk.
  if (watching) {
    el.channels.hidden = false;
    Array.prototype.forEach.call(el.channels.querySelectorAll("button"), function (b) {
      b.addEventListener("click", function () {
        channel = b.dataset.channel;
        Array.prototype.forEach.call(el.channels.querySelectorAll("button"), function (o) {
          o.setAttribute("aria-pressed", String(o === b));
        });
        el.form.hidden = channel !== "spectators";
        el.phrases.hidden = channel !== "spectators";
        render();
      });
    });
  }

  function quiet(seconds) {
    quietUntil = Date.now() + seconds * 1000;
    el.send.disabled = true;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(function () { el.send.disabled = false; note(""); }, seconds * 1000);
  }

  // The chat's refusals are explained here, in the panel; table.js explains the others.
  document.addEventListener("tractor:error", function (e) {
    var err = e.detail;
    if (!/^chat_/.test(err.code)) return;
    e.preventDefault();
    var text = ERR[err.code] || client.catalog.error;
    if (err.code === "chat_too_long") text = fmt(text, { n: err.max });
    if (err.code === "chat_flood") {
      text = fmt(text, { n: err.retry_after });
      quiet(err.retry_after);
    }
    note(text, "error");
    if (pending && !el.input.value) { el.input.value = pending; count(); }
    pending = null;
    if (!open()) openSheet();
  });

  document.addEventListener("tractor:message", function (e) {
    var before = messages;
    messages = reduce(messages, e.detail.msg);
    if (e.detail.msg.type === "snapshot" && !loaded) {
      loaded = fresh = true;
      render();
      return;
    }
    if (messages !== before && (messages.length !== before.length ||
        messages.some(function (m, i) { return m !== before[i]; }))) render();
  });

  function sheet(name) {
    app.dataset.sheet = name;
    Array.prototype.forEach.call(document.querySelectorAll(".sheet-tabs [aria-controls]"),
      function (b) {
        var mine = b.getAttribute("aria-controls") === name + "-panel";
        b.setAttribute("aria-expanded", String(mine));
      });
  }
  function openSheet() {
    sheet("chat");
    renderUnread();
  }
  el.tab.addEventListener("click", function () {
    if (app.dataset.sheet === "chat") {
      sheet("");
    } else {
      openSheet();
      el.log.scrollTop = el.log.scrollHeight;
    }
  });
  render();
})(this);
