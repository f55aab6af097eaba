"""Typed errors with stable codes.

Every illegal input raises ``RuleError(code, message, **params)``; the code is what the
web layer and ``rules_check`` report, so codes are part of the public contract. The
parameters are what a page needs to say why in the player's language (the suit and shape
a follower owed, the card that beats a throw, whose turn it is): JSON values only, cards
as the protocol's tokens ("H2", "BJ"), seats as numbers. docs/protocol.md lists, per
code, the parameters it carries; the message is English prose for logs and tools.
"""


def given(value):
    """A value an action gave, as a refusal's parameter: a string or a number as it is,
    anything else (a list where a card was due) as its repr, so the parameters stay JSON."""
    if type(value) in (str, int, float, bool) or value is None:
        return value
    return repr(value)


class RuleError(Exception):
    def __init__(self, code, message="", **params):
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        self.params = params

    def __repr__(self):
        return f"RuleError({self.code!r}, {self.message!r}, **{self.params!r})"
