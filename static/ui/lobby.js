// The lobby's two forms (play against bots, new table). Each shows only the chosen game's
// options (the fields tagged data-variant, from the variant's descriptor). The new-table
// form also says, live, what sitting needs and what the player holds, from the server's
// figures (#create-rules, ui.forms.create_rules): sitting needs cap × base stake (RULES
// P8b); the cap follows the game's house default, lowered to what the points cover at the
// chosen stake, until the player types their own.
(function () {
  "use strict";

  function variantOptions(form) {
    var select = form.querySelector("select[name$='variant']");
    if (!select) return null;
    function show() {
      var fields = form.querySelectorAll("[data-variant]");
      for (var i = 0; i < fields.length; i++) {
        var mine = fields[i].getAttribute("data-variant") === select.value;
        fields[i].hidden = !mine;
        var control = fields[i].querySelector("select, input");
        if (control) control.disabled = !mine;
      }
    }
    select.addEventListener("change", show);
    show();
    return select;
  }

  var bots = document.getElementById("play-bots");
  if (bots) variantOptions(bots);

  // Quick play's waiting panel: poll the player's place in the queue every second (the poll
  // also keeps the place: a closed tab's expires), count the time waited between polls, and
  // go to the table once the matcher has seated them. Back to the lobby when the place is gone
  // (left from another tab, or expired).
  var waiting = document.getElementById("quick-wait");
  if (waiting) {
    var statusUrl = waiting.getAttribute("data-status");
    var waited = document.getElementById("quick-waited");
    var since = Date.now() - 1000 * parseInt(waiting.getAttribute("data-waited"), 10);
    var poll = function () {
      fetch(statusUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (status) {
          if (!status) return;
          if (status.state === "seated") { window.location.assign(status.url); return; }
          if (status.state === "idle") { window.location.reload(); return; }
          since = Date.now() - 1000 * status.waited;
          document.getElementById("quick-queued").textContent = String(status.queued);
          document.getElementById("quick-band").textContent = String(status.band);
        })
        .catch(function () { /* the next poll tries again */ });
    };
    var tick = function () {
      var seconds = Math.max(0, Math.floor((Date.now() - since) / 1000));
      var rest = seconds % 60;
      waited.textContent = Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
    };
    setInterval(tick, 250);
    setInterval(poll, 1000);
    poll();
  }

  var form = document.getElementById("create-table");
  var data = document.getElementById("create-rules");
  if (!form || !data) return;
  var rules = JSON.parse(data.textContent);
  var variant = variantOptions(form);
  var cap = form.elements.cap, stake = form.elements.base_stake;
  var needs = document.getElementById("cap-needs");
  var needsPoints = document.getElementById("cap-needs-points");
  var short = document.getElementById("cap-needs-short");
  var edited = cap.value !== "" && form.querySelector(".has-error") !== null;

  function capRule() {
    var choices = rules.variants[variant.value] || [];
    for (var i = 0; i < choices.length; i++) {
      var options = choices[i].options, match = true;
      for (var name in options) {
        var field = form.elements[variant.value + "__" + name];
        if (field && field.value !== "" && String(options[name]) !== field.value) match = false;
      }
      if (match) return choices[i];
    }
    return null;
  }

  function update() {
    var rule = capRule(), perStake = parseInt(stake.value, 10);
    if (rule) {
      cap.max = rule.max;
      if (!edited) {
        var covered = perStake > 0 ? Math.floor(rules.balance / perStake) : rule.cap;
        cap.value = Math.max(1, Math.min(rule.cap, covered));
      }
    }
    var need = parseInt(cap.value, 10) * perStake;
    var known = need > 0;
    needsPoints.textContent = known ? String(need) : "–";
    var tooMuch = known && need > rules.balance;
    short.hidden = !tooMuch;
    needs.classList.toggle("short", tooMuch);
  }

  cap.addEventListener("input", function () { edited = true; update(); });
  form.addEventListener("change", function (e) { if (e.target !== cap) update(); });
  stake.addEventListener("input", update);
  update();
}());
