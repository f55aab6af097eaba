/* 提示 and the check of a selection (docs/protocol.md, "hint and check"): when the page
   offers the Hint button, what it asks the server of a selection, which answers still
   belong to what is shown, and what it does with them. No rule lives here: the server
   chooses the hint and judges the selection; these only read the view and the answers. A
   plain ES module with no DOM, so Node tests it (tests/ui/js/advice.test.mjs). */

import { errorText } from "./errors.js";

const DECLARING = { deal: true, declare: true };

/* Whether the seat has a decision now that a hint may answer: its turn (the view's
   `acting`), or during the deal and the declaration window a declaration it may make. */
export function hintOffered(view, seat) {
  if (!view || seat == null) return false;
  if ((view.acting || []).indexOf(seat) >= 0) return true;
  return !!DECLARING[view.phase] && (view.calls || []).length > 0;
}

/* The `check` to send for the selected `tokens` on `version`, or null: only on the seat's
   turn to play, with cards selected, and when following only once as many cards are
   selected as the lead has (fewer are a selection still being made, not a choice). */
export function checkRequest(view, seat, version, tokens) {
  if (!view || view.phase !== "play" || (view.acting || []).indexOf(seat) < 0) return null;
  if (!tokens || !tokens.length || version == null) return null;
  const plays = (view.trick && view.trick.plays) || [];
  if (plays.length && plays[0].length !== tokens.length) return null;
  return { type: "check", version: version, action: { type: "play", cards: tokens.slice() } };
}

function sameCards(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const x = a.slice().sort(), y = b.slice().sort();
  return x.every((t, i) => t === y[i]);
}

/* Whether a `check` answer is the one for `sent` (the last check the page sent), so an
   answer for an older selection or version is dropped. */
export function answerCurrent(answer, sent) {
  if (!answer || !sent || answer.version !== sent.version || !answer.action) return false;
  return answer.action.type === sent.action.type && sameCards(answer.action.cards, sent.action.cards);
}

/* The sentence to show beside the Play button for a `check` answer: "" when the selection
   would be played; else why not, as the real refusal would be said (errors.js). */
export function checkText(answer, env) {
  if (!answer || answer.ok || answer.code === "stale_version") return "";
  return errorText(answer.code, answer, env);
}

/* The cards a hinted action selects in the hand (a play, a bury, a declaration), or null. */
export function hintCards(action) {
  return action && Array.isArray(action.cards) ? action.cards.slice() : null;
}

/* The control of the view model (state.js's controls) that sends the hinted `action` as it
   is (a declaration, a bid, a trump), or null: the page names the call it suggests. */
export function hintControl(controls, action) {
  if (!action) return null;
  return (controls || []).find((c) => c.op === "send" && c.action && sameAction(c.action, action)) || null;
}

function sameAction(a, b) {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => (k === "cards" ? sameCards(a[k], b[k]) : a[k] === b[k]));
}

/* The positions in the drawn hand `shown` (tokens in the player's order) of `tokens`, each
   copy of a card at a position of its own (a pair selects both ♥K). */
export function indexesOf(shown, tokens) {
  const taken = {};
  const out = [];
  (tokens || []).forEach((t) => {
    for (let i = 0; i < shown.length; i++) {
      if (shown[i] === t && !taken[i]) { taken[i] = true; out.push(i); return; }
    }
  });
  return out.sort((a, b) => a - b);
}
