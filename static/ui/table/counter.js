/* 记牌器, the card counter panel (docs/protocol.md, the view's `counter`): the seat's view
   carries, while its player has the counter on, per class the cards still out and their
   points, counted by the server from public play. This module only lays them out: which
   cards are trump is the server's to say, so nothing here knows a rule.

   The switch (#pref-counter) sends the socket's `counter` message; the server remembers it
   for the player and answers with an update. The panel hears every message the page took
   (main.js's `tractor:message`). */

const SUIT_KEYS = { trump: "counter_trump", S: "counter_S", H: "counter_H", C: "counter_C",
                    D: "counter_D" };

/* What the panel shows for a view's `counter` (`labels`: the catalog's table labels):
   {rows: [{cls, name, cards, points}], cards, points}, {waiting: true} when the server has
   no counts yet (before trump is known, after the hand), or null when the view has none
   (the counter is off). */
export function counterModel(counter, labels) {
  if (counter === undefined) return null;
  if (counter === null) return { waiting: true, text: labels.counter_waiting };
  const rows = counter.classes.map((c) => ({
    cls: c.class, name: labels[SUIT_KEYS[c.class]] || c.class, cards: c.cards, points: c.points,
  }));
  return { rows: rows, cards: counter.cards, points: counter.points };
}

function cell(tag, text, cls) {
  const el = document.createElement(tag);
  el.textContent = String(text);
  if (cls) el.className = cls;
  return el;
}

/* The model drawn into `box` (a table of class, cards out, points out, and the totals). */
export function drawCounter(box, model, labels) {
  box.replaceChildren();
  if (model.waiting) {
    box.appendChild(cell("p", model.text, "muted"));
    return;
  }
  const table = document.createElement("table");
  table.className = "counter-table";
  const head = document.createElement("tr");
  ["", labels.counter_cards, labels.counter_points].forEach((t) => head.appendChild(cell("th", t)));
  table.appendChild(head);
  model.rows.concat([{ cls: "all", name: labels.counter_all, cards: model.cards,
                       points: model.points }]).forEach((r) => {
    const tr = document.createElement("tr");
    tr.className = "counter-" + r.cls;
    tr.appendChild(cell("th", r.name));
    tr.appendChild(cell("td", r.cards, "num"));
    tr.appendChild(cell("td", r.points, "num"));
    table.appendChild(tr);
  });
  box.appendChild(table);
}

function install() {
  const toggle = document.getElementById("pref-counter");
  const panel = document.getElementById("counter-panel");
  const box = document.getElementById("counter");
  const table = window.TractorTable;
  if (!toggle || !panel || !box || !table) return;
  const client = table.client;
  const labels = client.catalog.labels;
  toggle.checked = !!client.prefs.counter;

  function show(view) {
    const model = toggle.checked && view ? counterModel(view.counter, labels) : null;
    panel.hidden = !model;
    if (model) drawCounter(box, model, labels);
  }

  toggle.addEventListener("change", () => {
    client.prefs.counter = toggle.checked;
    table.sendMessage({ type: "counter", on: toggle.checked });
    show(table.view());
  });
  document.addEventListener("tractor:message", (e) => show(e.detail.view));
  show(table.view());
}

if (typeof document !== "undefined") {
  // A module runs after the page is parsed; main.js (also a module, earlier) set TractorTable.
  install();
}
