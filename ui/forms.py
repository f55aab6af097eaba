import itertools
from datetime import timedelta

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.forms import RequiredMarked
from accounts.models import User
from games.services.quick import QUICK_WAIT_DEFAULT, QUICK_WAITS
from games.stakes import cap_default, cap_house_default, create_defaults, stake_required_balance
from games.variants import descriptor, descriptors
from lobby.models import Room
from ui.messages import in_language, room_label


class VariantOptionsMixin:
    """The game (玩法) select and every variant's table options (its descriptor's), each
    option field tagged with its variant (`variant_id`, the template's data-variant) so the
    page shows only the chosen game's."""

    def _variant_fields(self):
        variants = descriptors()
        variant = self.fields["variant"]
        variant.choices = [(d.id, in_language(d.label)) for d in variants]
        variant.initial = variants[0].id if variants else None
        option_fields = []
        for d in variants:
            for option in d.options:
                name = _option_field(d.id, option.name)
                self.fields[name] = _option_choice_field(d, option)
                self.fields[name].variant_id = d.id
                option_fields.append(name)
        self.order_fields(["variant", *option_fields])

    def options(self):
        """The chosen variant's table options as submitted (those left empty take their
        defaults in games.services, which also checks them)."""
        variant = descriptor(self.cleaned_data["variant"])
        chosen = {o.name: self.cleaned_data.get(_option_field(variant.id, o.name))
                  for o in variant.options}
        return {name: value for name, value in chosen.items() if value is not None}

    def option_fields(self):
        """The bound option fields (the template lays them out after the game)."""
        return [self[name] for name, field in self.fields.items()
                if getattr(field, "variant_id", None)]


class BotsPlayForm(VariantOptionsMixin, RequiredMarked, forms.Form):
    """"Play against bots": the game and its options; the stake and cap are chosen by
    games.services.tables.table_bots_play from the player's balance."""

    prefix = "bots"  # beside the new-table form on the lobby
    variant = forms.ChoiceField(label=_("Game"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._variant_fields()
        self.required_mark()


def _wait_label(seconds):
    if seconds == 0:
        return gettext("At once, with bots")
    if seconds % 60 == 0:
        return gettext("%(n)s min") % {"n": seconds // 60}
    return gettext("%(n)s s") % {"n": seconds}


class QuickPlayForm(RequiredMarked, forms.Form):
    """Quick play (快速开始): the game is the button pressed; the stake and cap left empty
    are the house defaults the player's points cover (games.services.quick.quick_join),
    and the wait is how long people are waited for before bots fill the seats."""

    prefix = "quick"  # beside the other forms on the lobby
    variant = forms.ChoiceField(label=_("Game"))
    wait = forms.TypedChoiceField(label=_("Wait for players"), coerce=int,
                                  initial=QUICK_WAIT_DEFAULT)
    base_stake = forms.IntegerField(label=_("Base stake"), min_value=1, max_value=1000,
                                    required=False)
    cap = forms.IntegerField(label=_("Cap, in base stakes"), min_value=1, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(d.id, in_language(d.label)) for d in descriptors()]
        self.fields["wait"].choices = [(s, _wait_label(s)) for s in QUICK_WAITS]
        for name in ("base_stake", "cap"):
            self.fields[name].widget.attrs["placeholder"] = gettext("House default")
        self.required_mark()

    def choice_fields(self):
        """What the player may choose besides the game (each button is a game)."""
        return [self["wait"], self["base_stake"], self["cap"]]


class TableCreateForm(VariantOptionsMixin, RequiredMarked, forms.Form):
    """A new table: the rule set and its options come from the registered variants'
    descriptors, read when the form is made (in the reader's language). `balance` is the
    player's points: the default stake and cap are what it covers (games.stakes.
    create_defaults), and a table it does not cover is refused beside the cap with the
    figures."""

    variant = forms.ChoiceField(label=_("Game"))
    base_stake = forms.IntegerField(label=_("Base stake"), min_value=1, max_value=1000)
    # Left empty (a post without it): the house default (games.stakes.cap_house_default).
    cap = forms.IntegerField(
        label=_("Cap, in base stakes"), min_value=1, required=False,
        help_text=_("The most one player can lose in one hand, in base stakes; at most the "
                    "game's worst possible loss. Sitting and pressing ready need "
                    "cap × base stake points."))
    room = forms.ModelChoiceField(label=_("Room"), queryset=Room.objects.order_by("name"),
                                  required=False, empty_label=None)
    name = forms.CharField(label=_("Table name"), max_length=64, required=False)
    turn_timeout = forms.IntegerField(label=_("Seconds per turn"), min_value=5, max_value=300,
                                      initial=25)
    private = forms.BooleanField(
        label=_("Private table"), required=False,
        help_text=_("Not listed in the lobby: only people you give its invitation link can "
                    "sit or watch."))

    def __init__(self, *args, balance, **kwargs):
        super().__init__(*args, **kwargs)
        self.balance = balance
        self.fields["room"].label_from_instance = room_label
        self._variant_fields()
        first = self.fields["variant"].initial
        if first:
            stake, cap = create_defaults(variant=first, balance=balance)
            self.fields["base_stake"].initial, self.fields["cap"].initial = stake, cap
        self.order_fields(["variant", *[f.name for f in self.option_fields()],
                           "base_stake", "cap"])
        self.required_mark()

    # Folded under "More settings" on the page (each has a default a newcomer can keep).
    MORE = ("room", "name", "turn_timeout")

    def main_fields(self):
        """The game, its options, the stake and the cap: what every table is chosen by."""
        return [field for field in self if field.name not in (*self.MORE, "private")]

    def more_fields(self):
        return [self[name] for name in self.MORE]

    def more_refused(self):
        """Whether the server refused one of the folded fields (the page then unfolds them)."""
        return any(self[name].errors for name in self.MORE)

    def clean(self):
        data = super().clean()
        if not (data.get("variant") and data.get("base_stake")) or self.has_error("cap"):
            return data
        if data.get("cap") is None:
            data["cap"] = cap_house_default(variant=data["variant"], options=self.options())
        worst = cap_default(variant=data["variant"], options=self.options())
        if data["cap"] > worst:
            self.add_error("cap", gettext("At most %(worst)s for this game.") % {"worst": worst})
            return data
        need = stake_required_balance(cap=data["cap"], base_stake=data["base_stake"])
        if need > self.balance:
            self.add_error("cap", need_text(need=need, cap=data["cap"],
                                            stake=data["base_stake"], balance=self.balance))
        return data


def need_text(*, need, cap, stake, balance):
    """A refusal for points short of cap × stake: the figures and what to change."""
    return gettext("Sitting at this table needs %(need)s points (cap %(cap)s × stake "
                   "%(stake)s); you hold %(balance)s. Lower the stake or the cap.") % {
        "need": need, "cap": cap, "stake": stake, "balance": balance}


def create_rules(*, balance):
    """What the new-table form's script needs to say live what sitting needs, as the server
    computes it (games.stakes): the player's `balance`, the house stake, and per variant
    and choice of its options the house cap (`cap`) and the most a table may have (`max`);
    sitting needs cap × base stake (stake_required_balance)."""
    out = {}
    for d in descriptors():
        names = [o.name for o in d.options]
        choices = [dict(zip(names, values))
                   for values in itertools.product(*(o.values() for o in d.options))]
        out[d.id] = [{"options": options,
                      "cap": cap_house_default(variant=d.id, options=options),
                      "max": cap_default(variant=d.id, options=options)} for options in choices]
    return {"balance": balance, "stake": settings.TABLE_STAKE_HOUSE_DEFAULT, "variants": out,
            "need": "cap*stake"}


def _option_field(variant_id, option_name):
    return f"{variant_id}__{option_name}"


def _option_choice_field(variant, option):
    by_text = {str(value): value for value in option.values()}
    return forms.TypedChoiceField(
        label=gettext("%(option)s (%(game)s)") % {"option": in_language(option.label),
                                              "game": in_language(variant.label)},
        choices=[(value, in_language(text)) for value, text in option.choices],
        coerce=by_text.__getitem__, initial=option.default, required=False, empty_value=None)


class PrefsForm(forms.Form):
    """The player's table settings (accounts.services.user_prefs_set): from the profile
    page, or as JSON from the table page."""

    sort = forms.ChoiceField(label=_("Order of my hand"), choices=User.HandSort.choices,
                             widget=forms.RadioSelect)
    turn_sound = forms.BooleanField(label=_("Play a sound when it is my turn"), required=False)
    counter = forms.BooleanField(
        label=_("Card counter: show the cards and points still out in each suit and in trump"),
        required=False)

    @classmethod
    def from_json(cls, body, prefs):
        """The form for a JSON object holding some of `sort`, `turn_sound` and `counter`
        (the others keep `prefs`, the settings now), or None when `body` is not such an
        object."""
        if not isinstance(body, dict) or not body or set(body) - {"sort", "turn_sound", "counter"}:
            return None
        if not all(isinstance(body.get(k, False), bool) for k in ("turn_sound", "counter")):
            return None
        return cls({**prefs, **body})


class AccountDeleteForm(RequiredMarked, forms.Form):
    """Deleting one's account, confirmed with the password (games.services.accounts)."""

    password = forms.CharField(label=_("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
                               error_messages={"required": _("Type your password to confirm.")})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.required_mark()


class TournamentCreateForm(VariantOptionsMixin, RequiredMarked, forms.Form):
    """A new duplicate tournament (tournaments.services.tournament_create, which checks it
    all): the game and its options as a table's, a stake left empty plays for no points, a
    cap left empty is the house default. Every default offered is one the service takes."""

    name = forms.CharField(label=_("Tournament name"), max_length=64)
    variant = forms.ChoiceField(label=_("Game"))
    stake = forms.IntegerField(
        label=_("Base stake"), min_value=1, required=False,
        help_text=_("Leave empty to play for no points (bots then fill the empty places)."))
    cap = forms.IntegerField(label=_("Cap, in base stakes"), min_value=1, required=False)
    boards_per_round = forms.IntegerField(label=_("Boards per round"), min_value=1,
                                          max_value=12, initial=2)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=9, initial=2)
    starts_at = forms.DateTimeField(
        label=_("Starts at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                         format="%Y-%m-%dT%H:%M"))
    turn_seconds = forms.IntegerField(label=_("Seconds per turn"), min_value=5, max_value=300,
                                      initial=25)
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=User.BotLevel.choices,
                                  initial=User.BotLevel.NORMAL)

    # Far enough ahead that the default is still to come when the form is sent back.
    START_AHEAD = timedelta(minutes=15)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._variant_fields()
        self.fields["cap"].widget.attrs["placeholder"] = gettext("House default")
        self.fields["starts_at"].initial = timezone.localtime(
            timezone.now() + self.START_AHEAD).replace(second=0, microsecond=0)
        self.order_fields(["name", "variant", *[f.name for f in self.option_fields()]])
        self.required_mark()


class TournamentRegisterForm(forms.Form):
    """Registering for a tournament: alone, or (in a partnership variant) with a partner
    named by username."""

    partner = forms.CharField(label=_("Partner's username"), max_length=150, required=False,
                              help_text=_("Leave empty to play alone: a bot partners you."))
