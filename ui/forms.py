from django import forms
from django.utils.translation import gettext_lazy as _

from lobby.models import Room

VARIANT_CHOICES = [
    ("classic", _("Classic 升级 (2 decks)")),
    ("four_deck", _("Four decks (4副)")),
    ("point_bid", _("Point bidding 叫分")),
    ("guigang", _("Guigang 貴港拖拉機")),
]


class TableCreateForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=VARIANT_CHOICES, initial="classic")
    base_stake = forms.IntegerField(label=_("Base stake"), min_value=1, max_value=1000, initial=10)
    room = forms.ModelChoiceField(label=_("Room"), queryset=Room.objects.order_by("name"),
                                  required=False, empty_label=None)
    name = forms.CharField(label=_("Table name"), max_length=64, required=False)
    turn_timeout = forms.IntegerField(label=_("Seconds per turn"), min_value=5, max_value=300,
                                      initial=25)
    decks = forms.TypedChoiceField(label=_("Decks (point bidding)"), coerce=int,
                                   choices=[(2, "2"), (1, "1")], initial=2, required=False,
                                   empty_value=None)

