"""What one seat may believe about the cards it has not seen, and deals drawn from it.

``Belief(machine, state, seat)`` reads only what that seat may know: its own hand, the
counts of every hand (public), the cards played in every trick, the classes a seat
showed it no longer holds (a follow short of the led class; point_bid's 无主
announcements), the declarations the table was shown (those cards are still held by the
declarer unless played), the kitty when the seat holds or buried it, and a kitty shown to
everyone (point_bid's 亮底, classic's turned kitty), which is then still in the dealer's
hand or in the kitty it buried. A declaration the table saw only by its size (four_deck's
and guigang's 暗叫, during the deal and in the window) is drawn afresh for each sample: that
many identical declarable cards, of an identity that keeps every declaration legal in its
turn (who, how many, what it overrode), held by the declarer from then on; the standing
declaration, and so the trump the window's close will name, follows from the drawn cards.
``sample(rng)`` returns a full state whose hidden cards (the other hands, a kitty the seat
was not shown) are a random deal consistent with all of that; everything else in the
state is kept, except what would give the real deal away (the seed and the dealt deck, a
kitty received that the seat never saw, other seats' special hands, the cards of their
hidden declarations). Nothing hidden of the real state goes in, so a decision made on samples
cannot depend on another seat's cards.

The deal is drawn card by card, the most constrained cards first, each into a zone that
may hold it with probability proportional to the room left (not exactly uniform over the
consistent deals, which would need counting them; close enough for a search). A dead end
(rare) is retried; after ``RETRIES`` the voids are relaxed rather than fail (a hidden
declaration's identity that leaves no room is drawn again until one fits: the real deal
always does).

Phases with a belief: the deal (the cards still to come are one more zone, ``deck``: the
seat cannot tell them from the other hands' cards; who receives each card, the deal order,
is public), the declaration window (every card dealt, the kitty unseen), the auction
(``bid``), the dealer's own ``trump`` and ``bury`` turns (the kitty in hand) and ``play``.
"""

from .cards import card, counts_of, full_deck, parse_cards
from .context import TRUMP

RETRIES = 30
PHASES = ("deal", "declare", "bid", "trump", "bury", "play")
TEN = 10


def routed(machine, state):
    """The machine for ``state`` (point_bid's table routes by its deck count)."""
    for_state = getattr(type(machine), "for_state", None)
    return machine.for_state(state) if for_state else machine


def _minus(counts, cards):
    for c in cards:
        if counts.get(c, 0) > 0:
            counts[c] -= 1


class Belief:
    """The seat's knowledge of the hidden cards; ``sample`` draws consistent deals."""

    def __init__(self, machine, state, seat):
        machine = routed(machine, state)
        self.machine = machine
        self.variant = v = machine.variant
        self.state = state
        self.seat = seat
        view = machine.view(state, seat)
        self.phase = phase = view["phase"]
        if phase not in PHASES:
            raise ValueError(f"no belief in phase {phase}")
        dealer = view["dealer"]
        self.ctx = machine.context(state) if phase == "play" else None
        counts = view["counts"]
        own = parse_cards(view["hand"])
        # The zones the hidden cards are in: the other hands, and the kitty while unseen.
        self.zones = [s for s in range(4) if s != seat]
        self.size = {s: counts[s] for s in self.zones}
        buried_by_me = phase == "play" and seat == dealer
        kitty_hidden = v.kitty_size and (
            phase in ("deal", "declare", "bid") or (phase == "play" and not buried_by_me))
        if kitty_hidden:
            self.zones.append("kitty")
            self.size["kitty"] = v.kitty_size
        self.dealt = sum(counts)
        if phase == "deal":
            self.zones.append("deck")
            self.size["deck"] = len(state["deck"]) - self.dealt
        pool = counts_of(full_deck(v.decks))
        _minus(pool, own)
        record = [(t["leader"], t["plays"]) for t in state["tricks"]]
        trick = state.get("trick") if phase == "play" else None
        if trick and trick["plays"]:
            record.append((trick["leader"], trick["plays"]))
        played = [[] for _ in range(4)]
        for leader, plays in record:
            for i, p in enumerate(plays):
                played[(leader + i) % 4].extend(p)
                _minus(pool, p)
        if buried_by_me:
            _minus(pool, state["kitty"])  # the dealer buried these itself
        self.unseen = sorted(c for c, n in pool.items() for _ in range(n))
        self.void = {z: set() for z in self.zones}
        if self.ctx is not None:
            cls = self.ctx.cls
            for leader, plays in record:
                led = cls[plays[0][0]]
                for i in range(1, len(plays)):
                    s = (leader + i) % 4
                    if s != seat and any(cls[c] != led for c in plays[i]):
                        self.void[s].add(led)
            for s in view.get("no_trump_seats") or ():
                if s != seat:
                    self.void[s].add(TRUMP)
        self.pinned = self._pins(view, dealer, played, kitty_hidden)
        # Declarations the seat saw only by their size (暗叫), drawn again for each sample.
        self.hidden = phase in ("deal", "declare") and any(
            d.get("count") and d.get("seat") != seat for d in view["declarations"])
        self.declarable = sorted(machine.declaration_cards(
            {"hands": [list(range(54))], "level": state["level"]}, 0)) if self.hidden else []
        self.known_kitty = buried_by_me or phase in ("trump", "bury") or bool(
            view.get("shown_kitty") or view.get("turned_kitty"))

    def _pins(self, view, dealer, played, kitty_hidden):
        """{seat: cards it must still hold}: declared cards (and a shown kitty for the
        dealer) not played since. A dealer who buried may have buried them: its pins go to
        its hand or the kitty."""
        seat = self.seat
        held = {}
        declared = [d for d in view["declarations"] if d.get("cards") and d.get("seat") is not None]
        for d in declared:
            most = held.setdefault(d["seat"], {})
            for c, n in counts_of(parse_cards(d["cards"])).items():
                most[c] = max(most.get(c, 0), n)
        hidden = [d for d in view["declarations"] if d.get("count") and d.get("seat") is not None]
        trump = view.get("trump")
        if hidden and self.phase == "play" and trump and self.variant.id == "guigang":
            # 暗叫 in 10s: the standing (last) declaration named trump with that many 10s.
            last = hidden[-1]
            most = held.setdefault(last["seat"], {})
            ten = card(trump, TEN)
            most[ten] = max(most.get(ten, 0), last["count"])
        shown = view.get("shown_kitty") or view.get("turned_kitty")
        if shown and dealer is not None:
            most = held.setdefault(dealer, {})
            for c, n in counts_of(parse_cards(shown)).items():
                most[c] = most.get(c, 0) + n  # kitty cards are others than the dealt hand's
        pool = counts_of(self.unseen)
        pins = {}
        for s, most in sorted(held.items()):
            if s == seat:
                continue
            left = counts_of(played[s])
            cards = []
            for c, n in sorted(most.items()):
                keep = min(n - min(left.get(c, 0), n), pool.get(c, 0))
                if keep > 0:
                    pool[c] -= keep
                    cards.extend([c] * keep)
            if cards:
                pins[s] = cards
        return pins

    def _may_hold(self, zone, c):
        return zone == "kitty" or self.ctx is None or self.ctx.cls[c] not in self.void[zone]

    def _declarations(self, rng, pool):
        """(the declarations with every hidden one drawn, the standing one after them, {seat:
        the drawn cards it must hold, in the order declared}) or None at a dead end. Each
        hidden declaration takes an identity of the declarable cards, uniformly among those
        that would have stood then and that the unseen cards can still supply (a seat's
        declarations of one identity share their cards, as the machine allows)."""
        machine, state = self.machine, self.state
        standing = None
        out, held = [], {}
        for d in state["declarations"]:
            s = d["seat"]
            cards = list(d["cards"])
            if s != self.seat:
                most = held.setdefault(s, {})
                k = len(cards)
                fits = [c for c in self.declarable
                        if pool.get(c, 0) >= max(0, k - most.get(c, 0))
                        and machine.declaration_allowed(
                            {"standing": standing, "level": state["level"]}, s, [c] * k)[0]]
                if not fits:
                    return None
                c = fits[int(rng.random() * len(fits))]
                pool[c] -= max(0, k - most.get(c, 0))
                most[c] = max(most.get(c, 0), k)
                cards = [c] * k
            standing = machine.declaration_allowed(
                {"standing": standing, "level": state["level"]}, s, cards)[1]
            out.append({"seat": s, "cards": cards})
        pins = {s: [c for c, n in most.items() for _ in range(n)] for s, most in held.items()}
        return out, standing, pins

    def _draw(self, rng, strict):
        room = dict(self.size)
        out = {z: [] for z in self.zones}
        pool = counts_of(self.unseen)
        kitty_for = self.state["dealer"] if "kitty" in room and self.phase == "play" else None
        pinned = self.pinned
        if self.hidden:
            drawn = self._declarations(rng, pool)
            if drawn is None:
                return None
            out["declarations"], out["standing"], pinned = drawn
            for s, cards in self.pinned.items():
                pinned.setdefault(s, []).extend(cards)
            pool = counts_of(self.unseen)
        # Pinned cards first: into their seat (or, for a dealer who buried, the kitty); in
        # the deal they are the first the seat received, so it held them when it declared.
        for s, cards in pinned.items():
            for c in cards:
                homes = [z for z in (s, "kitty" if s == kitty_for else None)
                         if z is not None and room.get(z, 0) > 0
                         and (not strict or self._may_hold(z, c))]
                if not homes:
                    if strict:
                        return None
                    continue
                z = _weighted(rng, homes, room)
                out[z].append(c)
                room[z] -= 1
                pool[c] -= 1
        rest = [c for c, n in sorted(pool.items()) for _ in range(n)]
        rng.shuffle(rest)
        eligible = {}
        for c in set(rest):
            eligible[c] = [z for z in self.zones if not strict or self._may_hold(z, c)]
        rest.sort(key=lambda c: len(eligible[c]))
        for c in rest:
            homes = [z for z in eligible[c] if room[z] > 0]
            if not homes:
                return None
            z = _weighted(rng, homes, room)
            out[z].append(c)
            room[z] -= 1
        return out

    def sample(self, rng):
        """A full state: the real public record and own hand, hidden cards drawn."""
        out = None
        for _ in range(RETRIES):
            out = self._draw(rng, strict=True)
            if out is not None:
                break
        while out is None:  # voids relaxed; a hidden declaration's dead end drawn again
            out = self._draw(rng, strict=False)
        state = self.state
        s = dict(state)
        s["hands"] = [list(state["hands"][i]) if i == self.seat else out[i] for i in range(4)]
        if "kitty" in out:
            s["kitty"] = out["kitty"]
        if self.hidden:
            s["declarations"], s["standing"] = out["declarations"], out["standing"]
        s["seed"] = "belief"
        if self.phase == "deal":
            s["deck"] = self._deck(s["hands"], out["deck"])
        else:
            s["deck"] = []
            s["deal_order"] = []
        if not self.known_kitty:
            s["kitty_received"] = []
        if s.get("specials"):
            s["specials"] = [sp for sp in s["specials"] if sp["seat"] == self.seat]
        if s.get("trick"):
            s["trick"] = dict(s["trick"])
        return s


    def _deck(self, hands, rest):
        """The deck in deal order: the cards dealt so far as the hands received them (the
        deal order says to whom each went), then the drawn cards still to come."""
        taken = [iter(h) for h in hands]
        return [next(taken[s]) for s in self.state["deal_order"][:self.dealt]] + rest


def _weighted(rng, zones, room):
    """A zone chosen with probability proportional to its room left."""
    total = sum(room[z] for z in zones)
    r = rng.random() * total
    for z in zones:
        r -= room[z]
        if r < 0:
            return z
    return zones[-1]

