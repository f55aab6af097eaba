"""Typed errors with stable codes.

Every illegal input raises ``RuleError(code, message)``; the code is what the
web layer and ``rules_check`` report, so codes are part of the public contract.
"""


class RuleError(Exception):
    def __init__(self, code, message=""):
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def __repr__(self):
        return f"RuleError({self.code!r}, {self.message!r})"
