"""Per-IP (anonymous) and per-user request limits, one bucket per scope.

Rates come from settings.API_THROTTLE_RATES, read at request time (DRF's own classes read
theirs once at import, so tests and operators could not change them without a restart).
A view names its scope with `throttle_scope`; without one it uses "read".
"""

import math

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class _ScopedThrottle(SimpleRateThrottle):
    who = ""

    def allow_request(self, request, view):
        self.scope = f"{self.who}_{getattr(view, 'throttle_scope', 'read')}"
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.history = None
        allowed = super().allow_request(request, view)
        if self.history is not None:  # this throttle counted the request
            request._request.rate_limit = self._headers(allowed)
        return allowed

    def _headers(self, allowed):
        """(limit, requests left, seconds until the window frees one): the
        X-RateLimit-Limit, -Remaining and -Reset headers (api.errors.ApiErrorMiddleware)."""
        remaining = max(self.num_requests - len(self.history), 0)
        oldest = self.history[-1] if self.history else self.now
        reset = max(math.ceil(oldest + self.duration - self.now), 0)
        return self.num_requests, remaining, reset

    def get_rate(self):
        return settings.API_THROTTLE_RATES.get(self.scope)


class AnonScopedThrottle(_ScopedThrottle):
    """Anonymous requests, counted per client IP."""

    who = "anon"

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserScopedThrottle(_ScopedThrottle):
    """Signed-in requests (session or token), counted per user wherever they come from."""

    who = "user"

    def get_cache_key(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}
