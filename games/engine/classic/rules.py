"""``classic`` (seed 000): two decks, kitty of 8, declaration during the deal, throws.

RULES §2. The trick rules (throws with the own-hand check of A7, following, the trick
winner) are the two-deck family's (families/two_deck.py), settlement and the level wrap
the level family's (families/levels.py); this module adds the trump context (§2.4),
declarations (§2.2, A4, A5), the kitty bonus (§2.8, A11) and the score table (§2.9).
"""

from ..cards import BJ, LJ, card, face_of, suit_of
from ..context import TRUMP, Chain, TrumpContext
from ..families.levels import LevelFamily
from ..families.two_deck import TwoDeckFamily
from ..native import mypyc_attr

LEVELS = tuple(range(2, 15))  # 2 … A, then wrap (A3)


def declaration_strength(level, cards):
    """(strength, trump suit) of a classic declaration, or None if ``cards`` is none (RULES §2.2)."""
    if len(cards) == 2 and cards[0] == cards[1]:
        if cards[0] == BJ:
            return 4, None
        if cards[0] == LJ:
            return 3, None
        if face_of(cards[0]) == level:
            return 2, suit_of(cards[0])
        return None
    if len(cards) == 1 and face_of(cards[0]) == level:
        return 1, suit_of(cards[0])
    return None


def trump_from_kitty(level, kitty):
    """A5: the kitty read in order as declarations; the strongest, earliest completed wins.
    Returns (found, trump)."""
    seen = {}
    best = None  # (strength, trump)
    for c in kitty:
        seen[c] = seen.get(c, 0) + 1
        if c in (BJ, LJ):
            found = (4 if c == BJ else 3, None) if seen[c] == 2 else None
        elif face_of(c) == level:
            found = (2 if seen[c] == 2 else 1, suit_of(c))
        else:
            found = None
        if found and (best is None or found[0] > best[0]):
            best = found
    if best is None:
        return False, None
    return True, best[1]


@mypyc_attr(allow_interpreted_subclasses=True)
class Classic(TwoDeckFamily, LevelFamily):
    id = "classic"
    decks = 2
    hand_size = 25
    kitty_size = 8
    max_copies = 2
    points_total = 200
    throws = "all"
    own_hand_check = True
    levels = LEVELS
    first_level: "int | None" = 2
    allows_no_trump = True

    def build_context(self, level, trump):
        cls = [0] * 54
        rank = [0] * 54
        for c in range(52):
            s, f = suit_of(c), face_of(c)
            if f == level:
                cls[c] = TRUMP
                rank[c] = 98 if s == trump else 97
            elif s == trump:
                cls[c] = TRUMP
                rank[c] = f
            else:
                cls[c] = s
                rank[c] = f
        cls[LJ] = cls[BJ] = TRUMP
        rank[LJ], rank[BJ] = 99, 100
        faces_down = [f for f in range(14, 1, -1) if f != level]
        chains = []
        if trump is None:
            chains.append(Chain([[BJ], [LJ], [card(s, level) for s in range(4)]], TRUMP))
        else:
            off_level = [card(s, level) for s in range(4) if s != trump]
            chains.append(
                Chain(
                    [[BJ], [LJ], [card(trump, level)], off_level]
                    + [[card(trump, f)] for f in faces_down],
                    TRUMP,
                )
            )
        for s in range(4):
            if s != trump:
                chains.append(Chain([[card(s, f)] for f in faces_down], s))
        return TrumpContext(self.id, level, trump, cls, rank, chains)

    # --- declaration ------------------------------------------------------------------

    def declaration(self, level, cards):
        return declaration_strength(level, cards)

    def declaration_stands(self, standing, seat, cards, level):
        """(stands, new standing) for a declaration attempt; ``standing`` is
        (seat, strength, trump, cards) or None. A4: strictly stronger, anyone."""
        d = declaration_strength(level, cards)
        if d is None:
            return False, standing
        if standing is not None and d[0] <= standing[1]:
            return False, standing
        return True, (seat, d[0], d[1], list(cards))

    def trump_without_declaration(self, level, kitty):
        return trump_from_kitty(level, kitty)

    # --- end of hand ----------------------------------------------------------------

    def kitty_multiplier(self, lead_units):
        """RULES §2.8 (A11): from the last trick's lead as actually led."""
        longest = max((u.length for u in lead_units if u.length >= 2), default=0)
        if longest:
            return 2 * 2**longest
        if any(u.copies == 2 for u in lead_units):
            return 4
        return 2

    def score(self, defender_points):
        """RULES §2.9: (winner, levels, advance, next_dealer)."""
        x = defender_points
        if x <= 0:
            return "dealer", 3, 3, "partner"
        if x < 40:
            return "dealer", 2, 2, "partner"
        if x < 80:
            return "dealer", 1, 1, "partner"
        levels = 1 + (x - 80) // 40
        return "defenders", levels, levels - 1, "next"


CLASSIC = Classic()

