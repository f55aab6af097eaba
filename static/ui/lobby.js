// The new-table form: the cap field follows the chosen game's default (RULES P8b) until
// the player types their own, and the form says what sitting will need (cap × stake).
(function () {
  "use strict";
  var form = document.getElementById("create-table");
  var data = document.getElementById("cap-defaults");
  if (!form || !data) return;
  var defaults = JSON.parse(data.textContent);
  var cap = form.elements.cap, stake = form.elements.base_stake, variant = form.elements.variant;
  var needs = document.getElementById("cap-needs"), needsPoints = document.getElementById("cap-needs-points");
  var edited = false;

  function defaultCap() {
    var choices = defaults[variant.value] || [];
    for (var i = 0; i < choices.length; i++) {
      var options = choices[i].options, match = true;
      for (var name in options) {
        var field = form.elements[variant.value + "__" + name];
        if (field && field.value !== "" && String(options[name]) !== field.value) match = false;
      }
      if (match) return choices[i].cap;
    }
    return null;
  }

  function update() {
    var worst = defaultCap();
    if (worst != null) {
      cap.max = worst;
      if (!edited) cap.value = worst;
    }
    var total = parseInt(cap.value, 10) * parseInt(stake.value, 10);
    needs.hidden = !(total > 0);
    needsPoints.textContent = total > 0 ? String(total) : "";
  }

  cap.addEventListener("input", function () { edited = true; update(); });
  form.addEventListener("change", function (e) { if (e.target !== cap) update(); });
  stake.addEventListener("input", update);
  update();
}());
