/* Where each card of the hand goes: a centred, overlapping fan in as few rows as keep every
   card's visible strip wide enough to read and to hit. Pure (numbers in, numbers out), so
   tests/ui/js/fan.test.mjs checks it under Node; draw.js places the cards by it.

   Each card covers the right-hand part of the one before it (later cards on top), so what
   shows of a card is its left strip, with its corner index: `step` wide (plus a suit gap
   where one follows), the whole width for the last card of a row. A row below covers the
   lower part of the row above; its top part, with the index, stays in view. */

/* `gaps`: one flag per card, true where a new group (trumps, a suit) starts, which gets a
   little more room; `width`: the room in px; `o`: {cardW, cardH, minStrip, maxStep, gap,
   rowStep (the share of a card's height between rows), maxRows}. Returns {rows, step, gap,
   height, cards: [{x, y, row, strip}]}. */
export function fanLayout(gaps, width, o) {
  const n = gaps.length;
  const cardW = o.cardW;
  const cardH = o.cardH || cardW * 1.4;
  const maxStep = o.maxStep == null ? cardW * 0.62 : o.maxStep;
  const minStrip = o.minStrip == null ? Math.max(22, cardW * 0.34) : o.minStrip;
  const wantGap = o.gap == null ? 6 : o.gap;
  const maxRows = o.maxRows || 4;
  const rowDy = cardH * (o.rowStep == null ? 0.58 : o.rowStep);
  if (!n) return { rows: 0, step: 0, gap: 0, height: 0, cards: [] };

  let best = null;
  for (let rows = 1; rows <= Math.min(maxRows, n); rows++) {
    const split = splitRows(n, rows);
    // Suit gaps first give way, then a row is added.
    for (const gap of wantGap > 0 ? [wantGap, 0] : [0]) {
      const step = stepFor(split, gaps, width, cardW, maxStep, gap);
      const layout = { rows, split, step, gap };
      if (!best || step > best.step) best = layout;
      if (step >= minStrip) return place(layout, gaps, width, cardW, cardH, rowDy);
    }
  }
  return place(best, gaps, width, cardW, cardH, rowDy);
}

/* [start, end) of each row, the first rows one card longer where n does not divide. */
function splitRows(n, rows) {
  const out = [];
  const per = Math.floor(n / rows);
  let extra = n % rows;
  let start = 0;
  for (let r = 0; r < rows; r++) {
    const len = per + (extra > 0 ? 1 : 0);
    extra -= 1;
    out.push([start, start + len]);
    start += len;
  }
  return out;
}

function gapsIn(gaps, start, end) {
  let k = 0;
  for (let i = start + 1; i < end; i++) if (gaps[i]) k++;
  return k;
}

/* The largest step (the same in every row) that fits each row into `width`. */
function stepFor(split, gaps, width, cardW, maxStep, gap) {
  let step = maxStep;
  for (const [start, end] of split) {
    const len = end - start;
    if (len < 2) continue;
    const room = width - cardW - gapsIn(gaps, start, end) * gap;
    step = Math.min(step, room / (len - 1));
  }
  return Math.max(1, Math.floor(step * 10) / 10);
}

function place(layout, gaps, width, cardW, cardH, rowDy) {
  const { split, step, gap } = layout;
  const cards = [];
  split.forEach(([start, end], row) => {
    const len = end - start;
    const span = cardW + (len - 1) * step + gapsIn(gaps, start, end) * gap;
    let x = Math.max(0, (width - span) / 2);
    for (let i = start; i < end; i++) {
      if (i > start && gaps[i]) x += gap;
      const next = i + 1 < end ? Math.min(cardW, step + (gaps[i + 1] ? gap : 0)) : cardW;
      cards.push({ x: Math.round(x * 10) / 10, y: Math.round(row * rowDy * 10) / 10, row, strip: next });
      x += step;
    }
  });
  return { rows: split.length, step, gap, height: cardH + (split.length - 1) * rowDy, cards };
}
