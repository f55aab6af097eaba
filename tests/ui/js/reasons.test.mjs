// static/ui/reasons.js: a refusal's code and params (docs/protocol.md, "Refusals of the engine
// and their params") as a sentence in English or Chinese. Run: node --test tests/ui/js/
// (tests/ui/test_reasons.py runs it with the suite). The params are the protocol's own
// examples and what RULES §2.5–2.6 (classic's throws and follows), §3.6 (four_deck) and §5.6
// (guigang) make the engine say; the sentences are the ones a player should read.
import assert from "node:assert/strict";
import { test } from "node:test";

import { REASONS, cardName, reasonText } from "../../../static/ui/reasons.js";

const PAIR = { shape: "pair", cards: 2, width: 2, length: 1 };
const tractor = (width, length) => ({ shape: "tractor", cards: width * length, width, length });

function follow(owed, extra = {}) {
  return { suit: "H", led: 4, count: 4, owed, example: [], ...extra };
}

test("cards are named with their suit, jokers by name", () => {
  assert.equal(cardName("H10", "en"), "♥10");
  assert.equal(cardName("SA", "zh"), "黑桃A");
  assert.equal(cardName("BJ", "zh"), "大王");
  assert.equal(cardName("LJ", "en"), "little joker");
});

test("a pair owed, with the example follow (the protocol's example)", () => {
  const params = follow([PAIR], { example: ["HK", "HK", "H4", "H3"] });
  assert.equal(reasonText("illegal_follow", params, "en"),
    "You must follow with a ♥ pair. For example: ♥K ♥K ♥4 ♥3.");
  assert.equal(reasonText("illegal_follow", params, "zh"),
    "你必须跟出红桃对子。例如：红桃K、红桃K、红桃4、红桃3。");
});

test("tractors are named by their pairs: a tractor of 3 pairs, 三连对拖拉机", () => {
  const params = { suit: "trump", led: 6, count: 6, owed: [tractor(2, 3)] };
  assert.equal(reasonText("illegal_follow", params, "en"), "You must follow with a trump tractor of 3 pairs.");
  assert.equal(reasonText("illegal_follow", params, "zh"), "你必须跟出主牌三连对拖拉机。");
});

test("several units: a tractor and a pair (point_bid's shorter tractor, RULES A25)", () => {
  const params = follow([tractor(2, 2), PAIR], { led: 6, count: 6 });
  assert.equal(reasonText("illegal_follow", params, "en"),
    "You must follow with a ♥ tractor of 2 pairs and a pair.");
  assert.equal(reasonText("illegal_follow", params, "zh"), "你必须跟出红桃两连对拖拉机和对子。");
});

test("alike units are counted: three pairs for a tractor of 3 the follower cannot match", () => {
  const params = follow([PAIR, PAIR, PAIR], { suit: "S", led: 6, count: 6 });
  assert.equal(reasonText("illegal_follow", params, "en"), "You must follow with 3 ♠ pairs.");
  assert.equal(reasonText("illegal_follow", params, "zh"), "你必须跟出黑桃三个对子。");
});

test("a one-unit answer that may have more copies (RULES §3.6: a quad for 2 pairs)", () => {
  const params = follow([{ ...tractor(2, 2), or_more_copies: true }]);
  assert.equal(reasonText("illegal_follow", params, "en"),
    "You must follow with a ♥ tractor of 2 pairs or a quad.");
  assert.equal(reasonText("illegal_follow", params, "zh"), "你必须跟出红桃两连对拖拉机或四张。");
  const six = follow([{ ...tractor(2, 3), or_more_copies: true }], { led: 6, count: 6 });
  assert.equal(reasonText("illegal_follow", six, "en"),
    "You must follow with a ♥ tractor of 3 pairs or a tractor of 2 triples.");
});

test("four_deck's blocks and guigang's one unit of the lead's size", () => {
  const block = follow([{ shape: "block", cards: 4 }, PAIR], { led: 6, count: 6, suit: "D" });
  assert.equal(reasonText("illegal_follow", block, "en"),
    "You must follow with a ♦ tractor or quad (4 cards) and a pair.");
  assert.equal(reasonText("illegal_follow", block, "zh"), "你必须跟出方块拖拉机或四张（4张）和对子。");
  const unit = follow([{ shape: "unit", cards: 4 }], { suit: "C" });
  assert.equal(reasonText("illegal_follow", unit, "en"),
    "You must follow with a ♣ unit of 4 cards (pairs or more).");
  const open = follow([{ shape: "tractor", cards: 6 }], { led: 6, count: 6 });
  assert.equal(reasonText("illegal_follow", open, "en"), "You must follow with a ♥ tractor of 6 cards.");
});

test("the suit rule alone: all of a short suit, or a card of the suit led", () => {
  const short = { suit: "H", led: 4, count: 2, owed: [], example: ["HK", "H3", "C8", "C6"] };
  assert.equal(reasonText("illegal_follow", short, "en"),
    "You must play all 2 of your ♥ cards. For example: ♥K ♥3 ♣8 ♣6.");
  assert.equal(reasonText("illegal_follow", short, "zh"),
    "你必须出完手中全部2张红桃。例如：红桃K、红桃3、梅花8、梅花6。");
  const last = { suit: "trump", led: 2, count: 1, owed: [] };
  assert.equal(reasonText("illegal_follow", last, "en"), "You must play your last trump.");
  const single = { suit: "H", led: 1, count: 1, owed: [], example: ["H3"] };
  assert.equal(reasonText("illegal_follow", single, "en"),
    "You must follow with a ♥ card while you hold one. For example: ♥3.");
  assert.equal(reasonText("illegal_follow", single, "zh"), "你必须跟红桃。例如：红桃3。");
  const plain = { suit: "H", led: 4, count: 4, owed: [] };
  assert.equal(reasonText("illegal_follow", plain, "zh"), "你必须跟4张红桃。");
});

test("a throw the thrower's own cards beat names both units (RULES A7)", () => {
  const params = { seat: 0, beaten: ["HQ"], by: ["HK"] };
  assert.equal(reasonText("throw_refused", params, "en"),
    "You cannot throw this: your ♥K beats the ♥Q you threw. Lead again.");
  assert.equal(reasonText("throw_refused", params, "zh"), "不能甩牌：你手中的红桃K大于甩出的红桃Q。请重新出牌。");
});

test("a kept pair beats a thrown pair", () => {
  assert.equal(reasonText("throw_refused", { seat: 1, beaten: ["HJ", "HJ"], by: ["HK", "HK"] }, "en"),
    "You cannot throw this: your ♥K ♥K beat the ♥J ♥J you threw. Lead again.");
});

test("whose turn it is, by the page's names when it gives them", () => {
  assert.equal(reasonText("not_your_turn", { turn: 2 }, "en"), "It is not your turn: seat 2 is to act.");
  assert.equal(reasonText("not_your_turn", { turn: 2 }, "zh", () => "小明"), "还没轮到你：现在轮到小明。");
});

test("the other refusals with figures", () => {
  assert.equal(reasonText("wrong_count", { count: 8, given: 7 }, "en"), "Bury exactly 8 cards (you chose 7).");
  assert.equal(reasonText("illegal_bid", { step: 5, max: 115 }, "zh"), "现在叫分只能是5的倍数，从0到115。");
  assert.equal(reasonText("cards_not_held", { cards: ["BJ", "SA"] }, "en"), "You do not hold big joker ♠A.");
  assert.equal(reasonText("illegal_lead", { reason: "throw", suit: "H", throws: "trump" }, "en"),
    "Only trumps may be thrown: lead one ♥ unit.");
  assert.equal(reasonText("wrong_phase", { phase: "play", allowed: ["bury"] }, "zh"), "现在不能这样做：当前是出牌阶段。");
});

test("languages: zh-hans reads Chinese, anything else English; unknown codes are null", () => {
  assert.equal(reasonText("hand_over", {}, "zh-Hans"), "这一局已经结束。");
  assert.equal(reasonText("hand_over", {}, "fr"), "The hand is over.");
  assert.equal(reasonText("no_such_code", {}, "en"), null);
});

test("every code has both languages", () => {
  for (const [code, texts] of Object.entries(REASONS)) {
    assert.deepEqual(Object.keys(texts).sort(), ["en", "zh"], code);
  }
});
