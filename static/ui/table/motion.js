/* The felt's two short motions, decoration only: a play new on the felt moves in from its
   seat toward the centre, and a trick that leaves the felt slides to the seat that won it.
   The state is drawn first and whole; an animation then runs over what is already there
   (the Web Animations API, at most MOTION_MS), and the next action can be taken at once.
   Nothing moves under prefers-reduced-motion: reduce. */

const MOTION_MS = 240;

export function trickMotion(app) {
  const felt = app.querySelector(".felt");
  let shown = null;            // the trick drawn last: {key, plays: {pos: "tokens"}, winner}
  let drawnOnce = false;

  function still() {
    return !felt || !felt.animate || !window.matchMedia ||
      window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  /* Which trick the model shows: its leader and the lead's cards. */
  function keyOf(trick) {
    const lead = trick.plays[0];
    return lead ? lead.seat + ":" + lead.cards.join(",") : null;
  }

  function centreOf(node) {
    const r = node.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  function seatNode(pos) { return app.querySelector('.seat[data-pos="' + pos + '"]'); }

  /* Before the trick is drawn again: if the one on the felt is leaving, copies of its cards
     that will slide to its winner (taken now, while they are still in place). */
  function before(vm) {
    const key = keyOf(vm.trick);
    if (!shown || !shown.key || shown.key === key || still()) return null;
    // The winner: as the old trick drew it, or as the last trick says (when the update that
    // finished the trick also brought the next lead).
    let winner = shown.winner;
    const last = vm.lastTrick || [];
    if (winner == null && last.length && last[0].seat + ":" + last[0].cards.join(",") === shown.key) {
      const won = last.find((p) => p.won);
      if (won) winner = won.seat;
    }
    const seat = winner == null ? null : vm.seats.find((s) => s.seat === winner);
    if (!seat || !seatNode(seat.pos)) return null;
    const at = felt.getBoundingClientRect();
    const ghosts = [];
    app.querySelectorAll(".trick .play .cards-row").forEach((row) => {
      const r = row.getBoundingClientRect();
      const copy = row.cloneNode(true);
      copy.classList.add("ghost");
      copy.setAttribute("aria-hidden", "true");
      Object.assign(copy.style, { left: r.left - at.left + "px", top: r.top - at.top + "px",
                                  width: r.width + "px" });
      ghosts.push(copy);
    });
    return { ghosts: ghosts, to: seat.pos };
  }

  /* After the trick was drawn: the new plays come in from their seats, the old trick goes. */
  function after(vm, leaving) {
    const key = keyOf(vm.trick);
    const same = shown && shown.key === key;
    const plays = {};
    vm.trick.plays.forEach((p) => { plays[p.pos] = p.cards.join(","); });
    const won = vm.trick.plays.find((p) => p.won);
    const previous = shown;
    shown = { key: key, plays: plays, winner: won ? won.seat : null };
    const first = !drawnOnce;
    drawnOnce = true;
    if (first || still()) return;
    if (leaving) slideAway(leaving);
    vm.trick.plays.forEach((p) => {
      if (same && previous.plays[p.pos] === plays[p.pos]) return;
      arrive(p.pos);
    });
  }

  function arrive(pos) {
    const row = app.querySelector('.play[data-pos="' + pos + '"] .cards-row');
    const seat = seatNode(pos);
    if (!row || !seat) return;
    const from = centreOf(seat);
    const to = centreOf(row);
    row.animate([
      { transform: "translate(" + (from.x - to.x) + "px, " + (from.y - to.y) + "px) scale(.6)", opacity: 0.2 },
      { transform: "none", opacity: 1 },
    ], { duration: MOTION_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  function slideAway(leaving) {
    const seat = seatNode(leaving.to);
    const layer = document.createElement("div");
    layer.className = "trick-ghosts";
    layer.setAttribute("aria-hidden", "true");
    leaving.ghosts.forEach((g) => layer.appendChild(g));
    felt.appendChild(layer);
    const to = centreOf(seat);
    leaving.ghosts.forEach((g) => {
      const from = centreOf(g);
      g.animate([
        { transform: "none", opacity: 1 },
        { transform: "translate(" + (to.x - from.x) + "px, " + (to.y - from.y) + "px) scale(.35)", opacity: 0 },
      ], { duration: MOTION_MS + 40, easing: "ease-in", fill: "forwards" });
    });
    // Gone after its time whatever happens to the animation (a hidden tab pauses them).
    setTimeout(() => layer.remove(), MOTION_MS + 80);
  }

  return { before: before, after: after };
}
