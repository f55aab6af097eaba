"""Random draws that give exactly what ``random.Random``'s methods give, for less.

``Random.choice``, ``randrange(n)`` and ``shuffle`` reach ``getrandbits`` through two or
three Python-level calls per draw; a random player draws once or more per play and a deal
shuffles 108 or 216 cards, so those calls cost more than the rules. These functions call
``getrandbits`` directly, the way ``Random._randbelow_with_getrandbits`` does, and so
consume the generator identically: a seed deals the same hands and plays the same cards
as before (tests/games/engine/test_draws.py compares them). Any other generator (a
subclass, Hypothesis' randoms) goes through its own methods.
"""

import random

_Random = random.Random


def below(rng, n):
    """``rng.randrange(n)`` (its errors too, for n < 1)."""
    if type(rng) is not _Random or n < 1:
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def choice(rng, seq):
    """``rng.choice(seq)`` (its IndexError too, for an empty one)."""
    n = len(seq)
    if type(rng) is not _Random or not n:
        return rng.choice(seq)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return seq[r]


def shuffle(rng, x):
    """``rng.shuffle(x)``: in place, the same order."""
    if type(rng) is not _Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
