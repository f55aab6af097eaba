// static/ui/table/counter.js: the card counter panel's model from the view's `counter`
// (docs/protocol.md): the server's classes in its order, named from the catalog, with the
// totals; nothing when the view has no counter, a note while the server has no counts.
// Run: node --test tests/ui/js/ (tests/ui/test_table_state_node.py runs it with the suite).
import assert from "node:assert/strict";
import { test } from "node:test";

import { counterModel } from "../../../static/ui/table/counter.js";

const LABELS = { counter_trump: "主牌", counter_S: "黑桃", counter_H: "红桃", counter_C: "梅花",
                 counter_D: "方块", counter_waiting: "定主之后开始记牌。" };

// The engine's answer for classic at level 5, trump H (tests/games/engine/test_counter.py).
const COUNTER = {
  classes: [{ class: "trump", cards: 32, points: 70 }, { class: "S", cards: 19, points: 0 },
            { class: "C", cards: 23, points: 40 }, { class: "D", cards: 24, points: 40 }],
  cards: 98, points: 150,
};

test("the classes in the server's order, named from the catalog, with the totals", () => {
  const model = counterModel(COUNTER, LABELS);
  assert.deepEqual(model.rows.map((r) => [r.cls, r.name, r.cards, r.points]), [
    ["trump", "主牌", 32, 70], ["S", "黑桃", 19, 0], ["C", "梅花", 23, 40], ["D", "方块", 24, 40]]);
  assert.equal(model.cards, 98);
  assert.equal(model.points, 150);
});

test("no counter in the view (switched off, or a spectator): no panel", () => {
  assert.equal(counterModel(undefined, LABELS), null);
});

test("a null counter (before trump is known, after the hand): the waiting note", () => {
  assert.deepEqual(counterModel(null, LABELS), { waiting: true, text: "定主之后开始记牌。" });
});
