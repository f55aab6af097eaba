"""The operators' admin site: staff reach it only from a session that passed two-factor
sign-in (django-otp's OTPAdminSite), so no operator action, nor any page of the admin, runs
on a password alone. Signing in goes through the site's own pages: the password on the
sign-in page (throttled by django-axes), then the code on the two-factor page."""

from urllib.parse import urlencode

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django_otp.admin import OTPAdminSite


class OperatorAdminSite(OTPAdminSite):
    def __init__(self, name: str = "admin"):
        # OTPAdminSite names itself "otpadmin"; the pages reverse "admin:…".
        super().__init__(name)

    def login(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        next_url = request.GET.get("next") or reverse("admin:index", current_app=self.name)
        if not request.user.is_authenticated:
            return redirect_to_login(next_url)
        if request.user.is_staff and not request.user.is_verified():
            return HttpResponseRedirect(reverse("accounts:two_factor_verify") + "?"
                                        + urlencode({"next": next_url}))
        # Verified staff go on to the index; a player sees the admin's "not authorised".
        return super().login(request, extra_context)
