"""Rules shared by several variants, never a variant itself (the variants are the
packages beside ``families/``, one per id).

- ``two_deck``: the trick rules of the two-deck games (classic, point_bid): units of
  pairs, throws checked unit by unit with the forced unit of a failed throw, the
  pair/tractor follow key and the format-matching trick winner (RULES §2.5–2.7).
- ``four_deck``: the four-deck games (four_deck, guigang): 216 cards, one-unit leads,
  the (copies, trump, strength) trick winner and the last trick's 扣底/摳底, in the rules
  and in the hand machine.
- ``levels``: the games in which teams climb levels (classic, four_deck, guigang): the
  team settlement and escape of §2.10 (A20, A35) and the level wrap of A3.

A variant's class names its families explicitly, e.g. ``class Guigang(LevelFamily,
FourDeckFamily)``.
"""
