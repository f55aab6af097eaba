// static/ui/table/advice.js: when the page offers 提示, which selection it asks the server to
// check, which answers it keeps, and what a hint selects or names (docs/protocol.md, "hint
// and check"). Views are the protocol's own fields; the recorded streams (tests/ui/streams/)
// give every variant's real views. Run: node --test tests/ui/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  answerCurrent, checkRequest, checkText, hintCards, hintControl, hintOffered, indexesOf,
} from "../../../static/ui/table/advice.js";

const STREAMS = new URL("../streams/", import.meta.url);
const ENV = { lang: "en", nameOf: (seat) => "Seat " + seat,
              client: { catalog: { errors: { not_your_turn: "It is not your turn." }, error: "Refused." } } };

const leading = { phase: "play", acting: [0], trick: { leader: 0, plays: [] }, calls: [] };
const following = { phase: "play", acting: [1], trick: { leader: 0, plays: [["H9", "H9"]] }, calls: [] };

test("the hint is offered on the seat's turn, and in the deal to a seat that may declare", () => {
  assert.equal(hintOffered(leading, 0), true);
  assert.equal(hintOffered(leading, 1), false);
  assert.equal(hintOffered({ phase: "bury", acting: [2] }, 2), true);
  assert.equal(hintOffered({ phase: "bid", acting: [3], calls: [{ type: "bid", bid: 100, kind: "bid" }] }, 3), true);
  assert.equal(hintOffered({ phase: "deal", acting: [], calls: [{ type: "declare", cards: ["H2"], kind: "declare" }] }, 1), true);
  assert.equal(hintOffered({ phase: "declare", acting: [], calls: [] }, 1), false);
  assert.equal(hintOffered({ phase: "end", acting: [] }, 0), false);
  assert.equal(hintOffered(null, 0), false);
  assert.equal(hintOffered(leading, null), false);  // a spectator
});

test("on every variant's recorded stream, the hint is offered exactly on seat 0's decisions", () => {
  for (const variant of ["classic", "four_deck", "point_bid", "guigang"]) {
    const stream = JSON.parse(readFileSync(new URL(variant + ".json", STREAMS), "utf8"));
    let turns = 0;
    for (const msg of stream.messages) {
      const view = msg.view;
      if (!view) continue;
      const mine = view.acting.includes(0) || (["deal", "declare"].includes(view.phase) && view.calls.length > 0);
      assert.equal(hintOffered(view, 0), mine, variant + " " + view.phase);
      if (view.phase === "play" && view.acting.includes(0)) turns += 1;
    }
    assert.ok(turns > 0, variant);
  }
});

test("a selection is checked on the seat's turn to play; a follow once it has the lead's size", () => {
  assert.deepEqual(checkRequest(leading, 0, 17, ["SA"]),
    { type: "check", version: 17, action: { type: "play", cards: ["SA"] } });
  assert.equal(checkRequest(leading, 1, 17, ["SA"]), null);           // not this seat's turn
  assert.equal(checkRequest(leading, 0, 17, []), null);               // nothing selected
  assert.equal(checkRequest(following, 1, 17, ["H3"]), null);         // 1 of 2: still choosing
  assert.deepEqual(checkRequest(following, 1, 17, ["H3", "H4"]).action.cards, ["H3", "H4"]);
  assert.equal(checkRequest({ phase: "bury", acting: [0] }, 0, 17, ["H3"]), null);
  assert.equal(checkRequest(leading, 0, null, ["SA"]), null);         // no table yet
});

test("only the answer to the last check sent is kept, whatever the order of its cards", () => {
  const sent = checkRequest(following, 1, 17, ["H3", "H4"]);
  const answer = (version, cards) => ({ type: "check", version, action: { type: "play", cards }, ok: true });
  assert.equal(answerCurrent(answer(17, ["H4", "H3"]), sent), true);
  assert.equal(answerCurrent(answer(16, ["H3", "H4"]), sent), false);
  assert.equal(answerCurrent(answer(17, ["H3", "H5"]), sent), false);
  assert.equal(answerCurrent(answer(17, ["H3", "H4"]), null), false);
});

test("a check's sentence is the refusal's, said as a real refusal would be; none when ok", () => {
  const owed = { type: "check", version: 17, ok: false, code: "illegal_follow",
                 params: { suit: "H", led: 2, count: 2, example: ["HK", "HK"],
                           owed: [{ shape: "pair", cards: 2, width: 2, length: 1 }] } };
  assert.equal(checkText(owed, ENV), "You must follow with a ♥ pair. For example: ♥K ♥K.");
  assert.match(checkText(owed, Object.assign({}, ENV, { lang: "zh" })), /红桃对子/);
  assert.equal(checkText({ ok: false, code: "not_your_turn", params: {} }, ENV), "It is not your turn.");
  assert.equal(checkText({ ok: true, code: null, params: {} }, ENV), "");
  assert.equal(checkText({ ok: false, code: "stale_version", params: {} }, ENV), "");
});

test("a hint selects its cards, a pair as two cards, and names the call it suggests", () => {
  assert.deepEqual(hintCards({ type: "play", cards: ["HK", "HK"] }), ["HK", "HK"]);
  assert.equal(hintCards({ type: "bid", bid: 85 }), null);
  assert.equal(hintCards(null), null);
  assert.deepEqual(indexesOf(["BJ", "HK", "HK", "H3", "C5"], ["HK", "HK"]), [1, 2]);
  assert.deepEqual(indexesOf(["BJ", "HK", "H3"], ["H3", "BJ"]), [0, 2]);
  assert.deepEqual(indexesOf(["BJ"], ["SA"]), []);
  const controls = [
    { op: "send", label: "Pass", action: { type: "bid", bid: null } },
    { op: "send", label: "Bid 85", action: { type: "bid", bid: 85 } },
    { op: "send", label: "Declare ♥2 ♥2", action: { type: "declare", cards: ["H2", "H2"] } },
    { op: "play", id: "act-play" },
  ];
  assert.equal(hintControl(controls, { type: "bid", bid: 85 }).label, "Bid 85");
  assert.equal(hintControl(controls, { type: "bid", bid: null }).label, "Pass");
  assert.equal(hintControl(controls, { type: "declare", cards: ["H2", "H2"] }).label, "Declare ♥2 ♥2");
  assert.equal(hintControl(controls, { type: "play", cards: ["H2"] }), null);
  assert.equal(hintControl(controls, null), null);
});
