import base64
from urllib.parse import urlencode

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_ratelimit.core import is_ratelimited

from accounts.forms import (
    LanguageForm,
    RegistrationForm,
    SignInForm,
    TotpConfirmForm,
    TwoFactorForm,
)
from accounts.selectors import two_factor_enrolled, two_factor_verified
from accounts.services import (
    totp_device_confirm,
    totp_device_enroll_start,
    user_create,
    user_language_set,
)
from accounts.signin import SignInLock, sign_in_lock


def _with_language(response, language):
    """Make `language` the active one from the next request on (LocaleMiddleware reads the cookie)."""
    translation.activate(language)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def register(request):
    # The sign-up form starts in the language the browser asked for (LocaleMiddleware).
    language = translation.get_language_from_request(request)
    initial = {"preferred_language": language if language in dict(settings.LANGUAGES) else
               settings.LANGUAGE_CODE}
    form = RegistrationForm(request.POST or None, initial=initial)
    context = {"form": form, "grant": settings.POINTS_OPENING_GRANT,
               "grants_per_day": _per_day(settings.POINTS_OPENING_GRANTS_PER_ADDRESS),
               "relief": settings.POINTS_RELIEF_GRANT}
    if request.method == "POST" and is_ratelimited(
            request, group="register", key="ip", method="POST", increment=True,
            rate=settings.ACCOUNTS_REGISTRATIONS_PER_ADDRESS):
        return render(request, "registration/register.html", dict(context, throttled=_(
            "Too many accounts were opened from your network today. Please try again "
            "tomorrow.")), status=429)
    if request.method == "POST" and form.is_valid():
        # The opening grant is what a farm of accounts would be after: few a day per address.
        granted = not is_ratelimited(
            request, group="opening_grant", key="ip", method="POST", increment=True,
            rate=settings.POINTS_OPENING_GRANTS_PER_ADDRESS)
        user = user_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
            preferred_language=form.cleaned_data["preferred_language"],
            opening_grant=granted,
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        response = _with_language(redirect(settings.LOGIN_REDIRECT_URL), user.preferred_language)
        if not granted:
            messages.info(request, _(
                "Your network has already opened the accounts that get the opening grant "
                "today, so this account starts with 0 points. The daily relief gives you "
                "%(relief)s points to play at the smallest tables.")
                % {"relief": settings.POINTS_RELIEF_GRANT})
        return response
    return render(request, "registration/register.html", context)


def _per_day(rate: str) -> int:
    """The count of a django-ratelimit rate such as "3/d"."""
    return int(rate.split("/")[0])


class PlayerLoginView(LoginView):
    authentication_form = SignInForm

    def form_valid(self, form):
        response = super().form_valid(form)
        return _with_language(response, form.get_user().preferred_language)


def _next_url(request, next_url, default):
    """`next_url` if it is a page of this site, else `default` (no open redirect)."""
    if next_url and url_has_allowed_host_and_scheme(
            next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return next_url
    return default


@require_POST
def language_set(request):
    form = LanguageForm(request.POST)
    next_url = _next_url(request, request.POST.get("next"), "/")
    if not form.is_valid():
        return redirect(next_url)
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        user_language_set(user=request.user, language=language)
    return _with_language(redirect(next_url), language)


def sign_in_throttled(request, original_response=None, credentials=None):
    """django-axes' answer once sign-in is locked (accounts.signin): the sign-in form with the
    reason and the wait, or a JSON error for the API's token endpoint (429, Retry-After)."""
    lock = sign_in_lock(request, credentials) or SignInLock(
        reason=SignInLock.ACCOUNT, seconds=int(settings.AXES_COOLOFF_TIME.total_seconds()))
    minutes = max(1, -(-lock.seconds // 60))
    if lock.reason == SignInLock.ADDRESS:
        message = ngettext(
            "Too many failed sign-ins from your network, for many accounts. Please wait "
            "%(minutes)s minute and try again.",
            "Too many failed sign-ins from your network, for many accounts. Please wait "
            "%(minutes)s minutes and try again.", minutes) % {"minutes": minutes}
    else:
        message = ngettext(
            "Too many failed sign-ins for this account from your network. Please wait "
            "%(minutes)s minute and try again, or sign in from another network.",
            "Too many failed sign-ins for this account from your network. Please wait "
            "%(minutes)s minutes and try again, or sign in from another network.",
            minutes) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        # The API's one error shape (docs/api.md, "Errors"; api.errors sits above accounts).
        response = JsonResponse({"error": {"code": "sign_in_throttled", "message": message,
                                           "fields": {}}}, status=429)
        response["Retry-After"] = str(lock.seconds)
        return response
    response = render(request, "registration/login.html",
                      {"form": SignInForm(request), "throttled": message}, status=429)
    response["Retry-After"] = str(lock.seconds)
    return response


def _staff_next(request):
    """The staff member's `next` page (the admin's index by default), or 404 for a player:
    players are never asked for a second factor."""
    if not request.user.is_staff:
        raise Http404
    return _next_url(request, request.GET.get("next") or request.POST.get("next"),
                     reverse("admin:index"))


def _with_next(url_name, next_url):
    return reverse(url_name) + "?" + urlencode({"next": next_url})


def _qr_svg(text):
    """`text` as a QR code on white (scanners want the margin light), an SVG data: URL (the
    pages' content policy allows data: images)."""
    svg = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage, border=2).to_string()
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode()


@login_required
def two_factor_enroll(request):
    """A staff member without a second factor adds an authenticator app: the page shows its
    secret (text and QR code), and one code from the app confirms it and verifies the session."""
    next_url = _staff_next(request)
    if two_factor_enrolled(user=request.user):
        if not two_factor_verified(user=request.user):
            return redirect(_with_next("accounts:two_factor_verify", next_url))
        return render(request, "registration/two_factor_enroll.html",
                      {"enrolled": True, "next": next_url})
    device = totp_device_enroll_start(user=request.user)
    form = TotpConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        confirmed = totp_device_confirm(user=request.user, device_id=device.pk,
                                        token=form.cleaned_data["token"])
        if confirmed is not None:
            request.session.cycle_key()
            otp_login(request, confirmed)
            messages.success(request, _("Your authenticator app is set up, and this session "
                                        "is verified."))
            return redirect(next_url)
        form.add_error("token", _("That code is not right, was used already, or came too soon "
                                  "after a wrong one. Wait a moment and enter the code your "
                                  "app shows now."))
    secret = base64.b32encode(device.bin_key).decode()
    return render(request, "registration/two_factor_enroll.html", {
        "form": form, "next": next_url, "qr": _qr_svg(device.config_url),
        # In groups of four, as authenticator apps show it when typed in by hand.
        "secret": " ".join(secret[i:i + 4] for i in range(0, len(secret), 4)),
    })


@login_required
def two_factor_verify(request):
    """Two-factor sign-in for staff: the code from their app (or a backup code) verifies this
    session, which the admin and every operator action need; then on to `next`."""
    next_url = _staff_next(request)
    if two_factor_verified(user=request.user):
        return redirect(next_url)
    if not two_factor_enrolled(user=request.user):
        return redirect(_with_next("accounts:two_factor_enroll", next_url))
    form = TwoFactorForm(request.user, request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        request.session.cycle_key()
        otp_login(request, request.user.otp_device)
        return redirect(next_url)
    return render(request, "registration/two_factor_verify.html",
                  {"form": form, "next": next_url})
