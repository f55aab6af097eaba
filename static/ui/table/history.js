/* The hand's trick history (docs/ui.md): every finished trick of the current hand in order,
   each seat's cards, who won it and the points its cards carried. Built only from what the
   table page already receives (the `tractor:message` hook of main.js): the view's public
   `tricks` (so a reload or a reconnection draws the whole hand again) and the `throw_failed`
   events, which say whose throw was cut to one unit. No rule lives here. An ES module:
   reduce and lines are pure (Node tests them); the panel is drawn only in a page. */

import { fmt, nameOf as tableNameOf } from "./state.js";

/* The history's state after one message: {hand, tricks, throws}. `hand` tells hands apart
   (the view's hand_no), `throws` maps a trick's index to {seat: the cards attempted}. */
export function reduce(state, msg) {
  var view = msg.view;
  var hand = view ? view.hand_no : null;
  var next = state && state.hand === hand ? state : { hand: hand, tricks: [], throws: {} };
  if (!view) return { hand: null, tricks: [], throws: {} };
  var throws = next.throws;
  var events = msg.events || [];
  // The view is the table after the last of the events: a catch-up may hold several tricks.
  var wonAfter = events.filter(function (ev) { return ev.type === "trick_won"; }).length;
  events.forEach(function (ev) {
    if (ev.type === "trick_won") wonAfter -= 1;
    else if (ev.type === "hand_started") throws = {};
    else if (ev.type === "throw_failed") {
      // A throw is a lead: it opens the trick after those finished before it.
      var k = (view.tricks || []).length - wonAfter;
      throws = Object.assign({}, throws);
      throws[k] = Object.assign({}, throws[k]);
      throws[k][ev.seat] = ev.attempted;
    }
  });
  return { hand: hand, tricks: view.tricks || [], throws: throws };
}

/* One trick as lines in seat order from the leader: {seat, cards, won, attempted}. */
export function lines(trick, throws) {
  return trick.plays.map(function (cards, i) {
    var seat = (trick.leader + i) % 4;
    return { seat: seat, cards: cards, won: seat === trick.winner,
             attempted: throws && throws[seat] ? throws[seat] : null };
  });
}

if (typeof document !== "undefined" && document.getElementById("history-list")) historyPanel();

function historyPanel() {
  var box = document.getElementById("history-list");
  var count = document.getElementById("history-count");
  var tab = document.getElementById("open-history");
  var client = JSON.parse(document.getElementById("table-client").textContent);
  var L = client.catalog.labels;
  var env = { client: client };
  var state = null;
  var shown = "";

  /* As the table names a seat (state.js), from the table the message came with. */
  function nameOf(table, seat) { return tableNameOf({ table: table }, env, seat); }
  function cardRow(tokens) {
    var row = document.createElement("div");
    row.className = "cards-row small";
    tokens.forEach(function (t) { row.appendChild(Cards.element(t)); });
    return row;
  }
  function span(cls, text) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }

  function render(table) {
    // Redraw only when a trick was added (or the hand changed): the list keeps its scroll.
    var key = state.hand + ":" + state.tricks.length + ":" + JSON.stringify(state.throws);
    if (key === shown) return;
    shown = key;
    box.innerHTML = "";
    count.textContent = state.tricks.length ? "(" + state.tricks.length + ")" : "";
    if (tab) tab.querySelector(".n").textContent = state.tricks.length || "";
    if (!state.tricks.length) {
      box.appendChild(span("empty muted", L.history_empty));
      return;
    }
    var list = document.createElement("ol");
    list.className = "history";
    state.tricks.forEach(function (trick, k) {
      var item = document.createElement("li");
      item.className = "htrick";
      item.dataset.trick = k + 1;
      item.dataset.winner = trick.winner;
      var head = document.createElement("div");
      head.className = "hhead";
      head.appendChild(span("hno", fmt(L.history_trick, { k: k + 1 })));
      head.appendChild(span("hwin", fmt(L.history_won, { name: nameOf(table, trick.winner),
                                                          points: trick.points })));
      item.appendChild(head);
      lines(trick, state.throws[k]).forEach(function (line) {
        var row = document.createElement("div");
        row.className = "line" + (line.won ? " won" : "");
        row.dataset.seat = line.seat;
        row.appendChild(span("who", nameOf(table, line.seat)));
        row.appendChild(cardRow(line.cards));
        if (line.attempted) {
          row.appendChild(span("thrown", fmt(L.history_throw, {
            cards: line.attempted.map(Cards.label).join(" ") })));
        }
        item.appendChild(row);
      });
      list.appendChild(item);
    });
    box.appendChild(list);
    box.scrollTop = box.scrollHeight;  // the newest trick in sight
  }

  document.addEventListener("tractor:message", function (e) {
    state = reduce(state, { view: e.detail.view, events: e.detail.msg.events });
    render(e.detail.table);
  });
  if (tab) {
    tab.addEventListener("click", function () {
      var app = document.getElementById("table-app");
      app.dataset.sheet = app.dataset.sheet === "history" ? "" : "history";
      Array.prototype.forEach.call(document.querySelectorAll(".sheet-tabs [aria-controls]"),
        function (b) {
          b.setAttribute("aria-expanded", String(b.getAttribute("aria-controls") ===
                                                 app.dataset.sheet + "-panel"));
        });
    });
  }
}
