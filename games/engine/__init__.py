"""The rules of 升级 / 拖拉机: pure Python, no Django, deterministic from a seed.

Layout (imports point down this list; nothing imports the registry but the modules
below it, so there is no cycle):

- ``errors``, ``cards``, ``context``, ``units``: typed errors, card notation, the trump
  context (class, rank, chains) and units/tractors/canonical decomposition (RULES §1).
- ``draws``: ``random.Random``'s choice, randrange and shuffle with the same answers,
  cheaper (deals and random players draw through them).
- ``variant``: the ``Variant`` base, what every rule set is asked (RULES §1 only).
- ``moves``: legal-move generation for auto-play and bots, through the variant's hooks.
- ``deal``, ``hand_end``, ``tricks``, ``hand``: ``HandMachine``, the ``apply(state, action)``
  phases every variant shares, one layer each (the deal to the first lead, the end of a
  hand, the tricks, then the machine itself).
- ``families/``: rules several variants share, never a variant itself: ``two_deck``
  (classic, point_bid tricks), ``four_deck`` (four_deck, guigang tricks and hand),
  ``levels`` (team settlement and level wrap of the level games).
- one package per variant id, ``classic/``, ``four_deck/``, ``point_bid/``,
  ``guigang/``: ``rules.py`` (its ``Variant`` subclass), ``hand.py`` (its machine) and
  ``__init__.py`` with its ``DESCRIPTOR`` (``descriptor.py``).
- ``registry``: the variants by id, built from the descriptors; the platform's one door.
- ``conformance`` and ``conformance_adapters``: ``rules_check`` (CONFORMANCE.md), the
  generic card kinds and, per variant id, what that variant adds.
- ``bot_seen``, ``bot_calls``, ``bot_bury``, ``bot_follow``, ``bot_lead``, ``bot``: the policy
  for empty seats (``bot.bot_action``).
"""

from . import native

native.install()  # before any other engine module is imported: see native.py
