// The table page's reducer (static/ui/table/state.js) under Node's own test runner, on the
// socket streams tests/ui/record_streams.py recorded: one hand of each variant as seat 0's
// socket received it. What the page must show is worked out here from the stream's events and
// from the engine's own state beside each message (`truth`), never from the reducer's output.
// Run: node --test tests/ui/js/   (tests/ui/test_table_state_node.py runs it in the suite)

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { errorText } from "../../../static/ui/table/errors.js";
import { initialState, reduce, viewModel } from "../../../static/ui/table/state.js";

const STREAMS = new URL("../streams/", import.meta.url);
const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
const VARIANTS = ["classic", "four_deck", "point_bid", "guigang"];
const RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const rankOf = (level) => RANKS[level] || String(level);

function load(variant) {
  return JSON.parse(readFileSync(new URL(variant + ".json", STREAMS), "utf8"));
}
function envOf(stream, lang) {
  return { client: stream.client, cardLabel: (t) => "<" + t + ">", suits: SUITS, lang: lang || "en" };
}
function* replay(stream) {
  const env = envOf(stream);
  let state = initialState();
  for (let i = 0; i < stream.messages.length; i++) {
    const msg = stream.messages[i];
    state = reduce(state, msg, env);
    yield { i, msg, state, vm: viewModel(state, env), truth: stream.truth[i], env };
  }
}

test("there is a recorded stream of every variant", () => {
  const files = readdirSync(STREAMS).filter((f) => f.endsWith(".json")).sort();
  assert.deepEqual(files, VARIANTS.map((v) => v + ".json").sort());
});

for (const variant of VARIANTS) {
  const stream = load(variant);
  const L = stream.client.catalog.labels;
  const me = stream.seat;

  test(`${variant}: every message is taken once, in order`, () => {
    for (const { msg, state } of replay(stream)) {
      assert.equal(state.took, true, `message ${msg.seq} taken`);
      assert.equal(state.gap, false);
      assert.equal(state.seq, msg.seq);
    }
  });

  test(`${variant}: the hand holds what was dealt, picked up, buried and played`, () => {
    let held = 0;
    let dealtOut = false;
    for (const { msg, vm, truth } of replay(stream)) {
      for (const ev of msg.events || []) {
        if (ev.type === "hand_started" || ev.type === "redeal") held = 0;
        else if (ev.type === "dealt") held += 1;
        else if (ev.type === "deal_done") dealtOut = true;
        else if (ev.type === "kitty") held += ev.cards.length;   // the dealer's alone
        else if (ev.type === "buried") held -= ev.cards.length;
        else if (ev.type === "played" && ev.seat === me) held -= ev.cards.length;
      }
      if (msg.events && msg.events.some((ev) => ev.type === "deal_done")) {
        assert.equal(held, stream.rules.hand_size, "a full hand once the deal is done");
      }
      assert.equal(vm.hand.cards.length, held);
      if (truth) assert.equal(vm.hand.cards.length, truth.hand);
    }
    assert.ok(dealtOut);
    assert.equal(held, 0, "every card played by the end");
  });

  test(`${variant}: the seat marked to act is the engine's, and only then can it act`, () => {
    let mine = 0;
    for (const { vm, truth, msg } of replay(stream)) {
      if (!truth) continue;
      // The engine waits on its turn's seat while burying, bidding, naming trump and playing;
      // while dealing and declaring anyone may call, and at the end nobody acts.
      const waits = ["deal", "declare", "end"].indexOf(truth.phase) < 0 && truth.turn != null;
      const expected = waits ? [truth.turn] : [];
      assert.deepEqual(vm.seats.filter((s) => s.turn).map((s) => s.seat), expected, `seq ${msg.seq}`);
      assert.equal(vm.myTurn, waits && truth.turn === me);
      assert.equal(vm.phaseText.includes(L.your_turn), waits && truth.turn === me);
      const ops = vm.controls.map((c) => c.op);
      assert.equal(ops.includes("play"), truth.phase === "play" && vm.myTurn);
      assert.equal(ops.includes("bury"), truth.phase === "bury" && vm.myTurn);
      if (ops.includes("bury")) {
        assert.equal(vm.controls.find((c) => c.op === "bury").need, stream.rules.kitty_size);
      }
      if (vm.myTurn) mine += 1;
    }
    assert.ok(mine > 0, "seat 0 acted");
  });

  test(`${variant}: the facts in the header follow the engine`, () => {
    for (const { vm, truth, msg } of replay(stream)) {
      if (!truth) continue;
      assert.equal(vm.facts.points, truth.points);
      const seat = truth.dealer == null ? null : msg.table.seats[truth.dealer];
      // A platform bot goes by its number in the page's language, a person by their name.
      const name = seat && (seat.bot_number != null ? L.bot_name.replace("{n}", seat.bot_number) : seat.name);
      const dealer = seat == null ? "–" : name + (truth.dealer === me ? " (" + L.you + ")" : "");
      assert.equal(vm.facts.dealer, dealer);
    }
  });

  test(`${variant}: the trick on the felt is the plays since its lead`, () => {
    let plays = [];
    for (const { msg, vm, truth } of replay(stream)) {
      for (const ev of msg.events || []) {
        if (ev.type === "play_started" || ev.type === "hand_started") plays = [];
        else if (ev.type === "played") plays.push(ev);
        else if (ev.type === "trick_won") plays = [];
      }
      if (!truth || truth.phase !== "play" || !plays.length) continue;
      assert.deepEqual(vm.trick.plays.map((p) => [p.seat, p.cards]), plays.map((p) => [p.seat, p.cards]));
      assert.equal(vm.trick.past, false);
      // Seat 0 sits at the bottom; play goes counter-clockwise, the next seat on the right.
      for (const p of vm.trick.plays) assert.equal(p.pos, ["bottom", "right", "top", "left"][p.seat]);
    }
  });

  test(`${variant}: teams and levels as the rules have them`, () => {
    let levels = null;
    for (const { msg, vm } of replay(stream)) {
      for (const ev of msg.events || []) if (ev.type === "hand_started") levels = ev.levels;
      for (const seat of vm.seats) {
        const team = seat.chips.find((c) => c.cls === "team");
        if (!stream.client.variant.partnerships) {
          // One against three: no A/B marks; the dealer is named as playing alone.
          assert.equal(team, undefined);
          assert.equal(seat.team, null);
          continue;
        }
        // RULES §1: partners sit opposite, seats 0 and 2 against 1 and 3.
        assert.equal(team.text, seat.seat % 2 ? "B" : "A");
        assert.equal(seat.team, seat.seat % 2 ? "b" : "a");
        const lv = seat.chips.find((c) => c.cls === "lv");
        if (levels && msg.view && msg.view.phase !== "end") {
          const level = levels[seat.seat % 2];
          assert.equal(lv.text, L.level_short + " " + (RANKS[level] || String(level)));
        }
      }
      if (!stream.client.variant.partnerships && msg.view && msg.view.dealer != null) {
        assert.ok(vm.calls.items.some((item) => item.text === L.dealer_alone));
      }
    }
  });

  test(`${variant}: the result shows the hand's end and then what each seat was paid`, () => {
    let ended = null;
    let settled = null;
    let last = null;
    for (const step of replay(stream)) {
      for (const ev of step.msg.events || []) {
        if (ev.type === "hand_end") ended = ev;
        else if (ev.type === "settled") settled = ev;
      }
      if (!ended) assert.equal(step.vm.result, null);
      last = step;
    }
    assert.ok(ended && settled, "the stream holds the end and the settlement");
    const result = last.vm.result;
    assert.ok(result);
    assert.deepEqual(result.rows.map((r) => r.points), settled.points);
    assert.equal(result.rows.reduce((sum, r) => sum + r.points, 0), 0, "zero-sum");
    // The kitty only where the rule set has one: no empty heading in four_deck or guigang.
    assert.deepEqual(result.kitty, stream.rules.kitty_size ? ended.kitty : null);
    // Shown once: the side panel leaves it to the result.
    assert.equal(last.vm.kitty, null);
    const winner = ended.result.winner === "dealer" ? L.winner_dealer : L.winner_defenders;
    assert.equal(result.winner, winner);
    // The steps run from the points the header showed all hand to the result's total.
    const steps = result.lines.filter((line) => line.cls.startsWith("step "));
    const first = L.step_trick_points.replace("{points}", last.truth.points);
    assert.ok(steps.some((line) => line.text === first), first);
    assert.ok(steps[steps.length - 1].text.includes(String(ended.result.defender_points)));
    assert.ok(steps.every((line) => !/\{\w+\}/.test(line.text)), "every figure filled in");
    assert.equal(last.vm.facts.points, last.truth.points);
    // Each seat's points say why, with the stake (1 at the recorded tables).
    for (const row of result.rows) {
      assert.ok(row.why && !/\{\w+\}/.test(row.why), row.why);
      if (row.points) assert.ok(row.why.includes("1"), row.why);
      // Where the cap (P8b) changed a seat's points, its row says from what to what.
      const would = settled.would[row.seat];
      if (would !== settled.points[row.seat]) {
        const words = (would < 0 ? L.why_capped : L.why_shared).replace("{would}", would).replace("{paid}", row.points);
        assert.ok(row.why.endsWith(words), row.why);
      } else {
        assert.ok(!row.why.includes(L.why_capped.split("{")[1].split("}")[1]), row.why);
      }
    }
    // The recorded point_bid hand (cap 4) cut the lone dealer's loss.
    if (variant === "point_bid") assert.ok(settled.capped);
    assert.ok(result.replay.endsWith("/" + last.msg.view.hand_id + "/replay/"));
    // Dismissed, it stays closed until the phase changes.
    const env = envOf(stream);
    const closed = reduce(last.state, { type: "dismiss_result" }, env);
    assert.equal(viewModel(closed, env).result, null);
  });

  test(`${variant}: an update seen already is ignored, and a gap asks for a catch-up`, () => {
    const env = envOf(stream);
    let state = initialState();
    const updates = stream.messages.filter((m) => m.type === "update");
    state = reduce(state, stream.messages[0], env);
    state = reduce(state, updates[0], env);
    const again = reduce(state, updates[0], env);
    assert.equal(again.took, false);
    assert.equal(again.seq, state.seq);
    const skipped = reduce(state, updates[2], env);
    assert.equal(skipped.gap, true);
    assert.equal(skipped.seq, state.seq, "nothing taken past a gap");
    // The catch-up (events since the last seq, the view after them) closes it.
    const catchup = Object.assign({}, updates[2], { type: "catchup", prev_seq: state.seq,
      events: [].concat(updates[1].events, updates[2].events) });
    const caught = reduce(state, catchup, env);
    assert.equal(caught.took, true);
    assert.equal(caught.seq, updates[2].seq);
  });
}

test("a refusal's words take its figures from its fields, never from its text", () => {
  const stream = load("classic");
  const env = envOf(stream);
  const text = errorText("balance_too_low", { type: "error", code: "balance_too_low",
    message: "playing here needs 300 points", need: 200 }, env);
  assert.ok(text.includes("200"));
  assert.ok(!text.includes("300") && !text.includes("{need}"));
  // The other engineer's `params` object, when there, wins.
  assert.ok(errorText("balance_too_low", { message: "", need: 1, params: { need: 7 } }, env).includes("7"));
  // A rules refusal with its params reads as the rules' reason, in the page's language; the
  // English `message` is never shown (or parsed).
  const follow = { code: "illegal_follow", message: "you must follow with pairs of H",
                   params: { suit: "H", led: 2, count: 3, owed: [{ shape: "pair", width: 2, length: 1 }] } };
  assert.ok(errorText("illegal_follow", follow, env).startsWith("You must follow with"));
  assert.ok(!errorText("illegal_follow", follow, env).includes("pairs of H"));
  assert.ok(errorText("illegal_follow", follow, Object.assign({}, env, { lang: "zh-hans" })).startsWith("你必须跟出"));
  // Without params: the catalog's words for the code.
  assert.equal(errorText("illegal_follow", { message: "you must follow" }, env),
               stream.client.catalog.errors.illegal_follow);
  assert.equal(errorText("no_such_code", {}, env), stream.client.catalog.error);
});

test("a platform bot is named in the page's language, a person by their name", async () => {
  const { nameOf } = await import("../../../static/ui/table/state.js");
  const env = { client: { seat: 0, catalog: { labels: { bot_name: "机器人 {n}", empty: "空位", you: "你" } } } };
  const s = { table: { seats: [
    { seat: 0, name: "小明", bot: false, bot_number: null },
    { seat: 1, name: "Bot 3", bot: true, bot_number: 3 },
    { seat: 2, name: "Alicia", bot: true, bot_number: null },
    { seat: 3, name: null, bot: false, bot_number: null },
  ] } };
  assert.deepEqual([0, 1, 2, 3].map((seat) => nameOf(s, env, seat)),
    ["小明 (你)", "机器人 3", "Alicia", "空位"]);
});

for (const variant of VARIANTS) {
  const stream = load(variant);
  const L = stream.client.catalog.labels;
  const nameIn = (msg, seat) => {
    const info = msg.table.seats[seat];
    const name = info.bot_number != null ? L.bot_name.replace("{n}", info.bot_number) : info.name;
    return seat === stream.seat ? name + " (" + L.you + ")" : name;
  };

  test(`${variant}: the status line waits on a seat in the words of the phase`, () => {
    let waited = 0;
    for (const { vm, truth, msg } of replay(stream)) {
      if (!truth || ["bid", "trump", "bury", "play"].indexOf(truth.phase) < 0 || truth.turn === stream.seat) continue;
      const words = { bid: L.turn_bid, trump: L.turn_trump, bury: L.turn_bury, play: L.turn_play }[truth.phase];
      assert.ok(vm.phaseText.includes(words.replace("{name}", nameIn(msg, truth.turn))), vm.phaseText);
      // Bidding is no play: "Bot 1 to bid", never "Bot 1 to play" (the newcomer's 等待 … 出牌).
      if (truth.phase !== "play") assert.ok(!vm.phaseText.includes(L.turn_play.replace("{name}", "")), vm.phaseText);
      waited += 1;
    }
    assert.ok(waited > 0);
  });

  test(`${variant}: both teams' levels side by side in the header, or the contract`, () => {
    let levels = null;
    let contract = null;
    for (const { msg, vm, truth } of replay(stream)) {
      for (const ev of msg.events || []) {
        if (ev.type === "hand_started") levels = ev.levels;
        else if (ev.type === "contract") contract = ev;
      }
      if (!truth) continue;
      if (variant === "point_bid") {
        // One against three, no levels: the contract and its odds in their place.
        assert.equal(vm.facts.levels, null);
        assert.equal(vm.facts.contract, contract ? L.contract_fact.replace("{n}", contract.bid).replace("{m}", contract.multiplier) : "–");
        continue;
      }
      assert.equal(vm.facts.contract, null);
      if (truth.phase === "end") continue;
      // Teams {0, 2} and {1, 3} (RULES §1.1): the dealer's team's level is the one played.
      assert.deepEqual(vm.facts.levels.map((t) => t.text), ["A " + rankOf(levels[0]), "B " + rankOf(levels[1])]);
      assert.deepEqual(vm.facts.levels.map((t) => t.playing),
                       truth.dealer == null ? [false, false] : [truth.dealer % 2 === 0, truth.dealer % 2 === 1]);
    }
  });

  test(`${variant}: each play of the trick on the felt names its player`, () => {
    let named = 0;
    for (const { msg, vm } of replay(stream)) {
      for (const p of vm.trick.plays) {
        assert.equal(p.name, nameIn(msg, p.seat));
        named += 1;
      }
    }
    assert.ok(named > 0);
  });

  test(`${variant}: while the dealer buries, the cards the kitty brought are marked in its hand`, () => {
    let picked = null;
    let marked = 0;
    for (const { msg, vm, truth } of replay(stream)) {
      for (const ev of msg.events || []) if (ev.type === "kitty") picked = ev.cards;  // to the dealer alone
      const marks = vm.hand.cards.filter((c) => c.kitty).map((c) => c.token).sort();
      if (truth && truth.phase === "bury" && picked) {
        assert.deepEqual(marks, picked.slice().sort());
        assert.equal(vm.handNote, L.kitty_marked);
        marked += 1;
      } else {
        assert.deepEqual(marks, []);
        assert.equal(vm.handNote, "");
      }
    }
    // The recorded hands of the variants with a kitty have seat 0 dealing (record_streams.py).
    assert.equal(marked > 0, stream.rules.kitty_size > 0);
  });

  test(`${variant}: on seat 0's turn to play the cards outside the server's playable are dimmed, else none`, () => {
    let turns = 0, dimmedSome = false;
    for (const { state, vm } of replay(stream)) {
      const v = state.view;
      const dim = vm.hand.cards.filter((c) => c.dim).map((c) => c.token).sort();
      if (v && v.phase === "play" && (v.acting || []).includes(0)) {
        turns++;
        const expected = vm.hand.cards.map((c) => c.token).filter((t) => !v.playable.includes(t)).sort();
        assert.deepEqual(dim, expected);
        dimmedSome = dimmedSome || dim.length > 0;
      } else {
        assert.deepEqual(dim, []);
      }
    }
    assert.ok(turns > 0, "seat 0 played in the stream");
    // A follow while holding the led suit leaves some cards out of every legal play.
    assert.ok(dimmedSome, "some follow dimmed a card");
  });
}

test("a special hand is named in the page's language, not by the engine's name for it", () => {
  const stream = load("point_bid");
  let state = initialState();
  const env = envOf(stream);
  env.client = Object.assign({}, stream.client, { catalog: Object.assign({}, stream.client.catalog, {
    special_names: { "主7沖關": "Trump-7 breakthrough" } }) });
  for (const msg of stream.messages) state = reduce(state, msg, env);
  const view = Object.assign({}, state.view, { result_steps: [
    { kind: "special_defender", seat: 1, special: "主7沖關", passes: 2, step: 40, points: 80,
      before: 60, total: 140 }] });
  const lines = viewModel(Object.assign({}, state, { view: view }), env).result.lines;
  const special = lines.find((line) => line.cls === "step step-special_defender");
  assert.ok(special.text.includes("Trump-7 breakthrough"), special.text);
  assert.ok(!/[\u3400-\u9fff]/.test(special.text), special.text);
});

// Play again (docs/ui.md): the view's `rematch` is answered with the two buttons while it waits
// for this seat, in place of Next hand; a private table's seats get their invitation link.
test("a rematch offered is answered in place of Next hand, only while it waits for the seat", () => {
  const stream = load("classic");
  const labels = Object.assign({}, stream.client.catalog.labels, {
    rematch_offer: "Play again?", rematch_accepted_by: "Accepted: {names}",
    rematch_waiting: "Waiting for: {names}", rematch_accept: "Play again",
    rematch_decline: "No, thanks", rematch_declined: "{name} declines",
    rematch_started: "Seats moved", invite_renewed: "{name} renewed",
  });
  const client = Object.assign({}, stream.client, { catalog: Object.assign({}, stream.client.catalog, { labels: labels }),
                                                    invite_url: "/tables/7/?invite={token}" });
  const env = { client: client, cardLabel: (t) => "<" + t + ">", suits: SUITS, lang: "en" };
  const last = stream.messages[stream.messages.length - 1];
  let state = initialState();
  for (const msg of stream.messages) state = reduce(state, msg, env);
  const name = (seat) => env.client.catalog.labels.bot_name.replace("{n}", last.table.seats[seat].bot_number);
  const offered = (accepted, waiting) => Object.assign({}, last, {
    seq: state.seq + 1, prev_seq: state.seq, events: [],
    view: Object.assign({}, last.view, { rematch: { accepted: accepted, waiting: waiting, moves: [0, 2, 3, 1] } }) });
  let s = reduce(state, offered([1, 2, 3], [0]), env);
  let vm = viewModel(s, env);
  const sends = vm.controls.filter((c) => c.op === "send").map((c) => c.action);
  assert.deepEqual(sends, [{ type: "rematch", accept: true }, { type: "rematch", accept: false }]);
  assert.ok(vm.controls.some((c) => c.op === "leave"));
  assert.equal(vm.result.canReady, false);
  assert.deepEqual(vm.rematch.lines, ["Play again?", "Accepted: " + [1, 2, 3].map(name).join(" · "),
                                      "Waiting for: " + last.table.seats[0].name + " (" + labels.you + ")"]);
  assert.equal(vm.rematch.controls.length, 2);
  // Once this seat accepted it waits like the others: no button, no Next hand.
  s = reduce(s, Object.assign(offered([0, 1, 2], [3]), { seq: s.seq + 1, prev_seq: s.seq }), env);
  vm = viewModel(s, env);
  assert.deepEqual(vm.controls.map((c) => c.op), ["leave"]);
  assert.deepEqual(vm.rematch.controls, []);
  // A seat declining says who; no offer: Next hand again.
  s = reduce(s, Object.assign({}, last, { seq: s.seq + 1, prev_seq: s.seq,
    events: [{ type: "rematch_answered", seat: 3, accept: false, seq: s.seq + 1 }] }), env);
  vm = viewModel(s, env);
  assert.equal(vm.notice.text, name(3) + " declines");
  assert.equal(vm.rematch, null);
  assert.deepEqual(vm.controls[0].action, { type: "ready" });
  // No invitation for a table that is not private; the seats' token makes the link.
  assert.equal(vm.invite, null);
  s = reduce(s, Object.assign({}, last, { seq: s.seq + 1, prev_seq: s.seq, events: [], invite: "tok" }), env);
  assert.equal(viewModel(s, env).invite, "/tables/7/?invite=tok");
  // The first hand of a rematch says the seats moved.
  s = reduce(s, Object.assign({}, last, { seq: s.seq + 2, prev_seq: s.seq, events: [
    { type: "rematch_started", moves: [0, 2, 3, 1], seq: s.seq + 1 },
    { type: "hand_started", hand: 9, seq: s.seq + 2 }] }), env);
  assert.equal(viewModel(s, env).notice.text, "Seats moved");
});
