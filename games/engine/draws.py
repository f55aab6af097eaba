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
from functools import lru_cache
from typing import Any, Final

_Random: Final = random.Random


def below(rng: Any, n: int) -> int:
    """``rng.randrange(n)`` (its errors too, for n < 1)."""
    if type(rng) is not _Random or n < 1:
        return rng.randrange(n)
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def choice(rng: Any, seq: Any) -> Any:
    """``rng.choice(seq)`` (its IndexError too, for an empty one)."""
    n = len(seq)
    if type(rng) is not _Random or not n:
        return rng.choice(seq)
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return seq[r]


def shuffle(rng: Any, x: list) -> None:
    """``rng.shuffle(x)``: in place, the same order."""
    if type(rng) is not _Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    i: int
    k: int
    j: int
    for i, k in _shuffle_steps(len(x)):
        j = getrandbits(k)
        while j > i:  # randrange(i + 1) by rejection
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


@lru_cache(maxsize=None)
def _shuffle_steps(size: int) -> "tuple[tuple[int, int], ...]":
    """(i, bits of i + 1) for i from size - 1 down to 1: the draws a shuffle of ``size``
    items makes, listed once per size (decks come in a few sizes)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
