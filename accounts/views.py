from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.forms import LanguageForm, RegistrationForm
from accounts.services import user_create, user_language_set


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
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
            preferred_language=form.cleaned_data["preferred_language"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return _with_language(redirect(settings.LOGIN_REDIRECT_URL), user.preferred_language)
    return render(request, "registration/register.html", {"form": form})


class PlayerLoginView(LoginView):
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
