"""What the platform knows of a rule set: one ``Descriptor`` per variant package.

The lobby, the table forms, the stake and cap rules, the timers, the REST API's variant
lists and the browser page read a variant only through its descriptor, so nothing outside
the variant's package names a variant id, and adding a rule set is one package plus one
line in ``registry.py`` (docs/adding-a-variant.md).

Texts are ``{"en": ..., "zh": ...}`` dicts: the engine has no translation machinery and
the platform picks the reader's language.
"""

from dataclasses import dataclass, field

from .errors import RuleError


@dataclass(frozen=True)
class TableOption:
    """One choice a table's creator makes for this rule set (stored in ``Table.options``
    and handed to the engine as ``state["options"]``)."""

    name: str
    label: dict
    # ((value, {"en": ..., "zh": ...}), ...) in the order a form lists them.
    choices: tuple
    default: object

    def values(self):
        return tuple(value for value, _ in self.choices)


@dataclass(frozen=True)
class Descriptor:
    id: str
    label: dict
    summary: dict
    # Builds the hand machine (``apply``, ``view``, ``timer`` …); called once, on first use.
    machine_factory: object
    options: tuple = ()
    # Seconds per timer kind the hand machine's ``timer()`` names (RULES §6): "deal" paces
    # the deal, "declare" is P1's window, "bury" P2's, "bid" P3's. None: the table's own
    # turn timeout (P4).
    timers: dict = field(default_factory=dict)
    # worst_loss(options) -> the most one player can lose in one hand at a table with these
    # options, in base stakes, escape included: RULES P8b's default cap, derived from the
    # rules by the package's loss.py (engine/bounds.py), never written by hand.
    worst_loss: object = None
    # False where one player plays against the other three (no fixed partnerships).
    partnerships: bool = True
    # True where teams climb levels and a team passing A wins the match (RULES P13).
    plays_matches: bool = True

    def cap_default(self, options=None):
        """RULES P8b: a table's default cap in base stakes (its options' worst loss)."""
        return self.worst_loss(self.options_clean(options))

    def options_clean(self, raw):
        """The table's options with defaults filled in, or RuleError('bad_option')."""
        raw = dict(raw or {})
        clean = {}
        for option in self.options:
            value = raw.pop(option.name, option.default)
            if type(value) is not type(option.default) or value not in option.values():
                raise RuleError("bad_option", f"{option.name} must be one of {list(option.values())}",
                                option=option.name, values=list(option.values()))
            clean[option.name] = value
        if raw:
            raise RuleError("bad_option", f"unknown options: {sorted(raw)}", unknown=sorted(raw))
        return clean
