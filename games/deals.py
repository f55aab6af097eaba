"""Deals nobody can predict and everybody can check afterwards.

Each hand is shuffled from its own seed, an HMAC of the table and the hand's number under
settings.DEAL_SECRET, a server secret no player or operator sees: knowing every earlier
hand's seed tells nothing of the next. When the hand starts, its `hand_started` event
publishes the seed's commitment (SHA-256 of the seed); when it ends (or is voided) a
`deal_revealed` event and the Hand row reveal the seed, and anyone can recompute the
deal from it (`manage.py verify_deal HAND`): the engine's shuffle is a pure function of
the seed, the hand number in the match and the redeal count (HandMachine.shuffled).

A table may instead be opened with its hands' seeds given (DealPreset): every table of a
duplicate board is dealt from the board's seed, so the same seat receives the same cards at
each, in the same order (the order too comes from the seed alone).
"""

import hashlib
import hmac

from django.conf import settings

from games.engine.cards import TOKENS
from games.engine.registry import machine_for
from games.models import DealPreset


def _deal_secret():
    """settings.DEAL_SECRET, or one derived from SECRET_KEY when it is not set."""
    if settings.DEAL_SECRET:
        return settings.DEAL_SECRET.encode()
    return hmac.new(settings.SECRET_KEY.encode(), b"tractor deal secret",
                    hashlib.sha256).digest()


def deal_seed(*, table_id, hand_number):
    """The secret seed of hand `hand_number` at table `table_id` (64 hex digits). A table
    opened with preset deals (a duplicate board's, DealPreset) is dealt from those and
    plays no other hand: None past its last one."""
    presets = dict(DealPreset.objects.filter(table_id=table_id)
                   .values_list("hand_number", "seed"))
    if presets:
        return presets.get(hand_number)
    message = f"deal:{table_id}:{hand_number}".encode()
    return hmac.new(_deal_secret(), message, hashlib.sha256).hexdigest()


def deal_commitment(seed):
    """What the table publishes at the deal: the seed's SHA-256, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def deal_problems(*, hand, events):
    """What does not match between a finished `hand` (its revealed seed and commitment) and
    its event log `events` (games.selectors.hand_replay_events): a list of sentences,
    empty when the seed is the one committed to and every deal, redeals included, is the
    one the seed makes."""
    if not hand.seed:
        return ["the seed is not revealed: the hand has not ended"]
    problems = []
    commitment = deal_commitment(hand.seed)
    published = [e["payload"].get("deal_commitment") for e in events
                 if e["type"] == "hand_started"]
    if published != [commitment] or hand.deal_commitment != commitment:
        problems.append(f"the seed's commitment {commitment} is not the one published at the "
                        f"deal ({published or hand.deal_commitment or 'none'})")
    revealed = next((e["payload"] for e in events if e["type"] == "deal_revealed"), None)
    if revealed is None or revealed.get("seed") != hand.seed:
        return problems + ["no deal_revealed event names this seed"]
    setup = {"variant": hand.variant, "options": revealed["options"], "seed": hand.seed,
             "hand_no": revealed["hand_no"], "redeals": 0}
    deals = [[]]
    for event in events:
        if event["type"] == "redeal":
            deals.append([])
        elif event["type"] == "dealt":
            deals[-1].append((event["audience"], event["payload"]["card"]))
    machine = machine_for(hand.variant)
    for redeals, dealt in enumerate(deals):
        kitty, deck, order = machine.shuffled(dict(setup, redeals=redeals))
        expected = [(order[i], TOKENS[deck[i]]) for i in range(min(len(dealt), len(deck)))]
        if len(dealt) > len(deck):
            problems.append(f"deal {redeals + 1}: {len(dealt)} cards dealt from {len(deck)}")
        elif dealt != expected:
            first = next(i for i, pair in enumerate(dealt) if pair != expected[i])
            problems.append(f"deal {redeals + 1}: card {first + 1} went {dealt[first]}, the "
                            f"seed makes it {expected[first]}")
    given = [sorted(e["payload"]["cards"]) for e in events if e["type"] == "kitty"]
    if given and given[-1] != sorted(TOKENS[c] for c in kitty):
        problems.append("the kitty the dealer picked up is not the one the seed makes")
    return problems
