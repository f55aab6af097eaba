/* The table page's first-visit tour (issue 32, learn in place): a few short steps, each
   pointing at one part of the page (the hand, the action buttons, the trick and points, the
   rules link and the chat). Dismissed with "Skip" or "Done", it is remembered in
   localStorage and not shown again. Its words are the page's (templates/ui/includes/
   tour.html, from the Django catalog); this script knows no rule and no text.

   The pure part (`steps`, `start`, `reduce`, `seen`) runs under Node as well
   (tests/ui/test_tour_node.py); the rest draws it. */
"use strict";

(function (root) {
  var KEY = "tractor.tour.table";
  var DONE = "done";

  /* The steps whose target the page holds ({title, text, target}); `exists(selector)`
     answers for the page. A step with no target is always kept. */
  function steps(all, exists) {
    return all.filter(function (step) { return !step.target || exists(step.target); });
  }

  /* True when the tour was dismissed before (the stored value). */
  function seen(stored) { return stored === DONE; }

  /* The tour's state: {index, total, open}; open false once it is over. */
  function start(total, stored) {
    return { index: 0, total: total, open: total > 0 && !seen(stored) };
  }

  /* The state after an action: "next", "back", "skip" (or "close"). The tour closes after the
     last step's "next" and on "skip"; `store` then says to remember it. */
  function reduce(state, action) {
    if (!state.open) return state;
    if (action === "next") {
      if (state.index + 1 >= state.total) return { index: state.index, total: state.total, open: false, store: DONE };
      return { index: state.index + 1, total: state.total, open: true };
    }
    if (action === "back") return { index: Math.max(0, state.index - 1), total: state.total, open: true };
    if (action === "skip" || action === "close") return { index: state.index, total: state.total, open: false, store: DONE };
    return state;
  }

  var api = { KEY: KEY, DONE: DONE, steps: steps, seen: seen, start: start, reduce: reduce };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; return; }
  root.tractorTour = api;

  function stored() {
    try { return root.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function remember(value) {
    try { root.localStorage.setItem(KEY, value); } catch (e) { /* private mode: shown again next time */ }
  }

  function run() {
    var box = document.getElementById("tour");
    var list = document.getElementById("tour-steps");
    if (!box || !list) return;
    var all = Array.prototype.map.call(list.querySelectorAll("li"), function (li) {
      return { title: li.getAttribute("data-title"), text: li.textContent.trim(),
               target: li.getAttribute("data-target") };
    });
    var shown = steps(all, function (sel) { return !!document.querySelector(sel); });
    var state = start(shown.length, stored());
    var title = box.querySelector("[data-tour-title]");
    var text = box.querySelector("[data-tour-text]");
    var count = box.querySelector("[data-tour-count]");
    var back = box.querySelector('[data-tour="back"]');
    var next = box.querySelector('[data-tour="next"]');
    var marked = [];

    function unmark() {
      marked.forEach(function (el) { el.classList.remove("tour-target"); });
      marked = [];
    }
    function draw() {
      unmark();
      if (!state.open) {
        box.hidden = true;
        if (state.store) remember(state.store);
        return;
      }
      var step = shown[state.index];
      title.textContent = step.title;
      text.textContent = step.text;
      count.textContent = box.getAttribute("data-count")
        .replace("{n}", String(state.index + 1)).replace("{total}", String(state.total));
      back.hidden = state.index === 0;
      next.textContent = box.getAttribute(state.index + 1 >= state.total ? "data-done" : "data-next");
      if (step.target) {
        var el = document.querySelector(step.target);
        if (el) {
          el.classList.add("tour-target");
          marked.push(el);
          if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
          // The box never covers what it points at: at the top for the hand, else below.
          var rect = el.getBoundingClientRect();
          box.classList.toggle("tour-top", rect.top + rect.height / 2 > root.innerHeight / 2);
        }
      }
      box.hidden = false;
    }
    box.addEventListener("click", function (ev) {
      var button = ev.target.closest ? ev.target.closest("[data-tour]") : null;
      if (!button) return;
      state = reduce(state, button.getAttribute("data-tour"));
      draw();
    });
    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { state = reduce(state, "skip"); draw(); }
    });
    draw();
    if (state.open) next.focus({ preventScroll: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})(typeof window !== "undefined" ? window : this);
