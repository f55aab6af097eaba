// Runs static/ui/replay.js against a minimal fake DOM (node, no browser):
// node replay_harness.js <replay.js> <replay JSON file>; prints what each step shows.
"use strict";
const fs = require("fs");
const [script, dataFile] = process.argv.slice(2);
const text = (value = "") => ({ textContent: value });
const rows = [0, 1, 2, 3].map((seat) => {
  const cells = { ".play": text(), ".left": text() };
  return {
    dataset: { seat: String(seat) },
    querySelector: (selector) => cells[selector],
    classList: { on: false, toggle(name, on) { this.on = on; } },
  };
});
let onClick = null;
const nodes = {
  "replay-data": text(fs.readFileSync(dataFile, "utf8")),
  "replay-position": text(),
  "replay-trick-result": text(),
  replay: {
    querySelectorAll: () => rows,
    addEventListener: (kind, handler) => { onClick = handler; },
  },
};
global.document = { getElementById: (id) => nodes[id] };
eval(fs.readFileSync(script, "utf8"));
const snapshot = () => ({
  position: nodes["replay-position"].textContent,
  result: nodes["replay-trick-result"].textContent,
  plays: rows.map((r) => r.querySelector(".play").textContent),
  left: rows.map((r) => r.querySelector(".left").textContent.split(" ").filter(Boolean).length),
  winner: rows.map((r) => r.classList.on),
});
const shown = [snapshot()];
for (const step of ["next", "next", "last", "prev", "first"]) {
  onClick({ target: { dataset: { step } } });
  shown.push(snapshot());
}
console.log(JSON.stringify(shown));
