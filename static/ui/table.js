/* The live table: one socket (docs/protocol.md), one render from the latest view.
   The server is the only authority: this script never decides what is legal, it sends
   the action and explains a refusal from its code, in the page's language. */
"use strict";

(function () {
  var client = JSON.parse(document.getElementById("table-client").textContent);
  var L = client.catalog.labels;
  var POSITIONS = ["bottom", "right", "top", "left"]; // play goes counter-clockwise: 下家 on the right
  var RANK_NAMES = { 11: "J", 12: "Q", 13: "K", 14: "A" };
  var SUIT_ORDER = ["S", "H", "C", "D"];
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
    calls: document.getElementById("calls"),
    result: document.getElementById("result"),
  };

  var game = { version: null, seq: null, view: null, table: null, settled: null, hello: false };
  var selected = {};          // index in the hand -> true
  var handKey = "";           // the hand the selection belongs to
  var shownHand = [];         // the hand as drawn (the player's sort order)
  var focusIndex = 0;         // roving tab stop in the hand
  var deadline = null;        // ms timestamp of the pending timer (the server's), for the countdown
  var leaving = false;        // "Leave seat" pressed: go to the lobby once the table says so
  var resultDismissed = false;
  var socket = null;
  var reconnectMs = 500;
  var stopped = false;
  var lastAction = null;      // the last action sent, to resend it once it went stale
  var RESEND_WHEN_STALE = { declare: true, ready: true, take_back: true };

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return values && k in values ? values[k] : m; });
  }
  /* A label counting {n} cards: its `_one` text (English "1 card") when n is 1. */
  function fmtCount(key, values) {
    return fmt(values.n === 1 && L[key + "_one"] ? L[key + "_one"] : L[key], values);
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
  function cardsText(tokens) { return (tokens || []).map(Cards.label).join(" "); }
  function teamNames(team) { return nameOf(team) + " · " + nameOf(team + 2); }
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
    if (leaving && mySeat() != null && game.table && !game.table.seats[mySeat()].user) {
      location.href = client.lobby;
      return;
    }
    render();
    // Other scripts of the page (chat, trick history, turn cue) listen here instead of
    // opening sockets of their own: one event per message taken, after it was rendered.
    document.dispatchEvent(new CustomEvent("tractor:message", { detail: {
      msg: msg, view: game.view, table: game.table, seat: client.seat } }));
  }

  function onEvent(ev) {
    if (ev.type === "settled") game.settled = ev;
    else if (ev.type === "throw_failed") {
      showNotice(fmt(L.throw_failed, { name: nameOf(ev.seat), cards: ev.played.map(Cards.label).join(" ") }), "info");
    } else if (ev.type === "played" && ev.bomb) {
      // The server names a bomb: the page holds no rule of what one is.
      var bomb = ev.cards.map(Cards.label).join(" ");
      showNotice(fmt(L.bomb, { name: nameOf(ev.seat), cards: bomb }), "info");
    } else if (ev.type === "hand_started") { game.settled = null; clearNotice(); }
    else if (ev.type === "surrendered") showNotice(fmt(L.surrendered, { name: nameOf(ev.seat) }), "info");
    else if (ev.type === "match_won") game.matchWon = ev;
    else if (ev.type === "match_started") game.matchWon = null;
  }

  // --- explanations ---------------------------------------------------------------------------

  function showNotice(text, kind) {
    el.notice.textContent = text || "";
    el.notice.className = "notice " + (kind || "");
  }
  function clearNotice() { showNotice("", ""); }

  function explain(code, detail) {
    // The service's message carries the figure a text needs (balance_too_low: the points).
    var text = (client.catalog.errors[code] || client.catalog.error)
      .replace("{need}", ((detail || "").match(/\d+/) || [""])[0]);
    // An illegal follow: the server says what must be played, in English; an English page
    // adds it (suits drawn as symbols), a Chinese page keeps its own words.
    if (code === "illegal_follow" && detail && document.documentElement.lang.indexOf("en") === 0) {
      text += " " + detail.charAt(0).toUpperCase() + detail.slice(1)
        .replace(/\b([SHCD])\b/g, function (m, s) { return Cards.SUITS[s]; }) + ".";
    }
    showNotice(text, "error");
  }

  /* What the server says of a card in this hand: [order key, trump]. */
  function orderOf(token) {
    var order = game.view && game.view.card_order;
    return (order && order[token]) || [0, false];
  }
  function isTrump(token) { return orderOf(token)[1]; }

    // --- time -------------------------------------------------------------------------------------

  /* The platform acts when nobody does (RULES §6): the server sends the running timer's
     deadline, so a reload does not restart the count. */
  function resetDeadline() {
    var t = game.view && game.view.timer;
    // The deal paces itself: nobody waits on it, so it shows no countdown.
    deadline = t && t.deadline && t.kind !== "deal" ? Date.parse(t.deadline) : null;
  }

    function tick() {
    var left = deadline == null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    el.countdown.hidden = left == null;
    if (left != null) {
      el.countdown.textContent = fmt(L.seconds, { n: left });
      el.countdown.classList.toggle("urgent", left <= 5);
    }
    var t = game.view && game.view.timer;
    var waiting = t ? t.seats : [];
    app.querySelectorAll(".seat .timer").forEach(function (mark) {
      var seat = Number(mark.parentNode.parentNode.dataset.seat);
      mark.textContent = left != null && waiting.indexOf(seat) >= 0 ? fmt(L.seconds, { n: left }) : "";
    });
  }

  // --- rendering --------------------------------------------------------------------------------

  function render() {
    var v = game.view;
    var phase = v ? v.phase : "waiting";
    var calling = v && v.calls && v.calls.some(function (c) { return c.type === "declare"; });
    el.phase.textContent = (phase === "deal" && calling ? L.phase_deal_calls : L["phase_" + phase]) || phase;
    if (v && v.match) el.phase.textContent = fmt(L.match_of, { n: v.match.number, k: v.match.hands }) + " · " + el.phase.textContent;
    if (v && v.contract != null) el.phase.textContent += " · " + fmt(L.contract, { n: v.contract, m: v.multiplier });
    if (v && phase === "end" && v.timer && v.timer.kind === "ready" && v.timer.seats.indexOf(mySeat()) >= 0) {
      el.phase.textContent += " · " + L.ready_timer;
    }
    if (v && v.turn != null && (phase === "play" || phase === "bury" || phase === "bid" || phase === "trump")) {
      el.phase.textContent += " · " + (v.turn === mySeat() ? L.your_turn : fmt(L.turn_of, { name: nameOf(v.turn) }));
    }
    el.trump.textContent = v ? trumpText(v) : "–";
    el.level.textContent = v ? rankName(v.level) : "–";
    el.dealer.textContent = v && v.dealer != null ? nameOf(v.dealer) : "–";
    el.points.textContent = v ? v.points : 0;
    el.stake.textContent = game.table && game.table.base_stake != null ? game.table.base_stake : "–";
    for (var s = 0; s < 4; s++) renderSeat(s);
    renderCalls();
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
      if (last && last.cards) return cardsText(last.cards);
      if (last && last.count) return L.trump_hidden;
      return L.trump_unknown;
    }
    return L.no_trump;
  }

  /* Who declared what, in order (hidden declarations: who and how many cards, P11), or
     the bids of a game with bidding; a dealer playing alone against three. */
  function renderCalls() {
    var v = game.view;
    var box = el.calls;
    if (!box) return;
    box.innerHTML = "";
    if (!v || !v.declarations || !v.declarations.length) { box.hidden = true; return; }
    box.hidden = false;
    var bids = v.declarations[0].kind === "bid" || v.declarations[0].kind === "pass";
    if (bids) {
      var title = document.createElement("span");
      title.className = "calls-title";
      title.textContent = L.bid_history + ":";
      box.appendChild(title);
    }
    v.declarations.forEach(function (d) {
      var item = document.createElement("span");
      item.className = "call-item kind-" + d.kind;
      var name = d.seat != null ? nameOf(d.seat) : "?";
      if (d.kind === "pass") item.textContent = fmt(L.pass_of, { name: name });
      else if (d.kind === "bid") item.textContent = fmt(L.bid_of, { name: name, n: d.bid });
      else if (d.cards) item.textContent = fmt(L.declared_cards, { name: name, kind: L["kind_" + d.kind], cards: cardsText(d.cards) });
      else item.textContent = fmtCount("declared_count", {
        name: name, kind: L["kind_" + d.kind], n: d.count });
      box.appendChild(item);
    });
    if (!client.variant.partnerships && v.dealer != null) {
      var alone = document.createElement("span");
      alone.className = "call-item";
      alone.textContent = L.dealer_alone;
      box.appendChild(alone);
    }
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
    // Once a hand is over the seats show the levels it left them at.
    var levels = v && v.phase === "end" && v.result && v.result.levels_after ? v.result.levels_after : v && v.levels;
    if (levels && client.variant.plays_matches) chip(L.level_short + " " + rankName(levels[team]), "lv");
    if (v) chip(fmtCount("cards", { n: v.counts[seat] }), "count");
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
    if (info && (info.ready || info.bot) && info.user && (!v || v.phase === "end")) mark("✓ " + L.ready_mark, "ready");
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
    var hand = shownHand;
    return Object.keys(selected).map(Number).sort(function (a, b) { return a - b; })
      .map(function (i) { return hand[i]; });
  }

  /* The hand in the player's chosen order (client.prefs.sort): "trump" keeps the server's
     order (trumps first), "suit" groups by printed suit with the server's order inside. */
  function sortedHand() {
    var hand = ((game.view && game.view.hand) || []).slice();
    var bySuit = client.prefs && client.prefs.sort === "suit";
    function group(t) {
      if (!bySuit) return isTrump(t) ? 0 : 1;
      var suit = Cards.parse(t).suit;
      return suit ? 1 + SUIT_ORDER.indexOf(suit) : 0;
    }
    hand.sort(function (a, b) { return group(a) - group(b) || orderOf(a)[0] - orderOf(b)[0]; });
    return { cards: hand, group: group };
  }

  function renderHand() {
    if (!el.hand) return;
    var sorted = sortedHand();
    var hand = sorted.cards;
    var key = hand.join(",") + "|" + hand.map(function (t) { return isTrump(t) ? 1 : 0; }).join("");
    // Rebuild only when the hand changed: a card must not vanish under a finger mid-click.
    if (key === handKey && el.hand.children.length === hand.length) return;
    selected = {};
    handKey = key;
    shownHand = hand;
    focusIndex = Math.min(focusIndex, Math.max(hand.length - 1, 0));
    var hadFocus = el.hand.contains(document.activeElement);
    el.hand.innerHTML = "";
    hand.forEach(function (token, i) {
      var card = Cards.element(token, "button");
      card.type = "button";
      card.dataset.index = i;
      card.setAttribute("aria-pressed", selected[i] ? "true" : "false");
      card.tabIndex = i === focusIndex ? 0 : -1;
      if (isTrump(token)) card.classList.add("trump");
      // A gap between groups (trumps, then each suit) so the suits read apart.
      if (i > 0 && (sorted.group(hand[i - 1]) !== sorted.group(token) ||
          (!isTrump(token) && Cards.parse(hand[i - 1]).suit !== Cards.parse(token).suit))) {
        card.classList.add("gap");
      }
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
      box.appendChild(button(L.leave, function () {
        leaving = true;
        send({ type: "leave" });
        // If the answer is lost, the lobby still shows the truth: it reads the seats.
        setTimeout(function () { location.href = client.lobby; }, 3000);
      }));
      return;
    }
    // What the seat may call now, as the server lists it (declarations, bids, trump).
    (v.calls || []).forEach(function (call) {
      var action = {};
      Object.keys(call).forEach(function (k) { if (k !== "kind") action[k] = call[k]; });
      box.appendChild(button(callLabel(call), function () { send(action); }, "call kind-" + call.kind));
    });
    if (v.turn !== me) return;
    if (phase === "bury") {
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

  function callLabel(call) {
    if (call.kind === "pass") return L.pass;
    if (call.kind === "bid") return fmt(L.bid, { n: call.bid });
    if (call.kind === "name_trump") return fmt(L.name_trump, { suit: call.trump ? Cards.SUITS[call.trump] : L.no_trump });
    return fmt(L["call_" + call.kind] || L.declare, { cards: cardsText(call.cards) });
  }

    function playSelected() {
    var cards = selectedTokens();
    if (!cards.length) return;
    clearNotice();
    send({ type: "play", cards: cards });
  }

  function renderResult() {
    var v = game.view;
    var box = el.result;
    if (!v || v.phase !== "end" || !v.result || resultDismissed) { box.hidden = true; return; }
    box.hidden = false;
    var r = v.result;
    var stake = game.table && game.table.base_stake;
    var settled = game.settled && game.settled.hand_id === v.hand_id ? game.settled : null;
    var winner = document.getElementById("result-winner");
    if (r.escape != null) winner.textContent = fmt(L.escape, { seat: nameOf(r.escape) });
    else if (r.surrender) winner.textContent = fmt(L.surrendered, { name: nameOf(v.dealer) });
    else winner.textContent = r.winner === "dealer" ? L.winner_dealer : L.winner_defenders;
    var lines = document.getElementById("result-lines");
    lines.innerHTML = "";
    function line(text, cls) {
      var li = document.createElement("li");
      li.textContent = text;
      if (cls) li.className = cls;
      lines.appendChild(li);
    }
    var won = v.match && v.match.over ? v.match : null;
    if (won) {
      line(fmt(L.match_won, { names: teamNames(won.winner_team), n: won.hands }), "match-won");
      line(L.match_new);
    }
    if (r.contract != null) line(fmt(L.contract, { n: r.contract, m: r.multiplier }));
    (r.specials || []).forEach(function (sp) {
      line(fmt(L.special, { name: nameOf(sp.seat), special: sp.name, n: sp.passes }));
    });
    if (r.defender_points != null) line(fmt(L.defender_total, { n: r.defender_points }));
    if (r.kitty_multiplier) line(fmt(L.kitty_bonus, { points: r.kitty_points, m: r.kitty_multiplier }));
    if (r.last_multiplier) line(fmt(L.last_bonus, { points: r.last_trick_points, m: r.last_multiplier, bonus: r.last_bonus }));
    if (r.levels_after && client.variant.plays_matches) [0, 1].forEach(function (team) {
      line(fmt(L.levels_team, { names: teamNames(team), before: rankName(v.levels[team]),
        after: rankName(r.levels_after[team]) }));
    });
    if (stake) line(fmt(L.result_stake, { n: stake }));
    if (settled && settled.capped) {
      line(fmt(L.cap_applied, { cap: settled.cap }), "capped");
      settled.would.forEach(function (would, seat) {
        if (would !== settled.points[seat]) line(fmt(L.would_paid, { name: nameOf(seat), would: would, paid: settled.points[seat] }), "capped");
      });
    }
    var body = box.querySelector("#result-ledger tbody");
    body.innerHTML = "";
    var points = settled ? settled.points : (r.deltas || []).map(function (d) { return d * (stake || 1); });
    points.forEach(function (p, seat) {
      var tr = document.createElement("tr");
      tr.className = seat === mySeat() ? "me" : "";
      tr.innerHTML = "<td></td><td class='num'></td>";
      tr.children[0].textContent = nameOf(seat);
      tr.children[1].textContent = (p > 0 ? "+" : "") + p;
      tr.children[1].classList.add(p < 0 ? "neg" : "pos");
      body.appendChild(tr);
    });
    if (v.hand_id != null) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = client.replay_url.replace("{hand}", v.hand_id);
      a.textContent = L.replay;
      a.className = "replay-link";
      li.appendChild(a);
      lines.appendChild(li);
    }
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

  // The settings switch (turncue.js) changed client.prefs: draw the hand in its order.
  document.addEventListener("tractor:prefs", function () { handKey = ""; render(); });

  setInterval(tick, 250);
  render();
  connect();
})();
