// The replay's review of the hand (docs/analysis.md): the Analyse button, the poll while a
// worker makes it, then the marks beside each trick, the better play drawn as cards under
// the trick on the table, the expected result of the hand for each side as a chart over the
// tricks, and a summary per player. Everything comes judged from the server (the page knows
// no rule); replay.js tells which trick is on the table ("replay:step").
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var A = data.analysis;
  var L = A.labels;
  var names = data.names;
  var root = document.getElementById("replay");
  var ask = document.getElementById("analysis-ask");
  var status = document.getElementById("analysis-status");
  var here = document.getElementById("analysis-trick");
  var chart = document.getElementById("analysis-chart");
  var summary = document.getElementById("analysis-summary");
  var before = document.getElementById("analysis-before");
  var view = A.view;
  var POLL_MS = 2000;
  var SVG = "http://www.w3.org/2000/svg";
  document.querySelector("#analysis .analysis-intro").textContent = L.intro;

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function num(x) { return x === null || x === undefined ? "–" : (Math.round(x * 100) / 100).toFixed(2); }

  /* An action as the review gives it: cards drawn, a bid, a suit named, or a word. */
  function action(a) {
    var box = el("span", "cards-row small");
    if (!a) { box.textContent = L.no_declaration; return box; }
    if (a.cards) {
      a.cards.forEach(function (token) { box.appendChild(Cards.element(token)); });
    } else if (a.type === "bid") {
      box.textContent = a.bid === null ? L.pass : String(a.bid);
    } else if (a.type === "name_trump") {
      box.textContent = a.trump ? Cards.SUITS[a.trump] : "–";
    } else {
      box.textContent = a.type;
    }
    return box;
  }

  function badge(mark) { return el("span", "amark " + mark, L[mark]); }

  /* One marked decision: who played what, the better play, the cost and its error bar. */
  function decisionLine(d) {
    var line = el("p", "adecision " + d.mark);
    line.appendChild(badge(d.mark));
    line.appendChild(el("span", "who", " " + fmt(L.played, { name: names[d.seat] }) + " "));
    line.appendChild(action(d.played));
    line.appendChild(el("span", "better", " " + L.better + " "));
    line.appendChild(action(d.best));
    line.appendChild(el("span", "cost", " " + fmt(L.cost, { loss: num(d.loss), se: num(d.stderr) })));
    return line;
  }

  function marked(d) { return Boolean(d.mark); }
  function inPlay(d) { return d.phase === "lead" || d.phase === "follow"; }

  function drawTrickMarks() {
    var items = root.querySelectorAll("#replay-tricks li");
    items.forEach(function (li, t) {
      li.querySelectorAll(".amark").forEach(function (m) { m.remove(); });
      view.decisions.filter(function (d) { return marked(d) && inPlay(d) && d.trick === t; })
        .forEach(function (d) {
          var m = badge(d.mark);
          m.title = names[d.seat];
          m.textContent = L[d.mark] + " · " + names[d.seat];
          li.appendChild(m);
        });
    });
  }

  function drawHere() {
    here.textContent = "";
    if (!view || view.status !== "done") return;
    var step = Number(root.dataset.step || 0);
    // Before the first trick nothing is on the table: the burial and the calls have their
    // own list (drawSummary).
    var rows = view.decisions.filter(function (d) {
      return step && marked(d) && inPlay(d) && d.trick === step - 1;
    });
    if (step) here.appendChild(el("h3", "", fmt(L.trick_marks, { k: step })));
    rows.forEach(function (d) { here.appendChild(decisionLine(d)); });
    if (!rows.length && step) here.appendChild(el("p", "muted", L.none_marked));
    drawMarker(step);
  }

  /* The sides' expected result before each trick, then the real result: two lines. */
  function drawChart() {
    var points = view.tricks;
    chart.hidden = points.length < 2;
    if (chart.hidden) return;
    chart.querySelector("figcaption").textContent = L.chart;
    var svg = chart.querySelector("svg");
    svg.textContent = "";
    var W = 320, H = 160, PAD = 14;
    var last = points[points.length - 1].trick || 1;
    var values = [0];
    points.forEach(function (p) { values.push(p.dealer_side, p.defenders); });
    var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
    if (hi - lo < 1) { hi += 0.5; lo -= 0.5; }
    function x(t) { return PAD + (W - 2 * PAD) * t / last; }
    function y(v) { return PAD + (H - 2 * PAD) * (hi - v) / (hi - lo); }
    function line(cls, x1, y1, x2, y2) {
      var l = document.createElementNS(SVG, "line");
      l.setAttribute("class", cls);
      l.setAttribute("x1", x1); l.setAttribute("y1", y1); l.setAttribute("x2", x2); l.setAttribute("y2", y2);
      svg.appendChild(l);
    }
    line("zero", PAD, y(0), W - PAD, y(0));
    ["dealer_side", "defenders"].forEach(function (side) {
      var path = document.createElementNS(SVG, "polyline");
      path.setAttribute("class", "side " + side);
      path.setAttribute("points", points.map(function (p) { return x(p.trick) + "," + y(p[side]); }).join(" "));
      var title = document.createElementNS(SVG, "title");
      title.textContent = L[side] + ": " + points.map(function (p) { return num(p[side]); }).join(", ");
      path.appendChild(title);
      svg.appendChild(path);
    });
    points.forEach(function (p) {
      view.decisions.filter(function (d) { return marked(d) && inPlay(d) && d.trick === p.trick; })
        .slice(0, 1).forEach(function (d) {
          var dot = document.createElementNS(SVG, "circle");
          dot.setAttribute("class", "markdot " + d.mark);
          dot.setAttribute("cx", x(p.trick)); dot.setAttribute("cy", PAD / 2); dot.setAttribute("r", 3);
          svg.appendChild(dot);
        });
    });
    var marker = document.createElementNS(SVG, "line");
    marker.setAttribute("class", "now");
    marker.setAttribute("y1", PAD / 2); marker.setAttribute("y2", H - PAD / 2);
    svg.appendChild(marker);
    svg.dataset.last = String(last);
    svg.setAttribute("aria-label", L.chart);
    var legend = chart.querySelector(".legend");
    legend.textContent = "";
    [["dealer_side", L.dealer_side], ["defenders", L.defenders]].forEach(function (pair) {
      legend.appendChild(el("span", "key " + pair[0], pair[1]));
    });
    legend.appendChild(el("span", "axis", L.chart_axis + " 0 – " + last + " (" + L.end + ")"));
  }

  function drawMarker(step) {
    var svg = chart.querySelector("svg");
    var marker = svg.querySelector(".now");
    if (!marker) return;
    var W = 320, PAD = 14, last = Number(svg.dataset.last || 1);
    var t = Math.max(0, step - 1);
    var at = PAD + (W - 2 * PAD) * Math.min(t, last) / last;
    marker.setAttribute("x1", at); marker.setAttribute("x2", at);
  }

  // A tap on the chart puts the nearest trick on the table.
  chart.querySelector("svg").addEventListener("click", function (event) {
    var svg = event.currentTarget;
    var box = svg.getBoundingClientRect();
    var last = Number(svg.dataset.last || 1);
    var t = Math.round((event.clientX - box.left) / box.width * last);
    var button = root.querySelector('[data-goto="' + Math.min(Math.max(t + 1, 1), last) + '"]');
    if (button) button.click();
  });

  function drawSummary() {
    summary.hidden = !view.summary.length;
    var heads = summary.querySelectorAll("thead th");
    [L.player, L.mistakes, L.blunders, L.total_cost].forEach(function (text, i) { heads[i].textContent = text; });
    var body = summary.querySelector("tbody");
    body.textContent = "";
    view.summary.forEach(function (row) {
      var tr = el("tr");
      tr.dataset.seat = String(row.seat);
      tr.appendChild(el("th", "", row.player));
      tr.appendChild(el("td", "", String(row.mistakes)));
      tr.appendChild(el("td", "", String(row.blunders)));
      tr.appendChild(el("td", "", num(row.cost)));
      body.appendChild(tr);
    });
    var early = view.decisions.filter(function (d) { return marked(d) && !inPlay(d); });
    before.hidden = !early.length;
    before.textContent = "";
    if (early.length) {
      before.appendChild(el("h3", "", L.other_decisions));
      early.forEach(function (d) {
        var line = decisionLine(d);
        line.insertBefore(el("span", "phase", (L[d.phase] || d.phase) + " · "), line.firstChild);
        before.appendChild(line);
      });
    }
  }

  function show(next) {
    view = next;
    ask.hidden = !(A.allowed && A.recorded && (view.status === "none" || view.status === "failed"));
    if (view.status === "queued" || view.status === "running") {
      status.textContent = L[view.status];
      window.setTimeout(poll, POLL_MS);
    } else if (view.status === "failed") {
      status.textContent = fmt(L.failed, { error: view.error });
    } else {
      status.textContent = "";
    }
    root.classList.toggle("analysed", view.status === "done");
    if (view.status !== "done") return;
    drawTrickMarks();
    drawChart();
    drawSummary();
    drawHere();
  }

  function answer(response) {
    return response.json().then(function (body) {
      if (!response.ok) { status.textContent = body.message || body.error; return; }
      show(body);
    });
  }

  function poll() {
    fetch(A.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(answer).catch(function () { window.setTimeout(poll, POLL_MS * 2); });
  }

  ask.addEventListener("click", function () {
    ask.disabled = true;
    fetch(A.url, { method: "POST", credentials: "same-origin",
                   headers: { Accept: "application/json", "X-CSRFToken": data.csrf } })
      .then(answer).finally(function () { ask.disabled = false; });
  });

  root.addEventListener("replay:step", drawHere);

  if (!A.signed_in) status.textContent = L.sign_in;
  else if (!A.recorded) status.textContent = L.unavailable;
  if (view) show(view);
})();
