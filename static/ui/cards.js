/* Playing cards drawn with HTML and CSS (no images to ship or fetch).
   A token is a card as the server writes it (NOTATION.md): "SA", "H10", "LJ", "BJ". */
"use strict";

window.Cards = (function () {
  var SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
  var RED = { H: true, D: true };

  function parse(token) {
    if (token === "BJ" || token === "LJ") return { joker: token, suit: null, rank: null };
    return { joker: null, suit: token.charAt(0), rank: token.slice(1) };
  }

  /* Words a screen reader says for a card, e.g. "10♥", "大王 big joker". */
  function label(token) {
    var c = parse(token);
    if (c.joker === "BJ") return "大王 big joker";
    if (c.joker === "LJ") return "小王 little joker";
    return c.rank + SUITS[c.suit];
  }

  /* One card face. `tag` is "button" for the player's own hand, "div" elsewhere. */
  function element(token, tag) {
    var c = parse(token);
    var el = document.createElement(tag || "div");
    el.className = "card";
    el.dataset.card = token;
    if (c.joker) {
      el.classList.add("joker", c.joker === "BJ" ? "red" : "black");
      el.innerHTML = '<span class="corner">' + (c.joker === "BJ" ? "大王" : "小王") +
        '</span><span class="pip">★</span><span class="corner end">JOKER</span>';
    } else {
      el.classList.add(RED[c.suit] ? "red" : "black", "suit-" + c.suit);
      var corner = '<span class="rank">' + c.rank + '</span><span class="s">' + SUITS[c.suit] + "</span>";
      el.innerHTML = '<span class="corner">' + corner + '</span><span class="pip">' +
        (/[JQK]/.test(c.rank) ? c.rank : SUITS[c.suit]) + '</span><span class="corner end">' + corner + "</span>";
    }
    el.setAttribute("aria-label", label(token));
    return el;
  }

  return { parse: parse, label: label, element: element, SUITS: SUITS };
})();
