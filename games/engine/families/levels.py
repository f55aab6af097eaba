"""What the games in which teams climb levels share (classic, four_deck, guigang; RULES
§1.6): the team settlement and escape of §2.10 (A12), which four_deck (A20) and guigang
(A35) take over, and the wrap after A (A3). Each variant keeps its own score table."""

from ..native import mypyc_attr, trait


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class LevelFamily:
    """A mixin beside a variant's trick family: ``class Classic(TwoDeckFamily, LevelFamily)``;
    a trait, the one kind of second base a compiled class may have (games/engine/native.py)."""

    def settle(self, *, base, dealer, winner, levels, escape=None):
        """RULES §2.10 (A12): winner team +base×levels each, losers −base×levels; an
        escaper pays 3×base, the escaper's two opponents get base each, the partner 0."""
        if escape is not None:
            deltas = [0, 0, 0, 0]
            deltas[escape] = -3 * base
            deltas[(escape + 1) % 4] = base
            deltas[(escape + 3) % 4] = base
            return deltas
        dealer_team = dealer % 2
        winners = dealer_team if winner == "dealer" else 1 - dealer_team
        return [base * levels if s % 2 == winners else -base * levels for s in range(4)]

    def next_level(self, level, advance):
        """A3: levels run from the first level to A and wrap, carrying the surplus."""
        seq = self.levels
        return seq[(seq.index(level) + advance) % len(seq)]
