from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.utils.translation import gettext_lazy as _
from django_otp import devices_for_user
from django_otp.forms import OTPTokenForm

from accounts.models import User
from accounts.services import AUTHENTICATOR_APP, BACKUP_CODES


class RequiredMarked:
    """Required fields carry `aria-required` and the `required` CSS class (site.css marks
    their labels with *, which the page's legend explains; templates/ui/includes/field.html).
    Pages render these forms with `novalidate`, so the server's message, in the page's
    language and beside the field, is the one a player sees, not the browser's own bubble;
    the page opens with the first refused field focused (not the name field Django focuses).
    A form that adds fields after its own __init__ calls `required_mark` again."""

    required_css_class = "required"
    fields: dict[str, forms.Field]

    def required_mark(self) -> None:
        for field in self.fields.values():
            if field.required:
                field.widget.attrs["aria-required"] = "true"

    def full_clean(self) -> None:
        super().full_clean()  # type: ignore[misc]
        refused = [name for name in self.fields if name in self._errors]  # type: ignore[attr-defined]
        if refused:
            for field in self.fields.values():
                field.widget.attrs.pop("autofocus", None)
            self.fields[refused[0]].widget.attrs["autofocus"] = True


class RegistrationForm(RequiredMarked, UserCreationForm):
    """Sign-up (its required fields marked, their messages beside them: RequiredMarked)."""

    class Meta:
        model = User
        fields = ("username", "display_name", "preferred_language")
        help_texts = {"display_name": _("Shown at the table; Chinese characters are welcome.")}
        error_messages = {"display_name": {
            "required": _("Choose a display name: it is what the table shows.")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.required_mark()


class SignInForm(RequiredMarked, AuthenticationForm):
    """Sign-in; a wrong name or password is the form's own message, above its fields."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.required_mark()


class PasswordChangeMarkedForm(RequiredMarked, PasswordChangeForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.required_mark()


class LanguageForm(forms.Form):
    language = forms.ChoiceField(choices=User.Language.choices)
    next = forms.CharField(required=False)


def _code_field(label):
    return forms.CharField(label=label, max_length=16, widget=forms.TextInput(attrs={
        "autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}))


class TotpConfirmForm(RequiredMarked, forms.Form):
    """Enrolling an authenticator app: one code it shows proves it holds the secret."""

    token = _code_field(_("Code from your app"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.required_mark()


class TwoFactorForm(RequiredMarked, OTPTokenForm):
    """Two-factor sign-in for staff: a device of theirs (their app, or their backup codes)
    and its code, checked by django-otp, which throttles a device after each wrong code."""

    otp_device = forms.ChoiceField(label=_("Device"), choices=[])
    otp_token = _code_field(_("Code"))

    def __init__(self, user, request=None, *args, **kwargs):
        super().__init__(user, request, *args, **kwargs)
        # The app comes first (otp_totp before otp_static in INSTALLED_APPS): chosen already,
        # so a staff member just types the code.
        choices = self.fields["otp_device"].choices
        if choices:
            self.fields["otp_device"].initial = choices[0][0]
        self.required_mark()

    @staticmethod
    def device_choices(user):
        # django-otp's, without its blank entry and with the names in the page's language
        # (also used when a refused code redraws the list).
        return [(device.persistent_id, _device_label(device.name))
                for device in devices_for_user(user)]


def _device_label(name):
    """A device's name on the page, in its language (accounts.services names them)."""
    return {AUTHENTICATOR_APP: _("Authenticator app"),
            BACKUP_CODES: _("Backup codes")}.get(name, name)
