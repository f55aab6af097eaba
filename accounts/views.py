from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from accounts.forms import LanguageForm, RegistrationForm, SignInForm
from accounts.services import user_create, user_language_set
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


@require_POST
def language_set(request):
    form = LanguageForm(request.POST)
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
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
