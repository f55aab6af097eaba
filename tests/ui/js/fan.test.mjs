// The hand's fan (static/ui/table/fan.js): every card inside the room, none hidden, each
// card's visible strip wide enough to read its index and to hit, in as few rows as that takes.
// Run: node --test tests/ui/js/

import assert from "node:assert/strict";
import { test } from "node:test";

import { fanLayout } from "../../../static/ui/table/fan.js";

// The page's card sizes (site.css) and the room the hand has at each width.
const PHONE = { width: 374, cardW: 49.6, cardH: 69.4 };
const DESKTOP = { width: 940, cardW: 68.8, cardH: 96 };
const MIN_STRIP = 22;

function gapsOf(n, groups) {
  // `groups` runs of cards (trumps, then suits), as the hand draws them.
  const per = Math.ceil(n / groups);
  return Array.from({ length: n }, (_, i) => i > 0 && i % per === 0);
}

function check(n, screen, maxRows) {
  const gaps = gapsOf(n, 5);
  const fan = fanLayout(gaps, screen.width, { cardW: screen.cardW, cardH: screen.cardH });
  assert.equal(fan.cards.length, n);
  assert.ok(fan.rows <= maxRows, `${n} cards in ${fan.rows} rows`);
  fan.cards.forEach((c, i) => {
    assert.ok(c.x >= 0 && c.x + screen.cardW <= screen.width + 0.01, `card ${i} inside: ${c.x}`);
    assert.ok(c.strip >= MIN_STRIP, `card ${i} shows ${c.strip} px`);
    const next = fan.cards[i + 1];
    if (next && next.row === c.row) {
      // The strip is exactly what the next card leaves uncovered.
      assert.ok(Math.abs(next.x - c.x - c.strip) < 0.2, `card ${i} strip matches`);
      assert.ok(next.x > c.x);
    }
  });
  // Centred: as much room on the left of each row as on its right.
  for (let r = 0; r < fan.rows; r++) {
    const row = fan.cards.filter((c) => c.row === r);
    const left = row[0].x;
    const right = screen.width - row[row.length - 1].x - screen.cardW;
    assert.ok(Math.abs(left - right) < 1, `row ${r} centred: ${left} / ${right}`);
  }
  return fan;
}

test("a classic hand of 25 cards fits a phone in two rows, a desktop in one", () => {
  assert.equal(check(25, PHONE, 2).rows, 2);
  assert.equal(check(25, DESKTOP, 1).rows, 1);
});

test("a four-deck hand of 25 to 39 cards fits a phone and a desktop", () => {
  for (let n = 25; n <= 39; n++) {
    check(n, PHONE, 3);
    check(n, DESKTOP, 2);
  }
});

test("a few cards sit in the middle without spreading beyond a card's natural overlap", () => {
  const fan = check(3, DESKTOP, 1);
  assert.ok(fan.step <= DESKTOP.cardW * 0.62 + 0.01);
  assert.ok(fan.cards[0].x > 300);
});

test("rows below start lower and no card is left out", () => {
  const fan = check(39, PHONE, 3);
  const ys = [...new Set(fan.cards.map((c) => c.y))];
  assert.equal(ys.length, fan.rows);
  assert.ok(ys.every((y, r) => r === 0 || y > ys[r - 1]));
  assert.ok(fan.height > PHONE.cardH);
  assert.deepEqual(fanLayout([], 300, { cardW: 50 }).cards, []);
});

test("the last card of a row shows whole", () => {
  const fan = check(20, PHONE, 2);
  const lastOfRows = fan.cards.filter((c, i) => !fan.cards[i + 1] || fan.cards[i + 1].row !== c.row);
  assert.ok(lastOfRows.every((c) => c.strip === PHONE.cardW));
});
