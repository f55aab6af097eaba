/* Playing cards: each face is an SVG of its own, static/ui/cards/<token>.svg, written by
   ui/card_faces.py (a large corner index that reads in a fanned hand's strip). A token is a
   card as the server writes it (NOTATION.md): "SA", "H10", "LJ", "BJ". The page names the
   faces' URLs in a JSON script element `card-faces` ({% card_faces_json %}: hashed names in
   production); without it they are found next to this script. */
"use strict";

window.Cards = (function () {
  var SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
  var RED = { H: true, D: true };
  var urls = null;
  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/[^/]*$/, "") + "cards/" : "/static/ui/cards/";

  function parse(token) {
    if (token === "BJ" || token === "LJ") return { joker: token, suit: null, rank: null };
    return { joker: null, suit: token.charAt(0), rank: token.slice(1) };
  }

  /* Words a screen reader says for a card in the page's language: "10♥", "大王" or
     "big joker" (one language per page). */
  function label(token) {
    var c = parse(token);
    var zh = /^zh/.test(document.documentElement.lang || "");
    if (c.joker === "BJ") return zh ? "大王" : "big joker";
    if (c.joker === "LJ") return zh ? "小王" : "little joker";
    return c.rank + SUITS[c.suit];
  }

  /* Where the face of `token` is. */
  function faceUrl(token) {
    if (urls === null) {
      var data = document.getElementById("card-faces");
      urls = data ? JSON.parse(data.textContent) : {};
    }
    return urls[token] || base + token + ".svg";
  }

  /* One card face. `tag` is "button" for the player's own hand, "div" elsewhere. The face is
     a picture the label already says, so the picture itself is silent (alt=""). */
  function element(token, tag) {
    var c = parse(token);
    var el = document.createElement(tag || "div");
    el.className = "card";
    el.dataset.card = token;
    if (c.joker) el.classList.add("joker", c.joker === "BJ" ? "red" : "black");
    else el.classList.add(RED[c.suit] ? "red" : "black", "suit-" + c.suit);
    var face = document.createElement("img");
    face.className = "face";
    face.src = faceUrl(token);
    face.alt = "";
    face.draggable = false;
    el.appendChild(face);
    el.setAttribute("aria-label", label(token));
    return el;
  }

  return { parse: parse, label: label, element: element, faceUrl: faceUrl, SUITS: SUITS };
})();
