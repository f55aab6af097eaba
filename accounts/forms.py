from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class RegistrationForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "preferred_language")
        help_texts = {"display_name": _("Shown at the table; Chinese characters are welcome.")}


class LanguageForm(forms.Form):
    language = forms.ChoiceField(choices=User.Language.choices)
    next = forms.CharField(required=False)
