// A plain table client for docs/protocol.md: enough to play or watch a hand to the end.
// It keeps the last sequence number it has seen; a message whose prev_seq is newer means
// messages were lost (the server never resends), so it says hello again to catch up.
(function () {
  "use strict";
  var root = document.getElementById("table");
  var tableId = root.dataset.table;
  var seat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
  var watchFrom = Number(root.dataset.watch || 0);
  var lastSeq = null, version = null, view = null, table = null, socket = null, selected = {};
  var $ = function (id) { return document.getElementById(id); };

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var path = seat === null ? "/watch/?seat=" + watchFrom : "/play/";
    socket = new WebSocket(scheme + location.host + "/ws/tables/" + tableId + path);
    socket.onopen = function () { hello(); };
    socket.onmessage = function (m) { receive(JSON.parse(m.data)); };
    socket.onclose = function (e) {
      $("status").textContent = "Disconnected (" + e.code + ")";
      if (e.code !== 4409 && e.code !== 4403 && e.code !== 4401) setTimeout(connect, 1000);
    };
  }

  function hello() { socket.send(JSON.stringify({type: "hello", seq: lastSeq})); }

  function send(action) {
    $("error").textContent = "";
    socket.send(JSON.stringify({type: "action", version: version, action: action}));
  }

  function receive(msg) {
    if (msg.type === "error") {
      $("error").textContent = msg.code + ": " + msg.message;
      if (msg.snapshot) apply(msg.snapshot);
      return;
    }
    if (msg.type === "update") {
      if (lastSeq !== null && msg.seq <= lastSeq) return;  // already seen (caught up)
      if (lastSeq === null || msg.prev_seq > lastSeq) { hello(); return; }  // a gap
    }
    (msg.events || []).forEach(log);
    apply(msg);
  }

  function apply(msg) {
    lastSeq = msg.seq; version = msg.version; view = msg.view; table = msg.table;
    render();
  }

  function log(e) {
    var li = document.createElement("li");
    var copy = Object.assign({}, e); delete copy.type; delete copy.seq;
    li.textContent = "#" + e.seq + " " + e.type + " " + JSON.stringify(copy);
    $("log").insertBefore(li, $("log").firstChild);
  }

  function render() {
    var me = seat === null ? watchFrom : seat;
    $("status").textContent = view
      ? "Hand " + view.hand_no + " · " + view.phase + " · level " + view.level +
        " · trump " + (view.trump || "?") + " · dealer " + view.dealer + " · turn " + view.turn +
        " · defenders' points " + view.points + " · v" + version
      : "Waiting for four players to press ready · v" + version;
    var seats = $("seats"); seats.textContent = "";
    (table ? table.seats : []).forEach(function (s, i) {
      var rel = (s.seat - me + 4) % 4;
      var div = document.createElement("div");
      div.textContent = ["You/bottom", "Right", "Across", "Left"][rel] + " · seat " + s.seat + ": " +
        (s.name || "empty") + (s.bot ? " 🤖" : "") + (s.ready ? " ✓ready" : "") +
        (s.auto ? " 托管" : "") + (view ? " · " + view.counts[i] + " cards" : "");
      seats.appendChild(div);
    });
    var trick = $("trick");
    trick.textContent = view && view.trick
      ? "Trick led by " + view.trick.leader + ": " + view.trick.plays.map(function (p) { return p.join(" "); }).join(" | ")
      : "";
    if (view && view.result) trick.textContent += " Result: " + JSON.stringify(view.result);
    var hand = $("hand"); hand.textContent = "";
    selected = {};
    ((view && view.hand) || []).forEach(function (card, i) {
      var b = document.createElement("button");
      b.textContent = card;
      b.onclick = function () { selected[i] = !selected[i]; b.style.outline = selected[i] ? "3px solid #8b1e1e" : ""; };
      hand.appendChild(b);
    });
    if (view && view.kitty && view.phase === "bury") {
      var k = document.createElement("p"); k.textContent = "Kitty picked up: " + view.kitty.join(" ");
      hand.appendChild(k);
    }
    $("controls").hidden = seat === null;
  }

  function chosen() {
    return view.hand.filter(function (_, i) { return selected[i]; });
  }

  document.querySelectorAll("#controls button").forEach(function (b) {
    b.onclick = function () {
      var act = b.dataset.act;
      if (act === "ready" || act === "take_back") send({type: act});
      else send({type: act, cards: chosen()});
    };
  });
  connect();
})();
