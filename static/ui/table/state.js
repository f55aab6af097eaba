/* The live table's state, pure: the socket's messages (docs/protocol.md) and the page's own
   doings in, through reduce(); the view model the page draws, out of viewModel(). No DOM, no
   socket, no clock: tests/ui/js/table_state.test.mjs runs it under Node on recorded streams.

   The server is the only authority: who acts now (`view.acting`), who plays with whom
   (`view.teams`), what may be called (`view.calls`) and how cards sort (`view.card_order`)
   all come in the view; nothing here knows a rule. `env` is what the page knows besides:
   {client (the template's config: seat, variant, catalog, prefs, replay_url),
    cardLabel (token -> words, cards.js's Cards.label), suits ({S: "♠", ...})}. */

export const POSITIONS = ["bottom", "right", "top", "left"]; // counter-clockwise: 下家 on the right
const RANK_NAMES = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const SUIT_ORDER = ["S", "H", "C", "D"];

export function fmt(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? values[k] : m));
}
/* A label counting {n} cards: its `_one` text (English "1 card") when n is 1. */
export function fmtCount(L, key, values) {
  return fmt(values.n === 1 && L[key + "_one"] ? L[key + "_one"] : L[key], values);
}
export function rankName(level) { return level == null ? "–" : (RANK_NAMES[level] || String(level)); }
/* A token's printed suit (NOTATION.md: "SA", "H10"; the jokers "LJ", "BJ" have none). */
export function suitOf(token) { return token === "BJ" || token === "LJ" ? null : token.charAt(0); }

export function initialState() {
  return {
    version: null, seq: null, view: null, table: null,
    settled: null,            // the `settled` event of the hand shown, once it came
    matchWon: null,
    invite: null,             // a private table's invitation token (a seat's messages carry it)
    rotated: false,           // a rematch moved the seats: its first hand says so
    notice: { text: "", kind: "" },
    resultDismissed: false,
    leaving: false,           // "Leave seat" pressed: go to the lobby once the table says so
    took: false,              // the last message was taken (the other scripts hear of it)
    gap: false,               // ... or it showed a gap: say hello with `seq` again
  };
}

/* The state after `msg`: a socket message (update, snapshot, catchup, error) or one of the
   page's own: {type: "notice", text, kind}, {type: "dismiss_result"}, {type: "leaving"}. */
export function reduce(state, msg, env) {
  const s = Object.assign({}, state, { took: false, gap: false });
  switch (msg.type) {
    case "update":
      if (s.seq != null && msg.seq <= s.seq) return s;                      // already seen
      if (s.seq != null && msg.prev_seq !== s.seq) return Object.assign(s, { gap: true });
      return absorb(s, msg, env);
    case "snapshot":
    case "catchup":
      return absorb(s, msg, env);
    case "error":
      // A stale_version refusal carries the fresh snapshot.
      return msg.snapshot ? absorb(s, msg.snapshot, env) : s;
    case "notice":
      return Object.assign(s, { notice: { text: msg.text || "", kind: msg.kind || "" } });
    case "dismiss_result":
      return Object.assign(s, { resultDismissed: true });
    case "leaving":
      return Object.assign(s, { leaving: true });
    default:
      return s;
  }
}

function absorb(s, msg, env) {
  const prevPhase = s.view ? s.view.phase : null;
  Object.assign(s, { version: msg.version, seq: msg.seq, view: msg.view, table: msg.table, took: true });
  if (msg.invite !== undefined) s.invite = msg.invite;
  (msg.events || []).forEach((ev) => onEvent(s, ev, env));
  const phase = s.view ? s.view.phase : null;
  if (phase !== prevPhase) {
    s.resultDismissed = false;
    if (phase !== "end") s.settled = null;
  }
  return s;
}

function onEvent(s, ev, env) {
  const L = env.client.catalog.labels;
  const cards = (tokens) => tokens.map(env.cardLabel).join(" ");
  const info = (text) => { s.notice = { text: text, kind: "info" }; };
  if (ev.type === "settled") s.settled = ev;
  else if (ev.type === "throw_failed") info(fmt(L.throw_failed, { name: nameOf(s, env, ev.seat), cards: cards(ev.played) }));
  // The server names a bomb: the page holds no rule of what one is.
  else if (ev.type === "played" && ev.bomb) info(fmt(L.bomb, { name: nameOf(s, env, ev.seat), cards: cards(ev.cards) }));
  else if (ev.type === "hand_started") {
    s.settled = null;
    // The first hand of a rematch says the seats moved (its `rematch_started` came first).
    s.notice = s.rotated ? { text: L.rematch_started, kind: "info" } : { text: "", kind: "" };
    s.rotated = false;
  }
  else if (ev.type === "surrendered") info(fmt(L.surrendered, { name: nameOf(s, env, ev.seat) }));
  else if (ev.type === "match_won") s.matchWon = ev;
  else if (ev.type === "match_started") s.matchWon = null;
  else if (ev.type === "rematch_answered" && !ev.accept) info(fmt(L.rematch_declined, { name: nameOf(s, env, ev.seat) }));
  else if (ev.type === "rematch_ended" && L["rematch_ended_" + ev.reason]) info(L["rematch_ended_" + ev.reason]);
  else if (ev.type === "rematch_started") s.rotated = true;
  else if (ev.type === "invite_renewed") info(fmt(L.invite_renewed, { name: nameOf(s, env, ev.seat) }));
}

// --- reading the state ---------------------------------------------------------------------

function mySeat(env) { return env.client.seat; }
function seatInfo(s, seat) { return s.table ? s.table.seats[seat] : null; }
export function nameOf(s, env, seat) {
  const L = env.client.catalog.labels;
  const info = seatInfo(s, seat);
  const name = !info || !info.name ? L.empty
    : info.bot_number != null ? fmt(L.bot_name, { n: info.bot_number }) : info.name;
  return seat === mySeat(env) ? name + " (" + L.you + ")" : name;
}
export function posOf(env, seat) {
  const base = env.client.seat == null ? 0 : env.client.seat;
  return POSITIONS[(seat - base + 4) % 4];
}
/* The seats acting now, as the server says (`view.acting`). */
export function acting(s) { return (s.view && s.view.acting) || []; }
/* Who plays with whom: the hand's `teams`, or before a hand the rule set's fixed ones. */
function teamsOf(s, env) { return (s.view && s.view.teams) || env.client.variant.teams || null; }
function teamOf(teams, seat) {
  if (!teams) return null;
  const k = teams.findIndex((team) => team.indexOf(seat) >= 0);
  return k < 0 ? null : k;
}
function teamNames(s, env, team) {
  const teams = teamsOf(s, env);
  return teams && teams[team] ? teams[team].map((seat) => nameOf(s, env, seat)).join(" · ") : "";
}
/* What the server says of a card in this hand: [order key, trump]. */
function orderOf(s, token) {
  const order = s.view && s.view.card_order;
  return (order && order[token]) || [0, false];
}

// --- the view model ------------------------------------------------------------------------

/* Everything the page draws, worked out from the state: texts in the page's language,
   cards as tokens, and the actions its buttons send. */
export function viewModel(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  const me = mySeat(env);
  const table = s.table;
  const hand = handModel(s, env);
  const result = resultModel(s, env);
  return {
    phase: v ? v.phase : "waiting",
    phaseText: phaseText(s, env),
    acting: acting(s),
    myTurn: me != null && acting(s).indexOf(me) >= 0,
    facts: {
      trump: v ? trumpText(s, env) : "–",
      levels: levelsFact(s, env),
      contract: contractFact(s, env),
      dealer: v && v.dealer != null ? nameOf(s, env, v.dealer) : "–",
      points: v ? v.points : 0,
      stake: table && table.base_stake != null ? table.base_stake : "–",
    },
    seats: [0, 1, 2, 3].map((seat) => seatModel(s, env, seat)),
    calls: callsModel(s, env),
    trick: trickModel(s, env),
    lastTrick: v && v.last_trick ? playsOf(v.last_trick).map((p) => ({
      seat: p.seat, name: nameOf(s, env, p.seat), cards: p.cards, won: v.last_trick.winner === p.seat })) : [],
    pointCards: v ? v.point_cards || [] : [],
    pointsSum: v ? "(" + v.points + ")" : "",
    kitty: kittyModel(s, result),
    hand: hand,
    // While the dealer buries, what the marks on the hand's cards mean.
    handNote: hand.cards.some((c) => c.kitty) ? L.kitty_marked : "",
    controls: controlsModel(s, env),
    result: result,
    rematch: rematchModel(s, env),
    // A private table's invitation link, for a seat (the page puts its origin in front).
    invite: s.invite && env.client.invite_url ? env.client.invite_url.replace("{token}", s.invite) : null,
    timer: timerModel(s),
    notice: s.notice,
    // Leave seat pressed and the table no longer seats this player: back to the lobby.
    gone: s.leaving && me != null && !!table && !table.seats[me].user,
  };
}

function phaseText(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  const me = mySeat(env);
  const phase = v ? v.phase : "waiting";
  const calling = v && v.calls && v.calls.some((c) => c.type === "declare");
  let text = (phase === "deal" && calling ? L.phase_deal_calls : L["phase_" + phase]) || phase;
  if (!v) return text;
  if (v.match) text = fmt(L.match_of, { n: v.match.number, k: v.match.hands }) + " · " + text;
  if (v.contract != null) text += " · " + fmt(L.contract, { n: v.contract, m: v.multiplier });
  if (phase === "end" && v.timer && v.timer.kind === "ready" && v.timer.seats.indexOf(me) >= 0) {
    text += " · " + L.ready_timer;
  }
  const now = acting(s);
  if (now.length) {
    // Waiting on a seat in the words of the phase (叫分, 埋底, 出牌 …), which the view names.
    text += " · " + (now.indexOf(me) >= 0 ? L.your_turn
      : fmt(L["turn_" + phase] || L.turn_of, { name: now.map((seat) => nameOf(s, env, seat)).join(" · ") }));
  }
  return text;
}

/* Which parts of a table this rule set has, as the view says (`parts`); none before a hand. */
function partsOf(s) { return (s.view && s.view.parts) || {}; }

/* Both teams' levels side by side for the header, the one played this hand (the dealer's
   team's) marked; the levels a finished hand left them at, as the seats show. */
function levelsFact(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  if (!partsOf(s).levels) return null;
  const teams = teamsOf(s, env) || [];
  const levels = shownLevels(v);
  return teams.map((seats, team) => {
    const playing = v.phase !== "end" && v.dealer != null && seats.indexOf(v.dealer) >= 0;
    const values = { team: team ? L.team_b : L.team_a, names: teamNames(s, env, team), level: rankName(levels[team]) };
    return { team: team ? "b" : "a", text: (team ? "B" : "A") + " " + rankName(levels[team]), playing: playing,
             title: fmt(playing ? L.levels_fact_playing : L.levels_fact, values) };
  });
}
function shownLevels(v) {
  return v.phase === "end" && v.result && v.result.levels_after ? v.result.levels_after : v.levels;
}

/* In the levels' place where the rule set plays a contract instead: the contract and its odds. */
function contractFact(s, env) {
  const v = s.view;
  if (!partsOf(s).contract) return null;
  return v.contract != null ? fmt(env.client.catalog.labels.contract_fact, { n: v.contract, m: v.multiplier }) : "–";
}

/* The side panel's kitty: the dealer's while burying, the shown or turned one, the buried one
   at the end; not while the result shows it (a phone would show it twice), nor where the rule
   set has none. */
function kittyModel(s, result) {
  const v = s.view;
  if (!v || !partsOf(s).kitty || result) return null;
  return v.kitty || v.shown_kitty || v.turned_kitty || null;
}

function trumpText(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  if (v.trump) return env.suits[v.trump];
  if (v.phase === "deal" || v.phase === "declare" || v.phase === "bid" || v.phase === "trump") {
    const last = v.declarations && v.declarations[v.declarations.length - 1];
    if (last && last.cards) return last.cards.map(env.cardLabel).join(" ");
    if (last && last.count) return L.trump_hidden;
    return L.trump_unknown;
  }
  return L.no_trump;
}

function seatModel(s, env, seat) {
  const L = env.client.catalog.labels;
  const v = s.view;
  const info = seatInfo(s, seat);
  const teams = teamsOf(s, env);
  const team = teamOf(teams, seat);
  // Team marks where partners play together; else one plays against the other three.
  const shown = env.client.variant.partnerships && team != null;
  const chips = [];
  if (shown) chips.push({ text: team ? "B" : "A", cls: "team", title: team ? L.team_b : L.team_a });
  // Once a hand is over the seats show the levels it left them at.
  const levels = v && shownLevels(v);
  if (levels && partsOf(s).levels && team != null) {
    chips.push({ text: L.level_short + " " + rankName(levels[team]), cls: "lv" });
  }
  if (v) chips.push({ text: fmtCount(L, "cards", { n: v.counts[seat] }), cls: "count" });
  const between = !v || v.phase === "end";
  const marks = [];
  if (v && v.dealer === seat) marks.push({ text: L.dealer_mark, cls: "dealer" });
  if (info && info.bot) marks.push({ text: L.bot + (info.bot_level ? " · " + L["bot_" + info.bot_level] : ""), cls: "bot" });
  if (info && info.auto) marks.push({ text: L.auto_mark, cls: "auto" });
  if (info && info.user && !info.connected && !info.bot) marks.push({ text: L.offline, cls: "offline" });
  if (info && (info.ready || info.bot) && info.user && between) marks.push({ text: "✓ " + L.ready_mark, cls: "ready" });
  return {
    seat: seat,
    pos: posOf(env, seat),
    team: shown ? (team ? "b" : "a") : null,
    turn: acting(s).indexOf(seat) >= 0,
    name: nameOf(s, env, seat),
    chips: chips,
    marks: marks,
    waiting: !!(v && v.timer && v.timer.seats.indexOf(seat) >= 0),
    // An empty seat between hands: a seated player may fill it with a bot, a spectator sit.
    empty: !!(info && !info.user && between),
  };
}

/* Who declared what, in order (hidden declarations: who and how many cards, P11), or the
   bids of a game with bidding; a dealer playing alone against three. */
function callsModel(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  if (!v || !v.declarations || !v.declarations.length) return null;
  const cards = (tokens) => tokens.map(env.cardLabel).join(" ");
  const bids = v.declarations[0].kind === "bid" || v.declarations[0].kind === "pass";
  const items = v.declarations.map((d) => {
    const name = d.seat != null ? nameOf(s, env, d.seat) : "?";
    let text;
    if (d.kind === "pass") text = fmt(L.pass_of, { name: name });
    else if (d.kind === "bid") text = fmt(L.bid_of, { name: name, n: d.bid });
    else if (d.cards) text = fmt(L.declared_cards, { name: name, kind: L["kind_" + d.kind], cards: cards(d.cards) });
    else text = fmtCount(L, "declared_count", { name: name, kind: L["kind_" + d.kind], n: d.count });
    return { text: text, cls: "call-item kind-" + d.kind };
  });
  if (!env.client.variant.partnerships && v.dealer != null) items.push({ text: L.dealer_alone, cls: "call-item" });
  return { title: bids ? L.bid_history + ":" : null, items: items };
}

/* A trick's plays with their seats: the plays come in seat order from the leader. */
function playsOf(trick) {
  return trick.plays.map((cards, i) => ({ seat: (trick.leader + i) % 4, cards: cards }));
}

function trickModel(s, env) {
  const v = s.view;
  let shown = v && v.trick;
  let past = false;
  // Between tricks the one just won stays on the felt.
  if ((!shown || !shown.plays.length) && v && v.last_trick && v.phase === "play") { shown = v.last_trick; past = true; }
  if (!shown) return { past: past, plays: [] };
  return {
    past: past,
    plays: playsOf(shown).map((p) => ({ seat: p.seat, pos: posOf(env, p.seat), cards: p.cards,
                                        name: nameOf(s, env, p.seat), won: past && shown.winner === p.seat })),
  };
}

/* The hand in the player's chosen order (client.prefs.sort): "trump" keeps the server's
   order (trumps first), "suit" groups by printed suit with the server's order inside; a gap
   between groups (trumps, then each suit) so the suits read apart. */
function handModel(s, env) {
  const hand = ((s.view && s.view.hand) || []).slice();
  const bySuit = env.client.prefs && env.client.prefs.sort === "suit";
  const trump = (t) => orderOf(s, t)[1];
  const group = (t) => {
    if (!bySuit) return trump(t) ? 0 : 1;
    const suit = suitOf(t);
    return suit ? 1 + SUIT_ORDER.indexOf(suit) : 0;
  };
  hand.sort((a, b) => group(a) - group(b) || orderOf(s, a)[0] - orderOf(s, b)[0]);
  // On the seat's turn to play, the cards no legal lead or follow holds (the server's
  // `playable`) are dimmed; the page works none of it out itself.
  const v = s.view || {};
  const playing = v.phase === "play" && acting(s).indexOf(mySeat(env)) >= 0 && Array.isArray(v.playable);
  const can = new Set(playing ? v.playable : []);
  // While burying, the dealer's view names the cards the kitty brought (`kitty`): as many
  // copies of each marked as it names (identical cards are alike, the first ones take it).
  const fromKitty = {};
  if (v.phase === "bury" && Array.isArray(v.kitty)) v.kitty.forEach((t) => { fromKitty[t] = (fromKitty[t] || 0) + 1; });
  const cards = hand.map((token, i) => {
    const kitty = fromKitty[token] > 0;
    if (kitty) fromKitty[token] -= 1;
    return {
      token: token,
      trump: trump(token),
      kitty: kitty,
      dim: playing && !can.has(token),
      gap: i > 0 && (group(hand[i - 1]) !== group(token) || (!trump(token) && suitOf(hand[i - 1]) !== suitOf(token))),
    };
  });
  return { cards: cards, key: hand.join(",") + "|" + cards.map((c) => (c.trump ? 1 : 0) + (c.kitty ? 2 : 0)).join("") };
}

/* The buttons under the hand: each {op, label, cls, id, action}; `op` "send" sends `action`,
   the others are the page's: "leave", "bury" and "play" (the selected cards). */
function controlsModel(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  const me = mySeat(env);
  if (me == null) return [];
  const info = seatInfo(s, me);
  const phase = v ? v.phase : "waiting";
  const out = [];
  if (info && info.auto) out.push({ op: "send", label: L.take_back, cls: "warn", action: { type: "take_back" } });
  if (phase === "end" && v.rematch) {
    // A rematch offered (the view's `rematch`): answered in place of Next hand.
    rematchControls(s, env).forEach((control) => out.push(control));
    out.push({ op: "leave", label: L.leave, cls: "" });
    return out;
  }
  if (phase === "waiting" || phase === "end") {
    if (info && !info.ready) {
      out.push({ op: "send", label: phase === "end" ? L.next_hand : L.ready, cls: "primary", action: { type: "ready" } });
    }
    out.push({ op: "leave", label: L.leave, cls: "" });
    return out;
  }
  // What the seat may call now, as the server lists it (declarations, bids, trump).
  (v.calls || []).forEach((call) => {
    const action = {};
    Object.keys(call).forEach((k) => { if (k !== "kind") action[k] = call[k]; });
    out.push({ op: "send", label: callLabel(call, env), cls: "call kind-" + call.kind, action: action });
  });
  if (acting(s).indexOf(me) < 0) return out;
  if (phase === "bury") {
    out.push({ op: "bury", id: "act-bury", cls: "primary", need: (v.kitty || []).length });
    if (v.can_surrender) out.push({ op: "send", label: L.surrender, cls: "warn", action: { type: "surrender" } });
  } else if (phase === "play") {
    out.push({ op: "play", id: "act-play", cls: "primary",
               lead: v.trick && v.trick.plays.length ? v.trick.plays[0].length : null });
  }
  return out;
}

/* The rematch the view offers (`rematch`: who accepted, whom it waits for), in words, and
   whether this seat still answers it; null without an offer. */
function rematchModel(s, env) {
  const L = env.client.catalog.labels;
  const offer = s.view && s.view.rematch;
  if (!offer) return null;
  const names = (seats) => seats.map((seat) => nameOf(s, env, seat)).join(" · ");
  const lines = [L.rematch_offer];
  if (offer.accepted.length) lines.push(fmt(L.rematch_accepted_by, { names: names(offer.accepted) }));
  if (offer.waiting.length) lines.push(fmt(L.rematch_waiting, { names: names(offer.waiting) }));
  return { lines: lines, controls: rematchControls(s, env) };
}

/* Play again / No thanks, for a seat the offer still waits for. */
function rematchControls(s, env) {
  const L = env.client.catalog.labels;
  const offer = s.view && s.view.rematch;
  const me = mySeat(env);
  if (!offer || me == null || offer.waiting.indexOf(me) < 0) return [];
  return [
    { op: "send", label: L.rematch_accept, cls: "primary rematch-accept", action: { type: "rematch", accept: true } },
    { op: "send", label: L.rematch_decline, cls: "rematch-decline", action: { type: "rematch", accept: false } },
  ];
}

/* A control's words with `n` cards selected ("Bury (3/8)", "Play (2/2)"). */
export function controlLabel(control, n, env) {
  const L = env.client.catalog.labels;
  if (control.op === "bury") return L.bury + " (" + n + "/" + control.need + ")";
  if (control.op === "play") return L.play + (control.lead ? " (" + n + "/" + control.lead + ")" : n ? " (" + n + ")" : "");
  return control.label;
}

function callLabel(call, env) {
  const L = env.client.catalog.labels;
  if (call.kind === "pass") return L.pass;
  if (call.kind === "bid") return fmt(L.bid, { n: call.bid });
  if (call.kind === "name_trump") return fmt(L.name_trump, { suit: call.trump ? env.suits[call.trump] : L.no_trump });
  return fmt(L["call_" + call.kind] || L.declare, { cards: (call.cards || []).map(env.cardLabel).join(" ") });
}

/* The result dialog: who won, the steps from the points in tricks to the score (the view's
   `result_steps`, each put in words with its figures), the teams' levels where they climb,
   a cap the settlement applied, and per seat its points and what they are made of (the
   view's `result_seats`, and where the cap changed them). Nothing a rule set has no use for
   is drawn: the kitty only where the view's `parts` has one. */
function resultModel(s, env) {
  const L = env.client.catalog.labels;
  const v = s.view;
  if (!v || v.phase !== "end" || !v.result || s.resultDismissed) return null;
  const r = v.result;
  const me = mySeat(env);
  const stake = s.table && s.table.base_stake != null ? s.table.base_stake : 1;
  const settled = s.settled && s.settled.hand_id === v.hand_id ? s.settled : null;
  let winner;
  if (r.escape != null) winner = fmt(L.escape, { seat: nameOf(s, env, r.escape) });
  else if (r.surrender) winner = fmt(L.surrendered, { name: nameOf(s, env, v.dealer) });
  else if (r.winner == null) winner = L.winner_none;
  else winner = r.winner === "dealer" ? L.winner_dealer : L.winner_defenders;
  const lines = [];
  const line = (text, cls) => lines.push({ text: text, cls: cls || "" });
  const won = v.match && v.match.over ? v.match : null;
  if (won) {
    line(fmt(L.match_won, { names: teamNames(s, env, won.winner_team), n: won.hands }), "match-won");
    line(L.match_new);
  }
  const specials = env.client.catalog.special_names || {};
  (v.result_steps || []).forEach((step) => {
    const values = Object.assign({}, step, step.seat != null ? { name: nameOf(s, env, step.seat) } : {},
                                 step.special ? { special: specials[step.special] || step.special } : {});
    line(fmt(L["step_" + step.kind] || step.kind, values), "step step-" + step.kind);
  });
  if (r.levels_after && partsOf(s).levels) {
    (teamsOf(s, env) || []).forEach((seats, team) => {
      line(fmt(L.levels_team, { names: teamNames(s, env, team), before: rankName(v.levels[team]),
                                after: rankName(r.levels_after[team]) }));
    });
  }
  if (settled && settled.capped) line(fmt(L.cap_applied, { cap: settled.cap }), "capped");
  // What each seat was paid once settled; until then what the rules' deltas come to.
  const points = settled ? settled.points : (r.deltas || []).map((d) => d * stake);
  const whys = v.result_seats || [];
  const info = me != null ? seatInfo(s, me) : null;
  return {
    winner: winner,
    lines: lines,
    rows: points.map((p, seat) => ({ seat: seat, name: nameOf(s, env, seat), points: p,
                                     text: (p > 0 ? "+" : "") + p, me: seat === me,
                                     why: whyText(L, whys[seat], stake, settled, seat) })),
    replay: v.hand_id != null ? env.client.replay_url.replace("{hand}", v.hand_id) : null,
    kitty: partsOf(s).kitty ? v.kitty || [] : null,
    // While a rematch is offered it is answered instead (the view model's `rematch`).
    canReady: !!(info && !info.ready) && !v.rematch,
  };
}

/* A seat's points in words: what the rules' figures multiply to, and where the cap changed
   what it pays (a loss cut to it) or gets (the capped losses shared out). */
function whyText(L, why, stake, settled, seat) {
  if (!why) return "";
  let text = fmt(L["why_" + why.kind] || "", Object.assign({ stake: stake }, why));
  const would = settled ? settled.would[seat] : null;
  if (settled && would !== settled.points[seat]) {
    text += " · " + fmt(would < 0 ? L.why_capped : L.why_shared, { would: would, paid: settled.points[seat] });
  }
  return text;
}

/* The platform acts when nobody does (RULES §6): the server sends the running timer's
   deadline, so a reload does not restart the count. The deal paces itself: nobody waits on
   it, so it shows no countdown. */
function timerModel(s) {
  const t = s.view && s.view.timer;
  return {
    deadline: t && t.deadline && t.kind !== "deal" ? Date.parse(t.deadline) : null,
    seats: t ? t.seats : [],
  };
}
