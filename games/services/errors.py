"""The refusal every game service raises: nothing changed."""

from typing import Any


class ActionError(Exception):
    """An action was refused; nothing changed. `code` is stable (docs/protocol.md);
    `details` are fields the error message carries besides them (e.g. `retry_after`);
    `params` are the engine's parameters of a refused move (RuleError.params)."""

    def __init__(self, code: str, message: str = "", *, params: dict[str, Any] | None = None,
                 **details: Any) -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        # Figures a page puts in its own words (`need` for balance_too_low, `retry_after`
        # for chat_flood); the socket's error frame carries them too.
        self.details = details
        # What the rules say of the refusal (the suit and shape a follower owed, ...), which
        # the page turns into a sentence (static/ui/reasons.js); the frame's `params`.
        self.params = params or {}
