from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class RegistrationForm(UserCreationForm):
    """Sign-up. Required fields carry aria-required and the `required` class (the page marks
    them *); the page posts with `novalidate`, so a player sees the server's message, in
    the page's language, beside the field."""

    required_css_class = "required"

    class Meta:
        model = User
        fields = ("username", "display_name", "preferred_language")
        help_texts = {"display_name": _("Shown at the table; Chinese characters are welcome.")}
        error_messages = {"display_name": {
            "required": _("Choose a display name: it is what the table shows.")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if field.required:
                field.widget.attrs["aria-required"] = "true"


class LanguageForm(forms.Form):
    language = forms.ChoiceField(choices=User.Language.choices)
    next = forms.CharField(required=False)
