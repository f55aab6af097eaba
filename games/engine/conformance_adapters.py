"""What ``rules_check`` (conformance.py) asks of each variant, by variant id.

The card kinds ``lead``, ``throw``, ``follow``, ``winner`` and ``settle`` are answered
the same way for every variant, from the rule hooks (conformance.py). What differs per
variant lives here (CONFORMANCE §3): the kinds it defines, the input fields it adds, and
a method per kind it answers itself (``kitty``, ``score``, ``declare``, and point_bid's
``special`` and ``settle``), each taking the rules, the trump context (card kinds only)
and the checked, parsed fields. The rule classes know nothing of rules_check.
"""

from .cards import SUITS
from .errors import RuleError
from .four_deck.rules import SPADES
from .point_bid.rules import (
    BID_MAX,
    BID_STEP,
    SCORE_STEP,
    SURRENDER_MIN,
    apply_bid,
    is_bid_amount,
    special_hand,
    start_bidding,
)


class Adapter:
    kinds = frozenset(("lead", "throw", "follow", "winner", "kitty", "score", "settle", "declare"))
    # {kind: {field: type}} beyond the fields every variant's case of that kind has.
    fields = {}
    level_required = True  # card kinds and ``declare`` need a valid ``level``
    takes_decks = False  # the case may name its deck count (point_bid, A21)


# --- the level games: classic, four_deck, guigang ---------------------------------------


class LevelAdapter(Adapter):
    def score(self, v, ctx, f):
        winner, levels, advance, next_dealer = v.score(f["defender_points"])
        return {"winner": winner, "levels": levels, "advance": advance, "next_dealer": next_dealer}

    def declarations(self, v, f):
        """The declarations of a ``declare`` case in time order: (stands, final standing)."""
        if not f["first_hand"] and f["dealer"] is None:
            raise RuleError("bad_input", "a later hand needs its dealer")
        standing = None
        stands = []
        for seat, cl in f["declarations"]:
            ok, standing = v.declaration_stands(standing, seat, cl.cards, f["level"])
            stands.append(ok)
        return stands, standing


class ClassicAdapter(LevelAdapter):
    fields = {
        "kitty": {"kitty_points": "int"},
        "score": {"defender_points": "int"},
        "declare": {
            "first_hand": "bool",
            "dealer": "seat?",
            "declarations": "declarations",
            "kitty": "cards?",
        },
    }

    def kitty(self, v, ctx, f):
        """§2.8: the multiplier from the last lead, for the defenders only."""
        if f["winner_side"] != "defenders":
            return {"multiplier": 0, "points": 0}
        m = v.kitty_multiplier(v.lead_shape(ctx, f["lead"].cards).units)
        return {"multiplier": m, "points": f["kitty_points"] * m}

    def declare(self, v, ctx, f):
        first_hand = f["first_hand"]
        stands, standing = self.declarations(v, f)
        result = {"stands": stands, "redeal": False, "from_kitty": False}
        if standing is not None:
            result["trump"] = SUITS[standing[2]] if standing[2] is not None else None
            result["dealer"] = standing[0] if first_hand else f["dealer"]
            return result
        if first_hand:
            return dict(result, trump=None, dealer=None, redeal=True)
        if f["kitty"] is None:
            raise RuleError("bad_input", "no declaration stands and the case has no kitty")
        _, trump = v.trump_without_declaration(f["level"], f["kitty"].cards)
        result.update(trump=SUITS[trump] if trump is not None else None, dealer=f["dealer"], from_kitty=True)
        return result


class FourDeckFamilyAdapter(LevelAdapter):
    fields = {
        "kitty": {"trick_points": "int"},
        "score": {"defender_points": "int"},
        "declare": {"first_hand": "bool", "dealer": "seat?", "declarations": "declarations"},
    }

    def kitty(self, v, ctx, f):
        """扣底/摳底 (§3.8, §5.8)."""
        m, points = v.last_trick_bonus(len(f["lead"].cards), f["trick_points"], f["winner_side"])
        return {"multiplier": m, "points": points}


class FourDeckAdapter(FourDeckFamilyAdapter):
    def declare(self, v, ctx, f):
        stands, standing = self.declarations(v, f)
        trump = SPADES if standing is None else standing[2]
        if not f["first_hand"]:
            dealer = f["dealer"]
        else:
            dealer = 0 if standing is None else standing[0]  # A13
        return {"stands": stands, "trump": SUITS[trump], "dealer": dealer, "redeal": False}


class GuigangAdapter(FourDeckFamilyAdapter):
    level_required = False  # A30: recorded, never read

    def declare(self, v, ctx, f):
        first_hand = f["first_hand"]
        stands, standing = self.declarations(v, f)
        if standing is None:
            return {"stands": stands, "trump": None, "dealer": None if first_hand else f["dealer"], "redeal": True}
        return {
            "stands": stands,
            "trump": SUITS[standing[1]],
            "dealer": standing[0] if first_hand else f["dealer"],
            "redeal": False,
        }


# --- point_bid ----------------------------------------------------------------------------


class PointBidAdapter(Adapter):
    kinds = Adapter.kinds | {"special"}
    level_required = False
    takes_decks = True
    fields = {
        "kitty": {"winning_play": "cards+", "kitty_points": "nonneg_int"},
        "score": {
            "bid": "int",
            "defender_points": "int",
            "bonus": "int?",
            "surrender": "bool?",
        },
        "settle": {"multiplier": "pos_int?"},
        "declare": {"first_bidder": "seat", "bids": "bids"},
        "special": {"hand": "hand"},
    }

    def kitty(self, v, ctx, f):
        m = v.kitty_multiplier(ctx, f["winner_side"], f["winning_play"].cards)
        return {"multiplier": m, "points": f["kitty_points"] * m}

    def score(self, v, ctx, f):
        bid = f["bid"]
        if not is_bid_amount(bid):
            raise RuleError("bad_input", f"bid must be a multiple of {BID_STEP} from 0 to {BID_MAX}")
        surrender = bool(f["surrender"])
        if surrender and bid < SURRENDER_MIN:
            raise RuleError("bad_input", f"surrender needs a contract of at least {SURRENDER_MIN}")
        winner, levels, m, nxt = v.score(
            bid=bid, defender_points=f["defender_points"], bonus=f["bonus"] or 0, surrender=surrender
        )
        return {"winner": winner, "levels": levels, "multiplier": m, "next_first_bidder": nxt}

    def declare(self, v, ctx, f):
        bidding = start_bidding(f["first_bidder"])
        accepted = []
        for seat, amount in f["bids"]:
            try:
                bidding = apply_bid(bidding, seat, amount)
                accepted.append(True)
            except RuleError:
                accepted.append(False)
        done = bidding.over
        return {
            "accepted": accepted,
            "complete": done,
            "dealer": bidding.dealer if done else None,
            "bid": bidding.bid if done else None,
            "redeal": bidding.redeal,
        }

    def special(self, v, ctx, f):
        name, passes = special_hand(ctx.trump, f["hand"].cards, v.decks)
        return {"name": name, "passes": passes, "points": SCORE_STEP * passes}

    def settle(self, v, ctx, f):
        m = f["multiplier"] or 1
        if m not in (1, 2, 4, 8):
            raise RuleError("bad_input", "multiplier must be 1, 2, 4 or 8")
        return {
            "deltas": v.settle(
                base=f["base"], dealer=f["dealer"], winner=f["winner"], levels=f["levels"],
                escape=f["escape"], multiplier=m,
            )
        }


ADAPTERS = {
    "classic": ClassicAdapter(),
    "four_deck": FourDeckAdapter(),
    "point_bid": PointBidAdapter(),
    "guigang": GuigangAdapter(),
}
