/* The turn cue (docs/ui.md): when it becomes this seat's turn, a short beep made with
   WebAudio (no sound file) if the player asked for it, and a marker in the tab's title while
   it is their turn and the tab is hidden. Also the table page's two settings switches (the
   turn sound and the hand's order), saved with the prefs JSON endpoint. */
"use strict";

(function () {
  var client = JSON.parse(document.getElementById("table-client").textContent);
  // The table's module (table/main.js) runs after this script: it takes the settings saved
  // here from the `tractor:prefs` event.
  var prefs = client.prefs;
  var L = client.catalog.labels;
  var baseTitle = document.title;
  var myTurn = false;
  var audio = null;

  // The view says whom the hand waits on (`acting`): the page knows no phase of its own.
  function isMyTurn(view) {
    return client.seat != null && !!view && (view.acting || []).indexOf(client.seat) >= 0;
  }

  /* Browsers start audio only after a gesture on the page: the context is made (or resumed)
     on the first tap or key, and a beep before that is skipped. */
  function wake() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx || !prefs.turn_sound) return;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
  }
  ["pointerdown", "keydown"].forEach(function (kind) {
    document.addEventListener(kind, wake, { capture: true, passive: true });
  });

  function beep() {
    if (!audio || audio.state !== "running") return;
    var now = audio.currentTime;
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(880, now);
    osc.frequency.setValueAtTime(1175, now + 0.09);
    // A soft attack and release: no click at either end.
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.25, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.22);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.25);
  }

  function title() {
    document.title = myTurn && document.hidden ? "● " + L.your_turn + " — " + baseTitle : baseTitle;
  }

  document.addEventListener("tractor:message", function (e) {
    var now = isMyTurn(e.detail.view);
    if (now && !myTurn && prefs.turn_sound) beep();
    myTurn = now;
    title();
  });
  document.addEventListener("visibilitychange", title);

  // --- the settings switches ------------------------------------------------------------------

  var sound = document.getElementById("pref-turn-sound");
  var sort = document.getElementById("pref-sort");
  var status = document.getElementById("prefs-status");

  function save(change, control, undo) {
    status.textContent = "";
    control.disabled = true;
    fetch(client.prefs_url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": client.csrf },
      body: JSON.stringify(change),
    }).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then(function (now) {
      prefs.sort = now.sort;
      prefs.turn_sound = now.turn_sound;
      status.textContent = L.prefs_saved;
      document.dispatchEvent(new CustomEvent("tractor:prefs", { detail: now }));
    }).catch(function () {
      undo();
      status.textContent = L.prefs_not_saved;
    }).then(function () { control.disabled = false; });
  }

  if (sound) {
    sound.checked = !!prefs.turn_sound;
    sound.addEventListener("change", function () {
      var on = sound.checked;
      if (on) { prefs.turn_sound = true; wake(); }
      save({ turn_sound: on }, sound, function () { sound.checked = !on; prefs.turn_sound = !on; });
    });
  }
  if (sort) {
    sort.value = prefs.sort;
    sort.addEventListener("change", function () {
      var before = prefs.sort;
      save({ sort: sort.value }, sort, function () { sort.value = before; });
    });
  }
})();
