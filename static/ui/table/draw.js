/* The table drawn from the view model (state.js): the header's facts, the four seats, the
   trick, the side panels, the hand, the buttons and the result. The only state kept here is
   the page's own: which cards of the drawn hand are selected and where the focus is. Cards
   are drawn by cards.js (window.Cards), the hand's fan placed by fan.js, the trick's motion
   by motion.js (decoration only: nothing waits for it). */

import { fanLayout } from "./fan.js";
import { trickMotion } from "./motion.js";
import { POSITIONS, controlLabel, fmt } from "./state.js";
import { indexesOf } from "./advice.js";

const Cards = window.Cards;

function button(text, onClick, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}
function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}
function cardRow(tokens, cls) {
  const row = document.createElement("div");
  row.className = cls || "cards-row";
  (tokens || []).forEach((t) => row.appendChild(Cards.element(t)));
  return row;
}

/* The drawing of the page under `app`. `on`: {control(control), dismiss()}: a button under
   the hand or on the result was pressed. */
export function tableDrawing(app, env, on) {
  const L = env.client.catalog.labels;
  const $ = (id) => document.getElementById(id);
  const el = {
    phase: $("phase-text"), countdown: $("countdown"), trump: $("fact-trump"), levels: $("fact-levels"),
    levelsBox: $("fact-levels-box"), contract: $("fact-contract"), contractBox: $("fact-contract-box"),
    handNote: $("hand-note"), dealer: $("fact-dealer"), points: $("fact-points"), stake: $("fact-stake"), lastTrick: $("last-trick"),
    pointCards: $("point-cards"), pointsSum: $("points-sum"), kittyPanel: $("kitty-panel"), kitty: $("kitty"),
    notice: $("notice"), controls: $("controls"), hand: $("hand"), calls: $("calls"), result: $("result"),
    trick: $("trick"), invitePanel: $("invite-panel"), inviteLink: $("invite-link"),
  };
  let vm = null;
  let selected = {};          // index in the drawn hand -> true
  let handKey = "";           // the hand the selection belongs to
  let shownHand = [];         // the hand as drawn (the player's sort order)
  let focusIndex = 0;         // roving tab stop in the hand
  let handWidth = 0;          // the width the fan was laid out for
  const motion = trickMotion(app);
  if (el.hand && window.ResizeObserver) {
    new ResizeObserver(() => { if (el.hand.clientWidth !== handWidth) layoutHand(); }).observe(el.hand);
  } else if (el.hand) {
    window.addEventListener("resize", () => layoutHand());
  }

  function draw(model) {
    vm = model;
    el.phase.textContent = vm.phaseText;
    el.trump.textContent = vm.facts.trump;
    drawLevels();
    el.dealer.textContent = vm.facts.dealer;
    el.points.textContent = vm.facts.points;
    el.stake.textContent = vm.facts.stake;
    vm.seats.forEach(drawSeat);
    drawCalls();
    drawTrick();
    drawSide();
    drawHand();
    drawControls();
    drawResult();
    drawInvite();
    notice(vm.notice.text, vm.notice.kind);
    tick();
  }

  /* A private table's invitation link, for the seats (the panel is only in their page). */
  function drawInvite() {
    if (!el.invitePanel) return;
    el.invitePanel.hidden = !vm.invite;
    const link = vm.invite ? location.origin + vm.invite : "";
    if (el.inviteLink.value !== link) el.inviteLink.value = link;
  }

  /* The header's fixed place: both teams' levels (the one played marked), or the contract. */
  function drawLevels() {
    const levels = vm.facts.levels;
    el.levelsBox.hidden = !levels;
    el.levels.innerHTML = "";
    (levels || []).forEach((team) => {
      const chip = span("team-level team-" + team.team + (team.playing ? " playing" : ""), team.text);
      chip.title = team.title;
      chip.setAttribute("aria-label", team.title);
      el.levels.appendChild(chip);
    });
    el.contractBox.hidden = vm.facts.contract == null;
    el.contract.textContent = vm.facts.contract == null ? "" : vm.facts.contract;
  }

  function notice(text, kind) {
    // Only a new text: the notice is an assertive live region, read out on every change.
    if (el.notice.textContent !== (text || "")) el.notice.textContent = text || "";
    el.notice.className = "notice " + (kind || "");
  }

  function tick() {
    if (!vm) return;
    const deadline = vm.timer.deadline;
    const left = deadline == null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    el.countdown.hidden = left == null;
    if (left != null) {
      el.countdown.textContent = fmt(L.seconds, { n: left });
      el.countdown.classList.toggle("urgent", left <= 5);
    }
    app.querySelectorAll(".seat .timer").forEach((mark) => {
      const seat = Number(mark.parentNode.parentNode.dataset.seat);
      mark.textContent = left != null && vm.timer.seats.indexOf(seat) >= 0 ? fmt(L.seconds, { n: left }) : "";
    });
  }

  function drawSeat(seat) {
    const box = app.querySelector('.seat[data-pos="' + seat.pos + '"]');
    box.className = "seat seat-" + seat.pos + (seat.team ? " team-" + seat.team : "");
    box.dataset.seat = seat.seat;
    if (seat.turn) box.classList.add("turn");
    box.innerHTML = "";
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = seat.name;
    box.appendChild(name);
    // Compact enough for the side seats of a phone: team letter, level, cards left.
    const meta = document.createElement("div");
    meta.className = "meta";
    seat.chips.forEach((chip) => {
      const c = span(chip.cls, chip.text);
      if (chip.title) c.title = chip.title;
      meta.appendChild(c);
    });
    box.appendChild(meta);
    const marks = document.createElement("div");
    marks.className = "marks";
    seat.marks.forEach((m) => marks.appendChild(span("mark " + m.cls, m.text)));
    marks.appendChild(span("timer", ""));
    box.appendChild(marks);
    if (seat.empty) box.appendChild(emptySeatAction(seat.seat));
  }

  /* An empty seat between hands: a seated player may fill it with a bot of the level picked
     next to the button (docs/bots.md), a spectator may sit. The level picked is kept per
     seat: a message that redraws the seats (the snapshot right after the page loads) must
     not put it back to Normal under the player's hand. */
  const pickedLevel = {};
  function emptySeatAction(seat) {
    const seated = env.client.seat != null;
    const form = $(seated ? "bot-form" : "sit-form");
    if (!form) return document.createTextNode("");
    let level = null;
    const go = button(seated ? L.add_bot : L.sit, () => {
      form.elements.seat.value = seat;
      if (level) form.elements.level.value = level.value;
      form.submit();
    }, "small");
    if (!seated || !form.elements.level) return go;
    level = document.createElement("select");
    level.className = "bot-level small";
    level.setAttribute("aria-label", L.bot_level);
    ["easy", "normal", "hard"].forEach((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = L["bot_" + name];
      option.selected = name === (pickedLevel[seat] || "normal");
      level.appendChild(option);
    });
    level.addEventListener("change", () => { pickedLevel[seat] = level.value; });
    const both = document.createElement("span");
    both.className = "bot-add";
    both.appendChild(level);
    both.appendChild(go);
    return both;
  }

  function drawCalls() {
    const box = el.calls;
    if (!box) return;
    box.innerHTML = "";
    box.hidden = !vm.calls;
    if (!vm.calls) return;
    if (vm.calls.title) box.appendChild(span("calls-title", vm.calls.title));
    vm.calls.items.forEach((item) => box.appendChild(span(item.cls, item.text)));
  }

  /* Each play in front of its seat. A play new on the felt comes from its seat, and a trick
     that leaves it slides to its winner (motion.js), both after the drawing is done. */
  function drawTrick() {
    const before = motion.before(vm);
    POSITIONS.forEach((p) => { app.querySelector('.play[data-pos="' + p + '"]').innerHTML = ""; });
    el.trick.classList.toggle("past", vm.trick.past);
    vm.trick.plays.forEach((play) => {
      const place = app.querySelector('.play[data-pos="' + play.pos + '"]');
      // Each play names its player: the felt's seats are not always beside their cards.
      place.appendChild(span("who", play.name));
      place.appendChild(cardRow(play.cards, "cards-row" + (play.won ? " won" : "")));
    });
    motion.after(vm, before);
  }

  function drawSide() {
    el.lastTrick.innerHTML = "";
    vm.lastTrick.forEach((play) => {
      const line = document.createElement("div");
      line.className = "line" + (play.won ? " won" : "");
      line.appendChild(span("who", play.name));
      line.appendChild(cardRow(play.cards, "cards-row small"));
      el.lastTrick.appendChild(line);
    });
    el.pointCards.innerHTML = "";
    el.pointCards.appendChild(cardRow(vm.pointCards, "cards-row small"));
    el.pointsSum.textContent = vm.pointsSum;
    el.kittyPanel.hidden = !vm.kitty;
    el.kitty.innerHTML = "";
    if (vm.kitty) el.kitty.appendChild(cardRow(vm.kitty, "cards-row small"));
  }

  function drawHand() {
    if (!el.hand) return;
    const hand = vm.hand;
    el.handNote.hidden = !vm.handNote;
    el.handNote.textContent = vm.handNote;
    // Rebuild only when the hand changed: a card must not vanish under a finger mid-click.
    if (hand.key === handKey && el.hand.children.length === hand.cards.length) {
      markUnplayable(hand);
      return;
    }
    selected = {};
    handKey = hand.key;
    shownHand = hand.cards.map((c) => c.token);
    focusIndex = Math.min(focusIndex, Math.max(shownHand.length - 1, 0));
    const hadFocus = el.hand.contains(document.activeElement);
    el.hand.innerHTML = "";
    hand.cards.forEach((c, i) => {
      const card = Cards.element(c.token, "button");
      card.type = "button";
      card.dataset.index = i;
      card.setAttribute("aria-pressed", "false");
      card.tabIndex = i === focusIndex ? 0 : -1;
      // The view's trump flag (card_order), drawn as a gold edge and a 主 mark.
      if (c.trump) card.classList.add("trump");
      if (c.gap) card.classList.add("gap");
      // A card the kitty brought, while the dealer buries (the view's kitty): a blue edge.
      if (c.kitty) {
        card.classList.add("from-kitty");
        card.setAttribute("aria-label", card.getAttribute("aria-label") + " · " + L.from_kitty);
      }
      el.hand.appendChild(card);
    });
    layoutHand();
    if (hadFocus && el.hand.children[focusIndex]) el.hand.children[focusIndex].focus();
    markUnplayable(hand);
  }

  /* The cards placed on the fan (fan.js) for the hand's width: one row or more, centred,
     each card's visible strip its whole hit target (later cards lie on top, none moves). */
  function layoutHand() {
    const cards = el.hand.children;
    handWidth = el.hand.clientWidth;
    if (!cards.length) { el.hand.style.removeProperty("--fan-h"); return; }
    const box = getComputedStyle(el.hand);
    const left = parseFloat(box.paddingLeft) || 0;
    const top = parseFloat(box.paddingTop) || 0;
    const width = handWidth - left - (parseFloat(box.paddingRight) || 0);
    const gaps = Array.prototype.map.call(cards, (card) => card.classList.contains("gap"));
    const fan = fanLayout(gaps, width, { cardW: cards[0].offsetWidth, cardH: cards[0].offsetHeight });
    fan.cards.forEach((at, i) => {
      cards[i].style.left = left + at.x + "px";
      cards[i].style.top = top + at.y + "px";
    });
    el.hand.style.setProperty("--fan-h", fan.height + "px");
    el.hand.dataset.rows = fan.rows;
  }

  /* On the seat's turn to play, the cards the view model dims (no legal play holds them
     now: the view's playable) cannot be picked: aria-disabled, and a click does nothing.
     Marked in place, so the rest of a selection survives the trick's turn coming round. */
  function markUnplayable(hand) {
    let dropped = false;
    hand.cards.forEach((c, i) => {
      const card = el.hand.children[i];
      if (!card) return;
      card.classList.toggle("unplayable", !!c.dim);
      if (c.dim) card.setAttribute("aria-disabled", "true");
      else card.removeAttribute("aria-disabled");
      if (c.dim && selected[i]) {
        delete selected[i];
        card.setAttribute("aria-pressed", "false");
        dropped = true;
      }
    });
    if (dropped) drawControls();
  }

  function selectedTokens() {
    return Object.keys(selected).map(Number).sort((a, b) => a - b).map((i) => shownHand[i]);
  }

  function toggle(i) {
    focusIndex = i;
    const pick = el.hand.children[i];
    if (pick && pick.getAttribute("aria-disabled") === "true") return;
    if (selected[i]) delete selected[i]; else selected[i] = true;
    const card = el.hand.children[i];
    if (card) card.setAttribute("aria-pressed", selected[i] ? "true" : "false");
    drawControls();
  }

  /* Arrows move the roving focus along the hand by `step`. */
  function moveFocus(step) {
    const cards = el.hand.children;
    if (!cards.length) return;
    cards[focusIndex].tabIndex = -1;
    focusIndex = (focusIndex + step + cards.length) % cards.length;
    cards[focusIndex].tabIndex = 0;
    cards[focusIndex].focus();
  }

  function drawControls() {
    const box = el.controls;
    box.innerHTML = "";
    const n = selectedTokens().length;
    vm.controls.forEach((control) => {
      const b = button(controlLabel(control, n, env), () => on.control(control), control.cls);
      if (control.id) b.id = control.id;
      if (control.op === "play") b.disabled = n === 0;
      box.appendChild(b);
    });
  }

  function drawResult() {
    const box = el.result;
    const r = vm.result;
    const appearing = !!r && box.hidden;
    box.hidden = !r;
    if (!r) return;
    $("result-winner").textContent = r.winner;
    const lines = $("result-lines");
    lines.innerHTML = "";
    r.lines.forEach((line) => {
      const li = document.createElement("li");
      li.textContent = line.text;
      if (line.cls) li.className = line.cls;
      lines.appendChild(li);
    });
    const body = box.querySelector("#result-ledger tbody");
    body.innerHTML = "";
    r.rows.forEach((row) => {
      const tr = document.createElement("tr");
      tr.className = row.me ? "me" : "";
      const who = document.createElement("td");
      who.textContent = row.name;
      if (row.why) who.appendChild(span("why", row.why));
      const points = document.createElement("td");
      points.className = "num " + (row.points < 0 ? "neg" : "pos");
      points.textContent = row.text;
      tr.appendChild(who);
      tr.appendChild(points);
      body.appendChild(tr);
    });
    if (r.replay) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = r.replay;
      a.textContent = L.replay;
      a.className = "replay-link";
      li.appendChild(a);
      lines.appendChild(li);
    }
    // No kitty heading where the rule set has none (r.kitty null).
    const kitty = $("result-kitty");
    kitty.innerHTML = "";
    kitty.hidden = $("result-kitty-title").hidden = !r.kitty;
    if (r.kitty) kitty.appendChild(cardRow(r.kitty, "cards-row small"));
    drawRematch();
    const controls = $("result-controls");
    controls.innerHTML = "";
    if (r.canReady) controls.appendChild(button(L.next_hand, () => on.control({ op: "send", action: { type: "ready" } }), "primary"));
    controls.appendChild(button("✕", () => on.dismiss(), "close"));
    // On a phone the result sits in the page under the felt (site.css): bring it into view
    // when it comes, as the box over the page does on a desktop by itself.
    if (appearing && getComputedStyle(box).position === "static") box.scrollIntoView({ block: "nearest" });
  }

  /* Play again, on top of the result: the offer in words, and its answers for a seat it
     still waits for. */
  function drawRematch() {
    const offer = $("result-rematch");
    offer.hidden = !vm.rematch;
    offer.innerHTML = "";
    if (!vm.rematch) return;
    vm.rematch.lines.forEach((text) => {
      const line = document.createElement("p");
      line.textContent = text;
      offer.appendChild(line);
    });
    if (!vm.rematch.controls.length) return;
    const answers = document.createElement("p");
    answers.className = "controls";
    vm.rematch.controls.forEach((control) => answers.appendChild(button(control.label, () => on.control(control), control.cls)));
    offer.appendChild(answers);
  }

  /* A hint: exactly `tokens` selected in the drawn hand, as the player's clicks would. */
  function selectTokens(tokens) {
    if (!el.hand) return;
    selected = {};
    indexesOf(shownHand, tokens).forEach((i) => { selected[i] = true; });
    Array.from(el.hand.children).forEach((card, i) => card.setAttribute("aria-pressed", selected[i] ? "true" : "false"));
    drawControls();
  }

  return {
    draw: draw,
    tick: tick,
    toggle: toggle,
    moveFocus: moveFocus,
    selectedTokens: selectedTokens,
    selectTokens: selectTokens,
    // The hand's order changed (the settings switch): draw it again on the next draw.
    forgetHand() { handKey = ""; },
  };
}
