/* The live table: one socket (docs/protocol.md), one render from the latest view.
   The server is the only authority: this script never decides what is legal, it sends
   the action and explains a refusal from its code, in the page's language. */
"use strict";

(function () {
  var client = JSON.parse(document.getElementById("table-client").textContent);
  var L = client.catalog.labels;
  var POSITIONS = ["bottom", "right", "top", "left"]; // play goes counter-clockwise: 下家 on the right
  var RANK_NAMES = { 11: "J", 12: "Q", 13: "K", 14: "A" };
  var PLAIN_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  // Ranks that are trump in every hand of a variant (RULES §3-5); the level rank is added.
  var PERMANENT = { classic: [], four_deck: ["2"], point_bid: ["2", "7"], guigang: ["10", "2"] };
  var RECONNECT_MAX_MS = 5000;

  var app = document.getElementById("table-app");
  var el = {
    banner: document.getElementById("conn-banner"),
    phase: document.getElementById("phase-text"),
    countdown: document.getElementById("countdown"),
    trump: document.getElementById("fact-trump"),
    level: document.getElementById("fact-level"),
    dealer: document.getElementById("fact-dealer"),
    points: document.getElementById("fact-points"),
    stake: document.getElementById("fact-stake"),
    lastTrick: document.getElementById("last-trick"),
    pointCards: document.getElementById("point-cards"),
    pointsSum: document.getElementById("points-sum"),
    kittyPanel: document.getElementById("kitty-panel"),
    kitty: document.getElementById("kitty"),
    notice: document.getElementById("notice"),
    controls: document.getElementById("controls"),
    hand: document.getElementById("hand"),
    result: document.getElementById("result"),
  };

  var game = { version: null, seq: null, view: null, table: null, settled: null, hello: false };
  var selected = {};          // index in the hand -> true
  var handKey = "";           // the hand the selection belongs to
  var focusIndex = 0;         // roving tab stop in the hand
  var deadline = null;        // ms timestamp of the pending timeout, for the countdown
  var resultDismissed = false;
  var socket = null;
  var reconnectMs = 500;
  var stopped = false;
  var lastAction = null;      // the last action sent, to resend it once it went stale
  var RESEND_WHEN_STALE = { declare: true, ready: true, take_back: true };

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return values && k in values ? values[k] : m; });
  }
  function rankName(level) { return level == null ? "–" : (RANK_NAMES[level] || String(level)); }
  function mySeat() { return client.seat; }
  function baseSeat() { return client.seat == null ? 0 : client.seat; }
  function posOf(seat) { return POSITIONS[(seat - baseSeat() + 4) % 4]; }
  function seatInfo(seat) { return game.table ? game.table.seats[seat] : null; }
  function nameOf(seat) {
    var s = seatInfo(seat);
    var name = s && s.name ? s.name : L.empty;
    return seat === mySeat() ? name + " (" + L.you + ")" : name;
  }
  function cardRow(tokens, cls) {
    var row = document.createElement("div");
    row.className = cls || "cards-row";
    (tokens || []).forEach(function (t) { row.appendChild(Cards.element(t)); });
    return row;
  }
  function button(text, onClick, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  // --- the socket ---------------------------------------------------------------------------

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + client.socket);
    socket.onopen = function () {
      reconnectMs = 500;
      el.banner.hidden = true;
      // hello with the last seq: the server answers with the missed events or a snapshot.
      var hello = { type: "hello" };
      if (game.seq != null) hello.seq = game.seq;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = function (e) { receive(JSON.parse(e.data)); };
    socket.onclose = function (e) {
      if (stopped) return;
      if (e.code === 4401) { location.href = "/accounts/login/?next=" + encodeURIComponent(location.pathname); return; }
      var notices = { 4400: L.bad_request, 4403: client.catalog.errors.not_seated,
        4404: client.catalog.errors.no_such_table, 4409: L.replaced, 4429: L.too_many_sockets };
      if (notices[e.code]) {
        stopped = true;
        showNotice(notices[e.code], "error");
        return;
      }
      el.banner.hidden = false;
      setTimeout(connect, reconnectMs);
      reconnectMs = Math.min(reconnectMs * 2, RECONNECT_MAX_MS);
    };
  }

  function send(action, retry) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { el.banner.hidden = false; return; }
    lastAction = { action: action, retry: retry || 0 };
    socket.send(JSON.stringify({ type: "action", action: action, version: game.version }));
  }

  function receive(msg) {
    if (msg.type === "update") {
      if (game.seq != null && msg.seq <= game.seq) return;          // already seen
      if (game.seq != null && msg.prev_seq !== game.seq) {          // a gap: catch up
        socket.send(JSON.stringify({ type: "hello", seq: game.seq }));
        return;
      }
      absorb(msg);
    } else if (msg.type === "snapshot" || msg.type === "catchup") {
      absorb(msg);
    } else if (msg.type === "error") {
      if (msg.snapshot) absorb(msg.snapshot);
      // The deal moves the version several times a second, so a declaration (or Ready) is
      // often one step late; it means the same on the new version, so send it again.
      // A play is never resent: the table it was chosen for has changed.
      var last = lastAction;
      if (msg.code === "stale_version" && last && RESEND_WHEN_STALE[last.action.type] && last.retry < 5) {
        send(last.action, last.retry + 1);
        return;
      }
      var taken = document.dispatchEvent(new CustomEvent("tractor:error", { cancelable: true, detail: msg }));
      // A script that handled the refusal itself (chat) cancels the event.
      if (taken) explain(msg.code, msg.message);
    }
  }

  function absorb(msg) {
    var changed = msg.version !== game.version;
    var prevPhase = game.view ? game.view.phase : null;
    game.version = msg.version;
    game.seq = msg.seq;
    game.view = msg.view;
    game.table = msg.table;
    (msg.events || []).forEach(onEvent);
    var phase = game.view ? game.view.phase : null;
    if (phase !== prevPhase) { resultDismissed = false; if (phase !== "end") game.settled = null; }
    if (changed) resetDeadline();
    render();
    // Other scripts of the page (chat, trick history, turn cue) listen here instead of
    // opening sockets of their own: one event per message taken, after it was rendered.
    document.dispatchEvent(new CustomEvent("tractor:message", { detail: {
      msg: msg, view: game.view, table: game.table, seat: client.seat } }));
  }

  function onEvent(ev) {
    if (ev.type === "settled") game.settled = ev.points;
    else if (ev.type === "throw_failed") {
      showNotice(fmt(L.throw_failed, { name: nameOf(ev.seat), cards: ev.played.map(Cards.label).join(" ") }), "info");
    } else if (ev.type === "hand_started") { game.settled = null; clearNotice(); }
  }

  // --- explanations ---------------------------------------------------------------------------

  function showNotice(text, kind) {
    el.notice.textContent = text || "";
    el.notice.className = "notice " + (kind || "");
  }
  function clearNotice() { showNotice("", ""); }

  function explain(code, detail) {
    if (code === "illegal_follow") showNotice(followHint(), "error");
    // The service's message carries the figure a text needs (balance_too_low: the points).
    else showNotice((client.catalog.errors[code] || client.catalog.error)
      .replace("{need}", ((detail || "").match(/\d+/) || [""])[0]), "error");
  }

  function isTrump(token, v) {
    var c = Cards.parse(token);
    if (c.joker) return true;
    if (v.trump && c.suit === v.trump) return true;
    if ((PERMANENT[v.variant] || []).indexOf(c.rank) >= 0) return true;
    return v.variant !== "point_bid" && v.variant !== "guigang" && c.rank === rankName(v.level);
  }

  /* "You must follow with a pair of hearts": the lead's class and shape in words. */
  function followHint() {
    var v = game.view;
    var lead = v && v.trick && v.trick.plays.length ? v.trick.plays[0] : null;
    if (!lead) return client.catalog.errors.illegal_follow;
    var trump = isTrump(lead[0], v);
    var suit = trump ? L.suit_T : L["suit_" + Cards.parse(lead[0]).suit];
    var counts = {};
    lead.forEach(function (t) { counts[t] = (counts[t] || 0) + 1; });
    var pairRanks = Object.keys(counts).filter(function (t) { return counts[t] >= 2; });
    var n = selectedTokens().length;
    var prefix = n !== lead.length ? fmt(L.follow_count, { n: lead.length }) + " " : "";
    if (!pairRanks.length) return prefix + fmt(L.follow_single, { suit: suit });
    if (pairRanks.length === 1) return prefix + fmt(L.follow_pair, { suit: suit });
    if (!trump && adjacentPairs(pairRanks, v)) return prefix + fmt(L.follow_tractor, { suit: suit });
    return prefix + fmt(L.follow_pairs, { suit: suit, n: pairRanks.length });
  }

  /* Two or more plain pairs whose ranks touch in the suit's chain (the level rank left out). */
  function adjacentPairs(tokens, v) {
    var chain = PLAIN_ORDER.filter(function (r) { return r !== rankName(v.level); });
    var idx = tokens.map(function (t) { return chain.indexOf(Cards.parse(t).rank); }).sort(function (a, b) { return a - b; });
    for (var i = 1; i < idx.length; i++) if (idx[i] !== idx[i - 1] + 1) return false;
    return true;
  }

  // --- time -------------------------------------------------------------------------------------

  /* The platform acts when nobody does (RULES §6): show how long the current action has.
     The server names each phase's timer after the phase and sends the table's lengths. */
  function resetDeadline() {
    var v = game.view;
    deadline = null;
    if (!v) return;
    var t = client.timers;
    if (!(v.phase in t)) return;
    var turn = v.turn != null ? seatInfo(v.turn) : null;
    var seconds = turn && turn.auto ? t.auto : t[v.phase];
    if (seconds) deadline = Date.now() + seconds * 1000;
  }

  function tick() {
    var left = deadline == null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    el.countdown.hidden = left == null;
    if (left != null) {
      el.countdown.textContent = fmt(L.seconds, { n: left });
      el.countdown.classList.toggle("urgent", left <= 5);
    }
    var mark = app.querySelector(".seat.turn .timer");
    if (mark) mark.textContent = left == null ? "" : fmt(L.seconds, { n: left });
  }

  // --- rendering --------------------------------------------------------------------------------

  function render() {
    var v = game.view;
    var phase = v ? v.phase : "waiting";
    el.phase.textContent = L["phase_" + phase] || phase;
    if (v && v.turn != null && (phase === "play" || phase === "bury" || phase === "bid" || phase === "trump")) {
      el.phase.textContent += " · " + (v.turn === mySeat() ? L.your_turn : fmt(L.turn_of, { name: nameOf(v.turn) }));
    }
    el.trump.textContent = v ? trumpText(v) : "–";
    el.level.textContent = v ? rankName(v.level) : "–";
    el.dealer.textContent = v && v.dealer != null ? nameOf(v.dealer) : "–";
    el.points.textContent = v ? v.points : 0;
    el.stake.textContent = game.table && game.table.base_stake != null ? game.table.base_stake : "–";
    for (var s = 0; s < 4; s++) renderSeat(s);
    renderTrick();
    renderSide();
    renderHand();
    renderControls();
    renderResult();
    tick();
  }

  function trumpText(v) {
    if (v.trump) return Cards.SUITS[v.trump];
    if (v.phase === "deal" || v.phase === "declare" || v.phase === "bid" || v.phase === "trump") {
      var last = v.declarations && v.declarations[v.declarations.length - 1];
      return last && last.cards ? last.cards.map(Cards.label).join(" ") : L.trump_unknown;
    }
    return L.no_trump;
  }

  function renderSeat(seat) {
    var box = app.querySelector('.seat[data-pos="' + posOf(seat) + '"]');
    var info = seatInfo(seat);
    var v = game.view;
    var team = seat % 2;
    var teams = client.variant.partnerships;  // else one plays against the other three
    box.className = "seat seat-" + posOf(seat) + (teams ? " team-" + (team ? "b" : "a") : "");
    box.dataset.seat = seat;
    if (v && v.turn === seat && v.phase !== "end") box.classList.add("turn");
    box.innerHTML = "";
    var name = document.createElement("div");
    name.className = "name";
    name.textContent = nameOf(seat);
    box.appendChild(name);
    var meta = document.createElement("div");
    meta.className = "meta";
    // Compact enough for the side seats of a phone: team letter, level, cards left.
    if (teams) {
      var teamChip = document.createElement("span");
      teamChip.className = "team";
      teamChip.textContent = team ? "B" : "A";
      teamChip.title = team ? L.team_b : L.team_a;
      meta.appendChild(teamChip);
    }
    function chip(text, cls) {
      var c = document.createElement("span");
      c.className = cls;
      c.textContent = text;
      meta.appendChild(c);
    }
    if (v && v.levels && client.variant.plays_matches) chip(L.level_short + " " + rankName(v.levels[team]), "lv");
    if (v) chip(fmt(L.cards, { n: v.counts[seat] }), "count");
    box.appendChild(meta);
    var marks = document.createElement("div");
    marks.className = "marks";
    function mark(text, cls) {
      var m = document.createElement("span");
      m.className = "mark " + cls;
      m.textContent = text;
      marks.appendChild(m);
    }
    if (v && v.dealer === seat) mark(L.dealer_mark, "dealer");
    if (info && info.bot) mark(L.bot + (info.bot_level ? " · " + L["bot_" + info.bot_level] : ""),
                               "bot");
    if (info && info.auto) mark(L.auto_mark, "auto");
    if (info && info.user && !info.connected && !info.bot) mark(L.offline, "offline");
    if (info && info.ready && (!v || v.phase === "end")) mark("✓ " + L.ready_mark, "ready");
    var timer = document.createElement("span");
    timer.className = "timer";
    marks.appendChild(timer);
    box.appendChild(marks);
    if (info && !info.user && (!v || v.phase === "end")) box.appendChild(emptySeatAction(seat));
  }

  /* An empty seat between hands: a seated player may fill it with a bot of the level picked
     next to the button (docs/bots.md), a spectator may sit. */
  function emptySeatAction(seat) {
    var formId = client.seat != null ? "bot-form" : "sit-form";
    var form = document.getElementById(formId);
    if (!form) return document.createTextNode("");
    var go = button(client.seat != null ? L.add_bot : L.sit, function () {
      form.elements.seat.value = seat;
      if (level) form.elements.level.value = level.value;
      form.submit();
    }, "small");
    if (client.seat == null || !form.elements.level) return go;
    var level = document.createElement("select");
    level.className = "bot-level small";
    level.setAttribute("aria-label", L.bot_level);
    ["easy", "normal", "hard"].forEach(function (name) {
      var option = document.createElement("option");
      option.value = name;
      option.textContent = L["bot_" + name];
      option.selected = name === "normal";
      level.appendChild(option);
    });
    var both = document.createElement("span");
    both.className = "bot-add";
    both.appendChild(level);
    both.appendChild(go);
    return both;
  }

  function renderTrick() {
    var v = game.view;
    var trick = v && v.trick;
    var shown = trick, past = false;
    if ((!trick || !trick.plays.length) && v && v.last_trick && v.phase === "play") { shown = v.last_trick; past = true; }
    POSITIONS.forEach(function (p) { app.querySelector('.play[data-pos="' + p + '"]').innerHTML = ""; });
    document.getElementById("trick").classList.toggle("past", past);
    if (!shown) return;
    shown.plays.forEach(function (cards, i) {
      var seat = (shown.leader + i) % 4;
      var slot = app.querySelector('.play[data-pos="' + posOf(seat) + '"]');
      slot.appendChild(cardRow(cards, "cards-row" + (past && shown.winner === seat ? " won" : "")));
    });
  }

  function renderSide() {
    var v = game.view;
    el.lastTrick.innerHTML = "";
    if (v && v.last_trick) {
      v.last_trick.plays.forEach(function (cards, i) {
        var seat = (v.last_trick.leader + i) % 4;
        var line = document.createElement("div");
        line.className = "line" + (v.last_trick.winner === seat ? " won" : "");
        var who = document.createElement("span");
        who.className = "who";
        who.textContent = nameOf(seat);
        line.appendChild(who);
        line.appendChild(cardRow(cards, "cards-row small"));
        el.lastTrick.appendChild(line);
      });
    }
    el.pointCards.innerHTML = "";
    if (v) el.pointCards.appendChild(cardRow(v.point_cards, "cards-row small"));
    el.pointsSum.textContent = v ? "(" + v.points + ")" : "";
    // The dealer sees the kitty while burying; everyone sees it at the end (and a shown kitty).
    var kitty = v && (v.kitty || v.shown_kitty || v.turned_kitty);
    el.kittyPanel.hidden = !kitty;
    el.kitty.innerHTML = "";
    if (kitty) el.kitty.appendChild(cardRow(kitty, "cards-row small"));
  }

  function selectedTokens() {
    var hand = (game.view && game.view.hand) || [];
    return Object.keys(selected).map(Number).sort(function (a, b) { return a - b; })
      .map(function (i) { return hand[i]; });
  }

  function renderHand() {
    if (!el.hand) return;
    var hand = (game.view && game.view.hand) || [];
    var key = hand.join(",") + "|" + (game.view ? game.view.trump : "");
    // Rebuild only when the hand changed: a card must not vanish under a finger mid-click.
    if (key === handKey && el.hand.children.length === hand.length) return;
    selected = {};
    handKey = key;
    focusIndex = Math.min(focusIndex, Math.max(hand.length - 1, 0));
    var hadFocus = el.hand.contains(document.activeElement);
    el.hand.innerHTML = "";
    var v = game.view;
    hand.forEach(function (token, i) {
      var card = Cards.element(token, "button");
      card.type = "button";
      card.dataset.index = i;
      card.setAttribute("aria-pressed", selected[i] ? "true" : "false");
      card.tabIndex = i === focusIndex ? 0 : -1;
      if (v && isTrump(token, v)) card.classList.add("trump");
      if (i > 0 && v && isTrump(hand[i - 1], v) !== isTrump(token, v)) card.classList.add("gap");
      else if (i > 0 && !isTrump(token, v || {}) && Cards.parse(hand[i - 1]).suit !== Cards.parse(token).suit) card.classList.add("gap");
      el.hand.appendChild(card);
    });
    if (hadFocus && el.hand.children[focusIndex]) el.hand.children[focusIndex].focus();
  }

  function toggle(i) {
    if (selected[i]) delete selected[i]; else selected[i] = true;
    var card = el.hand.children[i];
    if (card) card.setAttribute("aria-pressed", selected[i] ? "true" : "false");
    renderControls();
  }

  function renderControls() {
    var box = el.controls;
    box.innerHTML = "";
    var v = game.view;
    var me = mySeat();
    if (me == null) return;
    var info = seatInfo(me);
    var phase = v ? v.phase : "waiting";
    var n = selectedTokens().length;
    if (info && info.auto) box.appendChild(button(L.take_back, function () { send({ type: "take_back" }); }, "warn"));
    if (phase === "waiting" || phase === "end") {
      if (info && !info.ready) box.appendChild(button(phase === "end" ? L.next_hand : L.ready, function () { send({ type: "ready" }); }, "primary"));
      box.appendChild(button(L.leave, function () { send({ type: "leave" }); location.href = client.lobby; }));
      return;
    }
    if (phase === "deal" || phase === "declare") declareOptions(v).forEach(function (opt) {
      box.appendChild(button(L.declare + " " + opt.map(Cards.label).join(" "), function () {
        send({ type: "declare", cards: opt });
      }, "declare"));
    });
    if (v.turn !== me) return;
    if (phase === "bid") {
      var low = v.bidding && v.bidding.bid != null ? v.bidding.bid - 5 : 120;
      for (var b = low; b >= Math.max(0, low - 20); b -= 5) {
        (function (amount) { box.appendChild(button(fmt(L.bid, { n: amount }), function () { send({ type: "bid", bid: amount }); })); })(b);
      }
      box.appendChild(button(L.pass, function () { send({ type: "bid", bid: null }); }));
    } else if (phase === "trump") {
      ["S", "H", "C", "D", null].forEach(function (t) {
        box.appendChild(button(fmt(L.name_trump, { suit: t ? Cards.SUITS[t] : L.no_trump }), function () { send({ type: "name_trump", trump: t }); }));
      });
    } else if (phase === "bury") {
      var need = (v.kitty || []).length;
      var bury = button(L.bury + " (" + n + "/" + need + ")", function () {
        if (selectedTokens().length !== need) { showNotice(fmt(L.bury_count, { n: need }), "error"); return; }
        send({ type: "bury", cards: selectedTokens() });
      }, "primary");
      bury.id = "act-bury";
      box.appendChild(bury);
      if (v.can_surrender) box.appendChild(button(L.surrender, function () { send({ type: "surrender" }); }, "warn"));
    } else if (phase === "play") {
      var lead = v.trick && v.trick.plays.length ? v.trick.plays[0].length : null;
      var play = button(L.play + (lead ? " (" + n + "/" + lead + ")" : n ? " (" + n + ")" : ""), playSelected, "primary");
      play.id = "act-play";
      play.disabled = n === 0;
      box.appendChild(play);
    }
  }

  function playSelected() {
    var cards = selectedTokens();
    if (!cards.length) return;
    clearNotice();
    send({ type: "play", cards: cards });
  }

  /* Classic declarations (RULES §2.2) that would stand now: a level card, a level pair, a joker
     pair, each only if strictly stronger than the standing one. Other variants decide on the
     server (hidden declarations), so they get the level-card groups they could show. */
  function declareOptions(v) {
    if (!v.hand || v.variant === "point_bid") return [];
    var levelRank = v.variant === "guigang" ? "10" : rankName(v.level);
    var counts = {};
    v.hand.forEach(function (t) { counts[t] = (counts[t] || 0) + 1; });
    var standing = 0;
    (v.declarations || []).forEach(function (d) { standing = Math.max(standing, strength(d.cards || [], d.count)); });
    var out = [];
    ["S", "H", "C", "D"].forEach(function (s) {
      var k = counts[s + levelRank] || 0;
      for (var size = 1; size <= Math.min(k, v.variant === "classic" ? 2 : 4); size++) {
        var cards = Array(size).fill(s + levelRank);
        if (strength(cards) > standing) out.push(cards);
      }
    });
    ["LJ", "BJ"].forEach(function (j) {
      if (v.variant === "classic" && counts[j] >= 2 && strength([j, j]) > standing) out.push([j, j]);
    });
    return out;

    function strength(cards, count) {
      if (v.variant !== "classic") return cards.length || count || 0;
      if (cards[0] === "BJ" && cards.length === 2) return 4;
      if (cards[0] === "LJ" && cards.length === 2) return 3;
      return cards.length;
    }
  }

  function renderResult() {
    var v = game.view;
    var box = el.result;
    if (!v || v.phase !== "end" || !v.result || resultDismissed) { box.hidden = true; return; }
    box.hidden = false;
    var r = v.result;
    var stake = game.table && game.table.base_stake;
    var winner = document.getElementById("result-winner");
    if (r.escape != null) winner.textContent = fmt(L.escape, { seat: nameOf(r.escape) });
    else winner.textContent = r.winner === "dealer" ? L.winner_dealer : L.winner_defenders;
    var lines = document.getElementById("result-lines");
    lines.innerHTML = "";
    function line(text) { var li = document.createElement("li"); li.textContent = text; lines.appendChild(li); }
    if (r.defender_points != null) line(fmt(L.defender_total, { n: r.defender_points }));
    if (r.kitty_multiplier) line(fmt(L.kitty_bonus, { points: r.kitty_points, m: r.kitty_multiplier }));
    if (r.levels_after) line(fmt(L.levels_move, {
      before: v.levels.map(rankName).join(" / "), after: r.levels_after.map(rankName).join(" / ") }));
    if (stake) line(fmt(L.stake, { n: stake }));
    var body = box.querySelector("#result-ledger tbody");
    body.innerHTML = "";
    var points = game.settled || (r.deltas || []).map(function (d) { return d * (stake || 1); });
    points.forEach(function (p, seat) {
      var tr = document.createElement("tr");
      tr.className = seat === mySeat() ? "me" : "";
      tr.innerHTML = "<td></td><td class='num'></td>";
      tr.children[0].textContent = nameOf(seat);
      tr.children[1].textContent = (p > 0 ? "+" : "") + p;
      tr.children[1].classList.add(p < 0 ? "neg" : "pos");
      body.appendChild(tr);
    });
    var kitty = document.getElementById("result-kitty");
    kitty.innerHTML = "";
    kitty.appendChild(cardRow(v.kitty || [], "cards-row small"));
    var controls = document.getElementById("result-controls");
    controls.innerHTML = "";
    var info = mySeat() != null ? seatInfo(mySeat()) : null;
    if (info && !info.ready) controls.appendChild(button(L.next_hand, function () { send({ type: "ready" }); }, "primary"));
    controls.appendChild(button("✕", function () { resultDismissed = true; renderResult(); }, "close"));
  }

  // --- input ------------------------------------------------------------------------------------

  if (el.hand) {
    el.hand.addEventListener("click", function (e) {
      var card = e.target.closest(".card");
      if (!card) return;
      focusIndex = Number(card.dataset.index);
      toggle(focusIndex);
    });
    // Roving focus: arrows move along the hand, Space/Enter on a card toggles it (a button),
    // and Enter with Ctrl/Cmd or "p" plays the selection.
    el.hand.addEventListener("keydown", function (e) {
      var cards = el.hand.children;
      if (!cards.length) return;
      var move = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (move) {
        e.preventDefault();
        cards[focusIndex].tabIndex = -1;
        focusIndex = (focusIndex + move + cards.length) % cards.length;
        cards[focusIndex].tabIndex = 0;
        cards[focusIndex].focus();
      } else if (e.key === "p" || (e.key === "Enter" && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        var act = document.getElementById("act-play") || document.getElementById("act-bury");
        if (act) act.click();
      }
    });
  }

  // The one way other scripts of the page send on the table's socket (e.g. chat).
  window.TractorTable = {
    client: client,
    sendMessage: function (message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) { el.banner.hidden = false; return false; }
      socket.send(JSON.stringify(message));
      return true;
    },
    view: function () { return game.view; },
  };

  setInterval(tick, 250);
  render();
  connect();
})();
