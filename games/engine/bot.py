"""Bots for empty seats: ``bot_action(state, seat) -> action dict | None``.

What a bot may know. ``seen(machine, state, seat)`` is the only function that reads the
state: the seat's own view (``machine.view``: its hand, the phase, level, trump, dealer,
public declarations), the public record of the hand (every trick played so far and the
current trick, which all four saw face up) and, for a dealer who buried, the kitty it
buried itself. Everything the bot decides is computed from that record, so another
seat's hand can never leak into a decision. Two rule checks are asked of the machine,
as a human asks the table by trying: whether a declaration would stand (the machine's
own ``declaration_allowed``) and, on apply, whether a throw stands; the bot only
attempts throws that are certain to stand against every card it has not seen.

The policy, in the order a hand goes:

- **Declare** (deal and window): for each declaration the machine would accept, score
  the trump suit it would name by how much of the hand becomes trump under that suit
  (the variant's own trump context decides what is trump, so level cards, jokers and
  permanent trumps count). Declare when that share is well above the third a hand
  holds on average, or at the window to take the deal/trump from the other side; in
  the window with nothing declared, declare the best option rather than force a redeal.
  Never override a partner.
- **Bury**: keep trumps and every point card; bury low plain cards, emptying the
  shortest suits first (a void lets the dealer ruff later), and break no pair or ace
  while a cheaper card is left.
- **Lead**: (1) a throw, or (2) a unit, that no unseen card can beat, in trump or in a
  suit where no opponent is known void (so it cannot be ruffed): it wins the trick for
  sure; (3) a low card in a suit the partner is void in and no opponent is, so the
  partner ruffs; (4) draw trumps with top trumps when the seat holds at least half of
  the trumps still out; (5) a plain pair or tractor without points, which makes the
  followers break their pairs (worth about 4 % of levels in bot-against-bot matches);
  (6) otherwise the cheapest single of the shortest plain suit (making a void), never
  a point card while another card is left.
- **Follow**: the legal plays are either all enumerated (when few) or built from the
  variant's own ``build_follow`` with a few card orders (cheapest, strongest, most
  points), so every candidate is legal by the variant's rules. Then:
  the partner is winning and no opponent can still beat it → give the most points,
  never a trump for it; the partner is winning but may be beaten → take the trick over
  with a play that holds, or else play cheap; an opponent is winning → win with the
  cheapest play that holds when the trick carries points (or winning costs nothing
  extra), ruffing a void suit with the lowest trump that holds; with 10+ points at stake
  and only risky winners, play the strongest; otherwise play the cheapest cards (no
  points, no trumps while plain cards are left; a discard from a short suit counts as
  a little cheaper, since it brings a void and a later ruff closer).
- **Bid** (point_bid's auction: any phase where the machine's ``legal_calls`` offers bids):
  estimate the points the hand can hold the defenders to from its trumps and top cards,
  and bid down only while the contract stays above that estimate. A lone dealer
  concedes a lot, so the estimate is cautious: only strong hands bid, and a redeal is
  preferred to a weak contract (once; after a redeal the last to speak loosens).
- **Name trump** (point_bid, after taking the kitty): the suit, or 全常主, under which
  most of the hand is trump. It never surrenders.
- Any phase the bot does not know: the machine's own ``auto_action``.

Where each part is: ``bot_seen`` (what the seat knows, what a card is worth), ``bot_calls``
(declaring, bidding, naming trump), ``bot_bury``, ``bot_lead``, ``bot_follow``; this
module asks the one the phase needs.
"""

from .bot_bury import bury_cards
from .bot_calls import bid_action, declare_action, trump_share
from .bot_follow import follow, follow_candidates
from .bot_lead import lead
from .bot_seen import lose_cost, seen, value
from .registry import machine_for

# The names the search bot, the rollouts and the tests take from here; their homes are the
# bot_* modules.
__all__ = ["bot_action", "bury_cards", "follow_candidates", "lose_cost", "seen", "value"]


def bot_action(state, seat):
    """The action the bot in ``seat`` takes now, or None when it has nothing to do. The
    policy is deterministic, so a replayed hand replays its bots too."""
    machine = machine_for(state["variant"])
    k = seen(machine, state, seat)
    if k.phase in ("deal", "declare"):
        return declare_action(k)
    if k.phase == "end" or k.turn != seat:
        return None
    if k.phase == "bury":
        return {"type": "bury", "seat": seat, "cards": bury_cards(k)}
    if k.phase == "play":
        cards = follow(k) if k.plays else lead(k)
        return {"type": "play", "seat": seat, "cards": cards}
    bids = [c for c in k.calls if c["type"] == "bid"]
    if bids:
        return bid_action(k, bids)
    trumps = [c for c in k.calls if c["type"] == "name_trump"]
    if trumps:
        return max(trumps, key=lambda c: trump_share(k, _suit_index(c["trump"])))
    return k.machine.auto_action(state, seat)  # the platform's own 托管 for this seat


def _suit_index(token):
    return None if token is None else "SHCD".index(token)
