"""draws.py gives what random.Random's own methods give and leaves the generator where they
leave it, so a seed deals and plays exactly what it did before the shortcut; any other
generator is asked through its own methods."""

import random

import pytest

from games.engine.draws import below, choice, shuffle

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 54, 108, 216, 1000, 2**40 + 3]


@pytest.mark.parametrize("seed", range(20))
def test_below_is_randrange(seed):
    mine, theirs = random.Random(seed), random.Random(seed)
    for n in SIZES * 20:
        assert below(mine, n) == theirs.randrange(n)
    assert mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(20))
def test_choice_is_random_choice(seed):
    mine, theirs = random.Random(seed), random.Random(seed)
    for n in SIZES[:12] * 20:
        seq = list(range(100, 100 + n))
        assert choice(mine, seq) == theirs.choice(seq)
    assert mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("size", [0, 1, 2, 25, 108, 216])
def test_shuffle_is_random_shuffle(seed, size):
    mine, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(mine, a)
    theirs.shuffle(b)
    assert a == b
    assert mine.getstate() == theirs.getstate()


def test_the_errors_of_random_are_kept():
    rng = random.Random(1)
    with pytest.raises(ValueError):
        below(rng, 0)
    with pytest.raises(IndexError):
        choice(rng, [])


class Counting(random.Random):
    """A generator of another kind: its own methods must answer."""

    def __init__(self, seed):
        super().__init__(seed)
        self.asked = []

    def randrange(self, *args):
        self.asked.append("randrange")
        return super().randrange(*args)

    def choice(self, seq):
        self.asked.append("choice")
        return super().choice(seq)

    def shuffle(self, x):
        self.asked.append("shuffle")
        super().shuffle(x)


def test_another_kind_of_generator_is_asked_through_its_own_methods():
    rng = Counting(3)
    below(rng, 10)
    choice(rng, [1, 2, 3])
    shuffle(rng, [1, 2, 3])
    assert rng.asked == ["randrange", "choice", "shuffle"]
