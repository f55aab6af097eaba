// Steps through a finished hand trick by trick. The page embeds the replay as JSON
// (api.replay.replay_build): the hands as dealt, the kitty, the tricks in order.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var root = document.getElementById("replay");
  var position = document.getElementById("replay-position");
  var outcome = document.getElementById("replay-trick-result");
  var tricks = data.tricks;
  // Step 0 is the deal (after the dealer buried); step k shows trick k.
  var step = 0;

  function remove(hand, cards) {
    cards.forEach(function (card) {
      var i = hand.indexOf(card);
      if (i >= 0) hand.splice(i, 1);
    });
  }

  function handsBefore(k) {
    var hands = data.hands.map(function (h) { return h.slice(); });
    if (data.kitty_received.length && tricks.length) {
      var dealer = tricks[0].leader;
      hands[dealer] = hands[dealer].concat(data.kitty_received);
      remove(hands[dealer], data.buried);
    }
    for (var t = 0; t < k; t++) {
      tricks[t].plays.forEach(function (p) { remove(hands[p.seat], p.cards); });
    }
    return hands;
  }

  function render() {
    var trick = step > 0 ? tricks[step - 1] : null;
    var hands = handsBefore(step);
    root.querySelectorAll("tr[data-seat]").forEach(function (row) {
      var seat = Number(row.dataset.seat);
      var play = trick && trick.plays.filter(function (p) { return p.seat === seat; })[0];
      row.querySelector(".play").textContent = play ? play.cards.join(" ") : "";
      row.querySelector(".left").textContent = hands[seat].join(" ");
      row.classList.toggle("winner", Boolean(trick && trick.winner === seat));
    });
    position.textContent = step === 0 ? "deal" : "trick " + step + " / " + tricks.length;
    outcome.textContent = trick && trick.winner !== undefined
      ? "seat " + trick.winner + " wins the trick (+" + trick.points + ")" : "";
  }

  root.addEventListener("click", function (event) {
    var move = event.target.dataset && event.target.dataset.step;
    if (!move) return;
    if (move === "first") step = 0;
    if (move === "prev") step = Math.max(0, step - 1);
    if (move === "next") step = Math.min(tricks.length, step + 1);
    if (move === "last") step = tricks.length;
    render();
  });
  render();
})();
