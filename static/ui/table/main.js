/* The live table page (docs/ui.md): the socket's messages and the player's clicks go
   through the reducer (state.js), and each new state is drawn (draw.js). The server is the
   only authority: the page sends actions and explains refusals from their codes.

   Other scripts of the page (chat.js, table/history.js, turncue.js) open no socket of their own:
   they hear `tractor:message` (one per message taken, after it was drawn) and
   `tractor:error` (a refusal; cancelled by a script that explained it itself), and send with
   window.TractorTable.sendMessage. */

import { answerCurrent, checkRequest, checkText, hintCards, hintControl, hintOffered } from "./advice.js";
import { errorText } from "./errors.js";
import { tableDrawing } from "./draw.js";
import { tableSocket } from "./socket.js";
import { fmt, initialState, nameOf, reduce, viewModel } from "./state.js";

const client = JSON.parse(document.getElementById("table-client").textContent);
const L = client.catalog.labels;
const env = { client: client, cardLabel: window.Cards.label, suits: window.Cards.SUITS,
              lang: document.documentElement.lang || "" };
// A refusal names seats as the page does (errors.js, reasons.js).
env.nameOf = (seat) => nameOf(state, env, seat);
const app = document.getElementById("table-app");
const banner = document.getElementById("conn-banner");
const hand = document.getElementById("hand");
// Close codes after which the page stays put and says why (docs/protocol.md).
const STOPPED = { 4400: L.bad_request,
                  4403: client.mode === "watch" ? L.private_closed : client.catalog.errors.not_seated,
                  4404: client.catalog.errors.no_such_table, 4409: L.replaced,
                  4429: L.too_many_sockets };
const LEAVE_FALLBACK_MS = 3000;
// A check goes once the selection has stayed put this long (a click's pause, not each click).
const CHECK_DEBOUNCE_MS = 250;
const hintButton = document.getElementById("act-hint");
const checkReason = document.getElementById("check-reason");

let state = initialState();
const drawing = tableDrawing(app, env, { control: press, dismiss: () => dispatch({ type: "dismiss_result" }) });
const socket = tableSocket(client.socket, {
  message: receive,
  seq: () => state.seq,
  up: () => { banner.hidden = true; },
  down: () => { banner.hidden = false; },
  stopped(code) {
    if (!STOPPED[code]) return false;
    dispatch({ type: "notice", text: STOPPED[code], kind: "error" });
    return true;
  },
});

/* The state after `msg`, drawn; false when the page is leaving instead. */
function dispatch(msg) {
  state = reduce(state, msg, env);
  seatFollow();
  const vm = viewModel(state, env);
  if (vm.gone) { location.href = client.lobby; return false; }
  drawing.draw(vm);
  showHint();
  return true;
}

/* A rematch moves the players round the table (docs/protocol.md, `rematch_started`): a
   player's page takes its seat from the table the server sent, so the felt turns with it. */
function seatFollow() {
  if (client.mode !== "play" || !state.table) return;
  const mine = state.table.seats.findIndex((seat) => seat.user === client.user);
  if (mine >= 0 && mine !== client.seat) {
    client.seat = mine;
    drawing.forgetHand();
  }
}

function receive(msg) {
  // Answers to this socket alone, which change nothing at the table (docs/protocol.md).
  if (msg.type === "hint") { hinted(msg); return; }
  if (msg.type === "check") { checked(msg); return; }
  if (!dispatch(msg)) return;
  if (state.took) checkSoon();
  if (state.gap) { socket.hello(); return; }                 // a message was missed: catch up
  if (state.took) {
    document.dispatchEvent(new CustomEvent("tractor:message", { detail: {
      msg: msg.type === "error" ? msg.snapshot : msg, view: state.view, table: state.table,
      seat: client.seat } }));
  }
  if (msg.type === "error") refused(msg);
}

function refused(msg) {
  if (socket.resendStale(msg, state.version)) return;
  const taken = document.dispatchEvent(new CustomEvent("tractor:error", { cancelable: true, detail: msg }));
  if (taken) dispatch({ type: "notice", text: errorText(msg.code, msg, env), kind: "error" });
}

/* 提示: the hinted cards selected (the player still presses Play, Bury or the call), the
   call it suggests named. */
function hinted(msg) {
  if (msg.version !== state.version) return;                  // the table has moved on
  const vm = viewModel(state, env);
  const control = hintControl(vm.controls, msg.action);
  const cards = hintCards(msg.action);
  if (cards && hand) drawing.selectTokens(cards);
  const text = !msg.action ? L.hint_none : control ? fmt(L.hint_call, { call: control.label }) : "";
  dispatch({ type: "notice", text: text, kind: text ? "info" : "" });
  checkSoon();
}

let checkTimer = null;
let checkSent = null;          // the last check sent: only its answer is shown

/* Ask, once the selection settles, whether it would be played, and why not. */
function checkSoon() {
  if (!checkReason) return;
  clearTimeout(checkTimer);
  checkReason.textContent = "";
  checkSent = null;
  checkTimer = setTimeout(() => {
    const request = checkRequest(state.view, client.seat, state.version, drawing.selectedTokens());
    if (request && socket.open()) { checkSent = request; socket.send(request); }
  }, CHECK_DEBOUNCE_MS);
}

function checked(msg) {
  if (!checkReason || !answerCurrent(msg, checkSent)) return;
  checkReason.textContent = checkText(msg, env);
}

function showHint() {
  if (hintButton) hintButton.hidden = !hintOffered(state.view, client.seat);
}

/* A button of the view model pressed. */
function press(control) {
  if (control.op === "send") socket.act(control.action, state.version);
  else if (control.op === "leave") {
    // Not sent while the socket is down (its banner shows): the player still sits here, and
    // going to the lobby would leave the seat taken by someone who thinks they left.
    if (!socket.open()) { banner.hidden = false; return; }
    dispatch({ type: "leaving" });
    socket.act({ type: "leave" }, state.version);
    // If the answer is lost, the lobby still shows the truth: it reads the seats.
    setTimeout(() => { location.href = client.lobby; }, LEAVE_FALLBACK_MS);
  } else if (control.op === "bury") {
    const cards = drawing.selectedTokens();
    if (cards.length !== control.need) {
      dispatch({ type: "notice", text: fmt(L.bury_count, { n: control.need }), kind: "error" });
      return;
    }
    socket.act({ type: "bury", cards: cards }, state.version);
  } else if (control.op === "play") {
    const cards = drawing.selectedTokens();
    if (!cards.length) return;
    dispatch({ type: "notice", text: "", kind: "" });
    socket.act({ type: "play", cards: cards }, state.version);
  }
}

if (hand) {
  hand.addEventListener("click", (e) => {
    const card = e.target.closest(".card");
    if (card) { drawing.toggle(Number(card.dataset.index)); checkSoon(); }
  });
  // Roving focus: arrows move along the hand, Space/Enter on a card toggles it (a button),
  // and Enter with Ctrl/Cmd or "p" plays the selection.
  hand.addEventListener("keydown", (e) => {
    if (!hand.children.length) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step) {
      e.preventDefault();
      drawing.moveFocus(step);
    } else if (e.key === "p" || (e.key === "Enter" && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      const act = document.getElementById("act-play") || document.getElementById("act-bury");
      if (act) act.click();
    }
  });
}

// The one way other scripts of the page send on the table's socket (e.g. chat).
window.TractorTable = {
  client: client,
  sendMessage: (message) => socket.send(message),
  view: () => state.view,
};

// The settings switch (turncue.js) saved new settings: draw the hand in its order.
document.addEventListener("tractor:prefs", (e) => {
  if (e.detail) Object.assign(client.prefs, { sort: e.detail.sort, turn_sound: e.detail.turn_sound });
  drawing.forgetHand();
  drawing.draw(viewModel(state, env));
});

if (hintButton) hintButton.addEventListener("click", () => socket.send({ type: "hint" }));

// A private table's invitation link: copied as it shows, or renewed (the old one revoked).
const inviteLink = document.getElementById("invite-link");
const inviteStatus = document.getElementById("invite-status");
if (inviteLink) {
  document.getElementById("invite-copy").addEventListener("click", () => {
    inviteLink.select();
    const done = () => { inviteStatus.textContent = L.invite_copied; };
    if (navigator.clipboard) navigator.clipboard.writeText(inviteLink.value).then(done, () => { document.execCommand("copy"); done(); });
    else { document.execCommand("copy"); done(); }
  });
  document.getElementById("invite-renew").addEventListener("click", () => {
    inviteStatus.textContent = "";
    socket.send({ type: "invite_renew" });
  });
}

setInterval(drawing.tick, 250);
drawing.draw(viewModel(state, env));
