import itertools

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.variants import descriptor, descriptors
from lobby.models import Room
from ui.messages import in_language, room_label


class BotsPlayForm(forms.Form):
    """"Play against bots": only the game; the table takes its defaults (ui.views)."""

    prefix = "bots"  # beside the new-table form on the lobby
    variant = forms.ChoiceField(label=_("Game"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        variants = descriptors()
        self.fields["variant"].choices = [(d.id, in_language(d.label)) for d in variants]
        self.fields["variant"].initial = variants[0].id if variants else None


class TableCreateForm(forms.Form):
    """A new table: the rule set and its options come from the registered variants'
    descriptors, read when the form is made (in the reader's language)."""

    variant = forms.ChoiceField(label=_("Game"))
    base_stake = forms.IntegerField(label=_("Base stake"), min_value=1, max_value=1000, initial=10)
    room = forms.ModelChoiceField(label=_("Room"), queryset=Room.objects.order_by("name"),
                                  required=False, empty_label=None)
    name = forms.CharField(label=_("Table name"), max_length=64, required=False)
    turn_timeout = forms.IntegerField(label=_("Seconds per turn"), min_value=5, max_value=300,
                                      initial=25)
    cap = forms.IntegerField(
        label=_("Cap (封顶), in base stakes"), min_value=1, required=False,
        help_text=_("The most one player can lose in one hand, in base stakes. The default "
                    "is the game's worst possible loss, so its rules play out in full; it is "
                    "large, so choose a smaller cap to play with fewer points. Sitting and "
                    "pressing ready need cap × base stake points."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        variants = descriptors()
        self.fields["room"].label_from_instance = room_label
        variant = self.fields["variant"]
        variant.choices = [(d.id, in_language(d.label)) for d in variants]
        variant.initial = variants[0].id if variants else None
        if variants:
            self.fields["cap"].initial = variants[0].cap_default()
        option_fields = []
        for d in variants:
            for option in d.options:
                name = _option_field(d.id, option.name)
                self.fields[name] = _option_choice_field(d, option)
                option_fields.append(name)
        self.order_fields(["variant", *option_fields])

    def clean(self):
        data = super().clean()
        if data.get("variant") and data.get("cap"):
            worst = descriptor(data["variant"]).cap_default(self.options())
            if data["cap"] > worst:
                self.add_error("cap", gettext("At most %(worst)s for this game.") % {"worst": worst})
        return data

    def options(self):
        """The chosen variant's table options as submitted (those left empty take their
        defaults in games.services.table_create, which also checks them)."""
        variant = descriptor(self.cleaned_data["variant"])
        chosen = {o.name: self.cleaned_data.get(_option_field(variant.id, o.name))
                  for o in variant.options}
        return {name: value for name, value in chosen.items() if value is not None}


def cap_defaults():
    """Each variant's default cap for every choice of its options, for the form's script:
    {variant: [{"options": {...}, "cap": n}, ...]}."""
    out = {}
    for d in descriptors():
        names = [o.name for o in d.options]
        choices = [dict(zip(names, values))
                   for values in itertools.product(*(o.values() for o in d.options))]
        out[d.id] = [{"options": options, "cap": d.cap_default(options)} for options in choices]
    return out


def _option_field(variant_id, option_name):
    return f"{variant_id}__{option_name}"


def _option_choice_field(variant, option):
    by_text = {str(value): value for value in option.values()}
    return forms.TypedChoiceField(
        label=gettext("%(option)s (%(game)s)") % {"option": in_language(option.label),
                                              "game": in_language(variant.label)},
        choices=[(value, in_language(text)) for value, text in option.choices],
        coerce=by_text.__getitem__, initial=option.default, required=False, empty_value=None,
        widget=forms.Select(attrs={"data-variant": variant.id}))


class PrefsForm(forms.Form):
    """The player's table settings (accounts.services.user_prefs_set): from the profile
    page, or as JSON from the table page."""

    sort = forms.ChoiceField(label=_("Order of my hand"), choices=User.HandSort.choices,
                             widget=forms.RadioSelect)
    turn_sound = forms.BooleanField(label=_("Play a sound when it is my turn"), required=False)

    @classmethod
    def from_json(cls, body, prefs):
        """The form for a JSON object holding `sort`, `turn_sound` or both (the others keep
        `prefs`, the settings now), or None when `body` is not such an object."""
        if not isinstance(body, dict) or not body or set(body) - {"sort", "turn_sound"}:
            return None
        if not isinstance(body.get("turn_sound", False), bool):
            return None
        return cls({**prefs, **body})
