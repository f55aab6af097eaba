from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


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
