// A finished hand drawn as a table, stepped through trick by trick. The page embeds what
// the server built (games.replay): each seat's hand as play began, already in the order it
// was held (the server knows the trump; the page knows no rule), the tricks in order, and
// which cards were trump. Cards are drawn by cards.js, as on the live table.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var replay = data.replay;
  var L = data.labels;
  var tricks = replay.tricks;
  var trumps = {};
  replay.trumps.forEach(function (t) { trumps[t] = true; });
  var root = document.getElementById("replay");
  var position = document.getElementById("replay-position");
  var caption = document.getElementById("replay-caption");
  var trickButtons = root.querySelectorAll("[data-goto]");
  // Step 0: the hands as play began; step k: trick k on the table, the hands after it.
  var step = stepFromHash();

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }

  function group(token) { return trumps[token] ? "trump" : Cards.parse(token).suit; }

  /* Cards into `box`; `grouped` leaves a gap where the hand moves from one suit to the next. */
  function drawCards(box, tokens, grouped) {
    box.textContent = "";
    tokens.forEach(function (token, i) {
      var card = Cards.element(token);
      if (trumps[token]) card.classList.add("trump");
      if (grouped && i > 0 && group(tokens[i - 1]) !== group(token)) card.classList.add("gap");
      box.appendChild(card);
    });
  }

  function handsAfter(k) {
    var hands = replay.held.map(function (h) { return h.slice(); });
    for (var t = 0; t < k; t++) {
      tricks[t].plays.forEach(function (play) {
        play.cards.forEach(function (card) {
          var i = hands[play.seat].indexOf(card);
          if (i >= 0) hands[play.seat].splice(i, 1);
        });
      });
    }
    return hands;
  }

  function render() {
    var trick = step > 0 ? tricks[step - 1] : null;
    var hands = handsAfter(step);
    root.querySelectorAll(".rseat").forEach(function (box) {
      var seat = Number(box.dataset.seat);
      drawCards(box.querySelector(".rhand"), hands[seat], true);
      box.classList.toggle("winner", Boolean(trick && trick.winner === seat));
      box.classList.toggle("leader", Boolean(trick && trick.leader === seat));
    });
    root.querySelectorAll(".rtrick .play").forEach(function (slot) { slot.textContent = ""; });
    if (trick) {
      trick.plays.forEach(function (play, order) {
        var slot = root.querySelector('.rtrick .play[data-pos="' + data.positions[play.seat] + '"]');
        var badge = document.createElement("span");
        badge.className = "order";
        badge.textContent = String(order + 1);
        var row = document.createElement("div");
        row.className = "cards-row" + (trick.winner === play.seat ? " won" : "");
        drawCards(row, play.cards, false);
        slot.appendChild(badge);
        slot.appendChild(row);
      });
    }
    position.textContent = step === 0 ? L.deal : fmt(L.trick_of, { k: step, n: tricks.length });
    caption.textContent = "";
    if (trick) {
      var lines = [fmt(L.leads, { name: data.names[trick.leader] })];
      if (trick.winner === undefined || trick.winner === null) lines.push(L.unfinished);
      else {
        lines.push(fmt(L.wins, { name: data.names[trick.winner], points: trick.points }));
        if (trick.defender_points !== null && trick.defender_points !== undefined) {
          lines.push(fmt(L.defenders, { n: trick.defender_points }));
        }
      }
      lines.forEach(function (text) {
        var line = document.createElement("span");
        line.textContent = text;
        caption.appendChild(line);
      });
    }
    trickButtons.forEach(function (button) {
      if (Number(button.dataset.goto) === step) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    root.querySelector('[data-step="first"]').disabled = root.querySelector('[data-step="prev"]').disabled = step === 0;
    root.querySelector('[data-step="last"]').disabled = root.querySelector('[data-step="next"]').disabled = step === tricks.length;
    history.replaceState(null, "", step ? "#trick-" + step : location.pathname + location.search);
    // The review (analysis.js) follows the step: its marks for the trick on the table.
    root.dataset.step = String(step);
    root.dispatchEvent(new CustomEvent("replay:step", { detail: { step: step } }));
  }

  function stepFromHash() {
    var match = /^#trick-(\d+)$/.exec(location.hash);
    return match ? Math.min(Number(match[1]), tricks.length) : 0;
  }

  function go(move) {
    if (move === "first") step = 0;
    else if (move === "prev") step = Math.max(0, step - 1);
    else if (move === "next") step = Math.min(tricks.length, step + 1);
    else if (move === "last") step = tricks.length;
    else step = Math.max(0, Math.min(tricks.length, move));
    render();
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.step) go(button.dataset.step);
    else if (button.dataset.goto) go(Number(button.dataset.goto));
  });

  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var move = KEYS[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    event.preventDefault();
    go(move);
  });

  // The calls and the kitty: their cards and suits are drawn here too.
  root.querySelectorAll("[data-cards]").forEach(function (box) {
    drawCards(box, box.dataset.cards.split(" ").filter(Boolean), false);
  });
  root.querySelectorAll("[data-suit]").forEach(function (el) {
    el.textContent = Cards.SUITS[el.dataset.suit];
  });
  render();
})();
