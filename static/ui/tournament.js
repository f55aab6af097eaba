// The tournament pages. The new-tournament form shows only the chosen game's options (as
// the lobby's forms do). A tournament's page follows its socket (/ws/tournaments/<id>/,
// docs/tournaments.md "Live standings"): every message is the whole state, so the
// standings table and each table's played/playing are redrawn from it, and a board that
// has just been revealed (its results are drawn by the server) offers a reload.
(function () {
  "use strict";

  var form = document.getElementById("create-tournament");
  if (form) {
    var select = form.querySelector("select[name='variant']");
    var show = function () {
      var fields = form.querySelectorAll("[data-variant]");
      for (var i = 0; i < fields.length; i++) {
        var mine = fields[i].getAttribute("data-variant") === select.value;
        fields[i].hidden = !mine;
        var control = fields[i].querySelector("select, input");
        if (control) control.disabled = !mine;
      }
    };
    select.addEventListener("change", show);
    show();
  }

  var standings = document.getElementById("standings");
  if (!standings) return;
  var boards = document.getElementById("boards");

  function cell(text, numeric) {
    var td = document.createElement("td");
    if (numeric) td.className = "num";
    td.textContent = text;
    return td;
  }

  function drawStandings(rows) {
    var body = standings.querySelector("tbody");
    body.textContent = "";
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-entry", row.entry);
      var who = row.members.length ? row.members.join(" & ") : standings.getAttribute("data-bots");
      [[row.place, true], [who, false], [row.matchpoints, true], [row.net, true],
       [row.boards, true]].forEach(function (c) { tr.appendChild(cell(c[0], c[1])); });
      body.appendChild(tr);
    });
  }

  function drawBoards(list) {
    var stale = false;
    list.forEach(function (board) {
      var card = boards.querySelector("[data-round='" + board.round + "'][data-board='" +
                                      board.board + "']");
      if (!card || (board.revealed && !card.querySelector(".seed"))) { stale = true; return; }
      board.tables.forEach(function (t) {
        var state = card.querySelector("[data-table='" + t.table + "'] .board-state");
        if (state) state.textContent = boards.getAttribute(t.played ? "data-played" : "data-playing");
      });
    });
    var note = document.getElementById("boards-stale");
    if (note) note.hidden = !stale;
  }

  function connect(delay) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + standings.getAttribute("data-socket"));
    socket.onmessage = function (event) {
      var state = JSON.parse(event.data);
      if (state.type !== "standings") return;
      drawStandings(state.standings);
      drawBoards(state.boards);
      standings.setAttribute("data-live", "1");
    };
    // Each message is the whole state: after a drop, reconnecting is all the repair needed.
    socket.onclose = function (event) {
      if (event.code === 4404) return;
      setTimeout(function () { connect(Math.min(delay * 2, 30000)); }, delay);
    };
  }
  connect(1000);
})();
