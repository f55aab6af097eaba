"""Sign-in throttling that cannot be turned on a victim, and the client's address it counts by.

django-axes counts failed sign-ins per (account, address) pair (AXES_LOCKOUT_PARAMETERS):
failures for a name from other addresses never lock its owner out, and five mistakes behind
a shared address (a school's, an office's, a carrier's NAT) lock only that account from that
address. Against credential stuffing (many accounts tried from one address) this handler adds
a much higher bar per address, SIGN_IN_FAILURES_PER_ADDRESS failures of any accounts within
AXES_COOLOFF_TIME.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest
from django.utils import timezone


def client_address(request: HttpRequest) -> str:
    """The client's address: the connection's (REMOTE_ADDR), or behind TRUSTED_PROXIES
    proxies the address that many hops back in X-Forwarded-For (each proxy appends the
    address it was reached from, so the earlier entries are the client's to invent). The
    same rule as DRF's NUM_PROXIES, which the settings set from the same number, so sign-in,
    registration and the API's throttles count the same address."""
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    hops = settings.TRUSTED_PROXIES
    if hops <= 0 or not forwarded:
        return remote
    chain = [part.strip() for part in forwarded.split(",") if part.strip()]
    return chain[-min(hops, len(chain))] if chain else remote


@dataclass(frozen=True)
class SignInLock:
    """Why sign-in is refused (ACCOUNT: this account from this address; ADDRESS: every
    account from this address) and for how many more seconds."""

    ACCOUNT = "account"
    ADDRESS = "address"

    reason: str
    seconds: int


def _counting(request: HttpRequest) -> datetime:
    """The oldest attempt time that still counts (axes' cool-off window)."""
    if not hasattr(request, "axes_attempt_time"):
        request.axes_attempt_time = timezone.now()  # type: ignore[attr-defined]
    return get_cool_off_threshold(request)


def _address_attempts(request: HttpRequest) -> QuerySet[AccessAttempt]:
    return AccessAttempt.objects.filter(ip_address=get_client_ip_address(request),
                                        attempt_time__gte=_counting(request))


def _pair_attempts(request: HttpRequest, credentials: dict | None) -> QuerySet[AccessAttempt]:
    return _address_attempts(request).filter(username=get_client_username(request, credentials))


def _failures(attempts: QuerySet[AccessAttempt]) -> int:
    return attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0


def _wait(attempts: QuerySet[AccessAttempt]) -> int:
    """Seconds until the newest counting failure leaves the cool-off window."""
    latest = attempts.aggregate(at=Max("attempt_time"))["at"]
    if latest is None:
        return 0
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    return max(1, int((latest + cool_off - timezone.now()).total_seconds() + 0.999))


def sign_in_lock(request: HttpRequest, credentials: dict | None = None) -> SignInLock | None:
    """The lock on this sign-in (the account's from this address first, as its wait is the
    one its owner can end by going elsewhere), or None."""
    pair = _pair_attempts(request, credentials)
    if _failures(pair) >= settings.AXES_FAILURE_LIMIT:
        return SignInLock(reason=SignInLock.ACCOUNT, seconds=_wait(pair))
    address = _address_attempts(request)
    if _failures(address) >= settings.SIGN_IN_FAILURES_PER_ADDRESS:
        return SignInLock(reason=SignInLock.ADDRESS, seconds=_wait(address))
    return None


class SignInThrottle(AxesDatabaseHandler):
    """axes' database handler (its per-pair count) with the per-address bar on top."""

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or _failures(
            _address_attempts(request)) >= settings.SIGN_IN_FAILURES_PER_ADDRESS

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is not None and not getattr(request, "axes_locked_out", False) \
                and _failures(_address_attempts(request)) >= settings.SIGN_IN_FAILURES_PER_ADDRESS:
            request.axes_locked_out = True
            request.axes_credentials = credentials
