"""The rule sets by id: the one place that knows which variants exist.

Each variant package exports one ``DESCRIPTOR`` (descriptor.py); registering it here is
all the platform needs to offer it. Nothing imports this module from inside a variant
package, so there is no import cycle: packages build on ``hand.py``, ``variant.py`` and
``families/``, this module builds on the packages, and only ``conformance.py`` and
``bot.py`` inside the engine import it.
"""

from .classic import DESCRIPTOR as CLASSIC
from .errors import RuleError, given
from .four_deck import DESCRIPTOR as FOUR_DECK
from .guigang import DESCRIPTOR as GUIGANG
from .point_bid import DESCRIPTOR as POINT_BID

# In the order the lobby lists them.
_DESCRIPTORS = {d.id: d for d in (CLASSIC, FOUR_DECK, POINT_BID, GUIGANG)}
_MACHINES: dict = {}


def descriptors():
    """Every registered rule set's descriptor, in the lobby's order."""
    return list(_DESCRIPTORS.values())


def descriptor(variant_id):
    try:
        return _DESCRIPTORS[variant_id]
    except (KeyError, TypeError):
        raise RuleError("unknown_variant", f"no such variant: {variant_id!r}", variant=given(variant_id)) from None


def variant_ids():
    return list(_DESCRIPTORS)


def machine_for(variant_id):
    """The variant's hand machine (``apply``, ``view``, ``timer``, ``legal_calls`` …)."""
    machine = _MACHINES.get(variant_id)
    if machine is None:
        machine = _MACHINES[variant_id] = descriptor(variant_id).machine_factory()
    return machine


def get_variant(variant_id):
    """The variant's rules object (default options)."""
    return machine_for(variant_id).variant


def apply(state, action):
    return machine_for(state["variant"]).apply(state, action)


def view(state, seat=None):
    return machine_for(state["variant"]).view(state, seat)


def register(desc):
    """Add a rule set (a test's toy variant; real ones are listed above)."""
    if desc.id in _DESCRIPTORS:
        raise ValueError(f"variant {desc.id!r} is already registered")
    _DESCRIPTORS[desc.id] = desc


def unregister(variant_id):
    _DESCRIPTORS.pop(variant_id, None)
    _MACHINES.pop(variant_id, None)
