"""Evaluate ``rules_check`` cases (CONFORMANCE.md) against the engine.

Input checking runs in the contract's order of precedence: structure (bad_input),
then card tokens (bad_card), trump (bad_trump), level (bad_level), the physical
deck limit (impossible_cards), and only then the rules themselves. The card kinds that
every variant answers alike are here; what one variant adds (its kinds, its fields, its
own answers) is its adapter in conformance_adapters.py.
"""

from collections import Counter

from .cards import FACE_VALUE, SUITS, format_cards, is_submultiset, parse_card
from .conformance_adapters import ADAPTERS
from .errors import RuleError, given
from .registry import get_variant
from .units import format_of

KINDS = ("lead", "throw", "follow", "winner", "kitty", "score", "settle", "declare", "special")
CARD_KINDS = ("lead", "throw", "follow", "winner", "kitty")
_MISSING = object()


class _Cards:
    """A card list whose tokens are parsed after every structural check has passed."""

    __slots__ = ("tokens", "cards")

    def __init__(self, tokens):
        self.tokens = tokens
        self.cards = None


def bad(message):
    return RuleError("bad_input", message)


def _get(case, name, default=_MISSING):
    if name in case:
        return case[name]
    if default is _MISSING:
        raise bad(f"missing field {name!r}")
    return default


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Reader:
    """Checks one case's fields by type name and keeps its card lists for later parsing."""

    def __init__(self, case, hand_size):
        self.case = case
        self.hand_size = hand_size
        self.card_lists = []

    def cards(self, value, name, nonempty=False):
        if not isinstance(value, list):
            raise bad(f"{name} must be a list of cards")
        if nonempty and not value:
            raise bad(f"{name} must not be empty")
        cl = _Cards(value)
        self.card_lists.append(cl)
        return cl

    def field(self, name, spec):
        """``spec`` is a type name; a trailing '?' makes the field optional (null/absent)."""
        optional = spec.endswith("?")
        kind = spec.rstrip("?")
        value = _get(self.case, name, None if optional else _MISSING)
        if value is None:
            if optional:
                return None
            raise bad(f"{name} must not be null")
        if kind == "int":
            if not _is_int(value):
                raise bad(f"{name} must be an integer")
            return value
        if kind == "pos_int":
            if not _is_int(value) or value <= 0:
                raise bad(f"{name} must be a positive integer")
            return value
        if kind == "nonneg_int":
            if not _is_int(value) or value < 0:
                raise bad(f"{name} must be a non-negative integer")
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                raise bad(f"{name} must be true or false")
            return value
        if kind == "seat":
            if not _is_int(value) or not 0 <= value <= 3:
                raise bad(f"{name} must be a seat 0-3")
            return value
        if kind == "side":
            if value not in ("dealer", "defenders"):
                raise bad(f"{name} must be 'dealer' or 'defenders'")
            return value
        if kind == "cards":
            return self.cards(value, name)
        if kind == "cards+":
            return self.cards(value, name, nonempty=True)
        if kind == "hand":  # a whole dealt hand; its size is structure, checked before tokens
            cl = self.cards(value, name)
            if len(value) != self.hand_size:
                raise bad(f"{name} must be the {self.hand_size} dealt cards")
            return cl
        if kind == "declarations":
            if not isinstance(value, list):
                raise bad("declarations must be a list")
            out = []
            for d in value:
                if not isinstance(d, dict):
                    raise bad("a declaration must be an object")
                seat = _get(d, "seat")
                if not _is_int(seat) or not 0 <= seat <= 3:
                    raise bad("declaration seat must be 0-3")
                out.append((seat, self.cards(_get(d, "cards"), "declaration cards", nonempty=True)))
            return out
        if kind == "bids":
            if not isinstance(value, list):
                raise bad("bids must be a list")
            out = []
            for b in value:
                if not isinstance(b, dict):
                    raise bad("a bid must be an object")
                seat = _get(b, "seat")
                amount = _get(b, "bid", None)
                if not _is_int(seat) or not 0 <= seat <= 3:
                    raise bad("bid seat must be 0-3")
                if amount is not None and not _is_int(amount):
                    raise bad("a bid must be an integer or null")
                out.append((seat, amount))
            return out
        raise AssertionError(f"unknown field type {spec}")

    def parse_cards(self):
        for cl in self.card_lists:
            cl.cards = [parse_card(t) if isinstance(t, str) else parse_card(None) for t in cl.tokens]


def _fields(reader, specs):
    return {name: reader.field(name, spec) for name, spec in specs.items()}


def _physical(decks, *sets):
    """impossible_cards if an identity occurs more than ``decks`` times within one set."""
    for group in sets:
        count = Counter()
        for cl in group:
            if cl is not None:
                count.update(cl.cards)
        if count and max(count.values()) > decks:
            raise RuleError("impossible_cards", "a card occurs more often than the decks allow")


def evaluate(case):
    """The result dict of one case, or RuleError with the contract's code."""
    if not isinstance(case, dict):
        raise bad("a case must be an object")
    kind = case.get("kind")
    if kind not in KINDS:
        raise RuleError("unknown_kind", f"no such kind: {kind!r}", kind=given(kind))
    variant = get_variant(case.get("variant"))
    adapter = ADAPTERS.get(variant.id)
    if adapter is None or kind not in adapter.kinds:
        raise RuleError("not_applicable", f"{kind} is not defined for {variant.id}", kind=kind, variant=variant.id)

    decks = variant.decks
    if adapter.takes_decks:
        decks = _get(case, "decks", 2)
        if decks not in (1, 2) or isinstance(decks, bool):
            raise bad("decks must be 1 or 2")
    v = variant.with_decks(decks) if decks != variant.decks else variant
    reader = Reader(case, v.hand_size)
    f = _kind_fields(reader, kind)
    f.update(_fields(reader, adapter.fields.get(kind, {})))

    reader.parse_cards()
    trump = _trump(variant, case, kind)
    level = _level(variant, adapter, case, kind)
    _physical_check(decks, kind, f)
    f["level"] = level
    ctx = v.context(level, trump) if kind in CARD_KINDS or kind == "special" else None
    answer = getattr(adapter, kind, None)
    if answer is not None:
        return answer(v, ctx, f)
    return _GENERIC[kind](v, ctx, f)


def _kind_fields(reader, kind):
    specs = {
        "lead": {"cards": "cards+"},
        "throw": {"cards": "cards+", "hand": "cards?"},
        "follow": {"lead": "cards+", "hand": "cards", "play": "cards+"},
        "kitty": {"lead": "cards+", "winner_side": "side"},
        "settle": {"base": "pos_int", "dealer": "seat", "escape": "seat?"},
    }.get(kind, {})
    f = _fields(reader, specs)
    case = reader.case
    if kind == "throw":
        others = _get(case, "others")
        if not isinstance(others, list) or len(others) != 3:
            raise bad("others must be 3 card lists")
        f["others"] = [reader.cards(o, "others") for o in others]
    elif kind == "winner":
        plays = _get(case, "plays")
        if not isinstance(plays, list) or len(plays) != 4:
            raise bad("plays must be 4 card lists")
        f["plays"] = [reader.cards(p, "plays", nonempty=True) for p in plays]
        if len({len(p.tokens) for p in f["plays"]}) != 1:
            raise bad("plays must have equal length")
    elif kind == "settle":
        escaped = f["escape"] is not None
        f["winner"] = reader.field("winner", "side?" if escaped else "side")
        f["levels"] = reader.field("levels", "nonneg_int?" if escaped else "nonneg_int")
    return f


def _trump(variant, case, kind):
    if kind not in CARD_KINDS and kind != "special":
        return None
    t = case.get("trump")
    if t is None:
        if not variant.allows_no_trump:
            raise RuleError("bad_trump", f"{variant.id} always has a trump suit", trump=None)
        return None
    if not isinstance(t, str) or len(t) != 1 or t not in SUITS:
        raise RuleError("bad_trump", f"not a suit letter: {t!r}", trump=given(t))
    return SUITS.index(t)


def _level(variant, adapter, case, kind):
    if not adapter.level_required or (kind not in CARD_KINDS and kind != "declare"):
        return variant.default_level
    level = case.get("level")
    if not isinstance(level, str) or level not in FACE_VALUE or FACE_VALUE[level] not in variant.levels:
        raise RuleError("bad_level", f"not a level: {level!r}", level=given(level))
    return FACE_VALUE[level]


def _physical_check(decks, kind, f):
    if kind == "lead":
        _physical(decks, [f["cards"]])
    elif kind == "throw":
        if f["hand"] is not None:
            _physical(decks, f["others"] + [f["hand"]])
        else:
            _physical(decks, f["others"] + [f["cards"]])
    elif kind == "follow":
        _physical(decks, [f["lead"], f["hand"]])
    elif kind == "winner":
        _physical(decks, f["plays"])
    elif kind == "kitty":
        _physical(decks, [f["lead"]], [f.get("winning_play")])
    elif kind == "declare":
        _physical(decks, *[[cl] for _, cl in f.get("declarations") or []], [f.get("kitty")])
    elif kind == "special":
        _physical(decks, [f["hand"]])


# --- the card kinds, the same for every variant ---------------------------------------


def _rc_lead(v, ctx, f):
    try:
        shape = v.lead_shape(ctx, f["cards"].cards)
    except RuleError:
        return {"legal": False}
    return {"legal": True, "format": format_of(shape.units)}


def _rc_throw(v, ctx, f):
    cards = f["cards"].cards
    hand = f["hand"].cards if f["hand"] is not None else None
    if ctx.class_of_cards(cards) is None:
        raise RuleError("illegal_lead", "a lead must be all of one class", reason="mixed")
    if hand is not None and not is_submultiset(cards, hand):
        raise RuleError("play_not_in_hand", "the thrown cards are not all in the hand")
    ok, played, reason = v.throw_result(ctx, cards, [o.cards for o in f["others"]], hand)
    result = {"ok": ok, "played": format_cards(played)}
    if not ok:
        result["reason"] = reason
    return result


def _rc_follow(v, ctx, f):
    shape = v.lead_shape(ctx, f["lead"].cards)
    hand, play = f["hand"].cards, f["play"].cards
    if not is_submultiset(play, hand):
        raise RuleError("play_not_in_hand", "the play is not part of the hand")
    return {"legal": v.is_legal_follow(ctx, shape, hand, play)}


def _rc_winner(v, ctx, f):
    plays = [p.cards for p in f["plays"]]
    shape = v.lead_shape(ctx, plays[0])
    return {"winner": v.trick_winner(ctx, plays, shape)}


def _rc_settle(v, ctx, f):
    deltas = v.settle(base=f["base"], dealer=f["dealer"], winner=f["winner"], levels=f["levels"], escape=f["escape"])
    return {"deltas": deltas}


_GENERIC = {
    "lead": _rc_lead,
    "throw": _rc_throw,
    "follow": _rc_follow,
    "winner": _rc_winner,
    "settle": _rc_settle,
}


def run_cases(cases):
    """Results in input order: {"id", "result"} or {"id", "error"}."""
    out = []
    for case in cases:
        cid = case.get("id") if isinstance(case, dict) else None
        try:
            out.append({"id": cid, "result": evaluate(case)})
        except RuleError as e:
            out.append({"id": cid, "error": e.code})
    return out


def _equal(key, want, got):
    if key == "played" and isinstance(want, list) and isinstance(got, list):
        return Counter(map(str, want)) == Counter(map(str, got))
    return want == got


def check(case, output):
    """True iff ``output`` meets the case's ``expect`` (CONFORMANCE §1 --check)."""
    expect = case.get("expect") if isinstance(case, dict) else None
    if not isinstance(expect, dict):
        return False
    if "error" in expect:
        return output.get("error") == expect["error"]
    result = output.get("result")
    if result is None:
        return False
    return all(k in result and _equal(k, v, result[k]) for k, v in expect.items())
