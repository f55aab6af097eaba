"""The rule sets the platform offers, for the apps above games (the lobby's form, the API's
variant lists, the pages' labels): the engine is games' own (docs/architecture.md), so they
read variants here and never import games.engine."""

from games.engine.cards import FACES, SUITS, TOKENS, card, parse_cards
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.facts import fixed_teams, seat_team
from games.engine.registry import descriptor, descriptors, get_variant, variant_ids

__all__ = ["descriptor", "descriptor_or_none", "descriptors", "level_name", "rules_facts",
           "seat_team", "unit_format", "variant_ids", "variant_teams"]


def descriptor_or_none(variant_id):
    """The variant's descriptor, or None for a rule set that is not (or no longer) offered."""
    try:
        return descriptor(variant_id)
    except RuleError:
        return None


def variant_teams(rules):
    """A rule set's fixed partnerships ([[0, 2], [1, 3]], as a view's `teams`), or None where
    one plays against the other three and the sides change each hand: what a page shows
    before a hand's view tells it."""
    return fixed_teams() if rules.partnerships else None


def level_name(level):
    """A level (级) as players say it: 2..10, J, Q, K, A; "–" for none."""
    return FACES[level - 2] if isinstance(level, int) and 2 <= level <= 14 else "–"


# The rules pages' examples are drawn at this level (where the variant's cards have one) and
# with this trump suit: hearts, level 5 (a level that is no permanent trump rank anywhere).
SAMPLE_LEVEL = 5
SAMPLE_TRUMP = "H"


def _sample_level(rules):
    if not rules.levels:
        return rules.default_level
    return SAMPLE_LEVEL if SAMPLE_LEVEL in rules.levels else rules.levels[0]


def rules_facts(variant_id):
    """What a rules page states as fact, read from the engine's rules object (default
    options) so the page cannot disagree with the game: deck count, hand and kitty sizes,
    points in the deck, the largest group (2 pairs, 3 triples, 4 quads / bombs), which leads
    may be thrown ("all", "trump" or "none"), the levels, the ranks that are always trump,
    whether the level rank is trump and no-trump exists, and the trump order of the pages'
    sample hand (level, trump suit, then the trumps high to low, cards of equal rank together)."""
    rules = get_variant(variant_id)
    levels = tuple(rules.levels) or (rules.default_level,)
    suits = range(len(SUITS))

    def always_trump(face):
        return all(rules.context(level, trump).cls[card(suit, face)] == TRUMP
                   for level in levels for trump in suits for suit in suits)

    level = _sample_level(rules)
    trump = SUITS.index(SAMPLE_TRUMP)
    ctx = rules.context(level, trump)
    ladder = {}
    for c in sorted((c for c in range(len(TOKENS)) if ctx.cls[c] == TRUMP), key=lambda c: -ctx.rank[c]):
        ladder.setdefault(ctx.rank[c], []).append(TOKENS[c])
    level_trump = bool(rules.levels) and all(
        rules.context(lv, trump).cls[card(suit, lv)] == TRUMP for lv in rules.levels for suit in suits)
    return {
        "decks": rules.decks, "cards": rules.decks * len(TOKENS), "hand_size": rules.hand_size,
        "kitty_size": rules.kitty_size, "points_total": rules.points_total,
        "max_copies": rules.max_copies, "throws": rules.throws,
        "levels": [level_name(lv) for lv in rules.levels],
        "first_level": level_name(rules.first_level) if rules.first_level else None,
        "level_trump": level_trump,
        "permanent": [FACES[f - 2] for f in range(2, 15) if always_trump(f)],
        "no_trump": rules.allows_no_trump,
        # The level is named only where it changes the cards (not in guigang, RULES A30).
        "sample": {"level": level_name(level) if level_trump else None, "trump": SAMPLE_TRUMP,
                   "ladder": list(ladder.values())},
    }


def unit_format(variant_id, tokens, level=None, trump=SAMPLE_TRUMP):
    """The format (NOTATION §3: ["2x2"], ["2x1", "1x1"] …) of a lead of ``tokens`` (a list, or
    one string split on spaces) in the variant at ``level`` (the sample level when None)
    and ``trump``; RuleError for a lead that mixes classes or that the rules refuse."""
    rules = get_variant(variant_id)
    if isinstance(tokens, str):
        tokens = tokens.split()
    level = _sample_level(rules) if level is None else level
    ctx = rules.context(level, None if trump is None else SUITS.index(trump))
    shape = rules.lead_shape(ctx, parse_cards(tokens))
    units = sorted(shape.units, key=lambda u: (u.copies * u.length, u.copies), reverse=True)
    return [f"{u.copies}x{u.length}" for u in units]
