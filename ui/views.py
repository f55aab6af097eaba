"""Every page of the site but the sign-in forms: home, lobby, table, replay, profile and API
token. Thin: tables are made and seats change through games.services (which decide who may),
and the live table itself talks to the socket (docs/protocol.md)."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.selectors import api_token_of, ledger_history, point_balance, user_prefs
from accounts.services import api_token_create, api_token_revoke, relief_grant, user_prefs_set
from games.selectors import (
    HandInProgress,
    account_export,
    hand_finished_get,
    hand_replay_build,
    quick_status,
    table_admits,
)
from games.services import quick as quick_services
from games.services import tables as table_services
from games.services.accounts import account_delete
from games.services.errors import ActionError
from games.services.invites import invite_use
from games.stakes import smallest_table_need
from games.variants import (
    descriptor,
    descriptor_or_none,
    descriptors,
    level_name,
    rules_facts,
    seat_team,
    variant_ids,
    variant_teams,
)
from lobby.models import Table
from lobby.services import room_default_get_or_create
from stats.ratings import PROVISIONAL_HANDS
from stats.selectors import leaderboard_rating
from ui.analysis_views import analysis_client
from ui.forms import (
    AccountDeleteForm,
    BotsPlayForm,
    PrefsForm,
    QuickPlayForm,
    TableCreateForm,
    create_rules,
    need_text,
)
from ui.messages import (
    LABELS,
    SEAT_PLACES,
    action_error_text,
    client_catalog,
    in_language,
    replay_catalog,
)
from ui.selectors import lobby_rooms, seat_of


def _int_or_none(value):
    """A form field's whole number, or None when it is missing or not a number."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _clock(seconds):
    """A time waited as minutes:seconds, the same in every language (lobby.js counts on)."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def _lobby_page(request, form=None, bots_form=None, status=200, quick_form=None):
    balance = point_balance(user=request.user)
    quick = quick_status(user=request.user, now=timezone.now())
    if quick["state"] == "waiting":
        quick["clock"] = _clock(quick["waited"])
    return render(request, "ui/lobby.html", {
        "quick": quick if quick["state"] == "waiting" else None,
        "quick_form": quick_form or QuickPlayForm(),
        "rooms": lobby_rooms(), "my_seat": seat_of(user=request.user), "balance": balance,
        "form": form or TableCreateForm(balance=balance),
        "bots_form": bots_form or BotsPlayForm(),
        "create_rules": create_rules(balance=balance),
    }, status=status)


def relief_offer(request, user):
    """The daily relief (救济金) for a player not seated anywhere whose points no longer cover
    the smallest table; a message says so when it is given (on sign-in and on the lobby)."""
    if seat_of(user=user) is not None:
        return
    if relief_grant(user=user, need=smallest_table_need()) is not None:
        messages.success(request, _(
            "Daily relief: you were given %(amount)s points, as your points no longer "
            "cover the smallest table.") % {"amount": settings.POINTS_RELIEF_GRANT},
            fail_silently=True)  # a sign-in without a session's messages (tests, the API)


@login_required
def lobby(request):
    room_default_get_or_create()
    relief_offer(request, request.user)
    return _lobby_page(request)


@login_required
@require_POST
def table_create(request):
    """Make a table and sit its creator in seat 0 at the chosen stake (the first player sets
    it, P8), in one service call: a creator who cannot sit there leaves no table. Refusals
    are shown beside the field, on the lobby page (400)."""
    form = TableCreateForm(request.POST, balance=point_balance(user=request.user))
    if not form.is_valid():
        return _lobby_page(request, form=form, status=400)
    data = form.cleaned_data
    try:
        table = table_services.table_create(
            room=data["room"] or room_default_get_or_create(), user=request.user,
            variant=data["variant"], base_stake=data["base_stake"], options=form.options(),
            cap=data["cap"], turn_timeout=data["turn_timeout"], name=data["name"],
            private=data["private"])
    except ActionError as error:
        if error.code == "balance_too_low":  # the balance moved since the form's check
            form.add_error("cap", need_text(need=error.details["need"], cap=data["cap"],
                                            stake=data["base_stake"],
                                            balance=point_balance(user=request.user)))
        else:
            form.add_error(None, action_error_text(error.code, **error.details))
        return _lobby_page(request, form=form, status=400)
    return redirect("ui:table", table_id=table.pk)


@login_required
@require_POST
def table_bots_play(request):
    """"Play against bots": a table, the player, three bots and the first hand, in one
    service call (games.services.tables.table_bots_play)."""
    form = BotsPlayForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, bots_form=form, status=400)
    try:
        table = table_services.table_bots_play(room=room_default_get_or_create(),
                                              user=request.user,
                                              variant=form.cleaned_data["variant"],
                                              options=form.options())
    except ActionError as error:
        text = action_error_text(error.code, **error.details)
        if error.code == "bots_balance_too_low":
            text += " " + _("You hold %(balance)s points.") % {
                "balance": point_balance(user=request.user)}
        form.add_error(None, text)
        return _lobby_page(request, bots_form=form, status=400)
    return redirect("ui:table", table_id=table.pk)


def _quick_refused(request, error):
    if error.code == "already_seated":
        messages.error(request, _("You already have a seat at a table: go back to it, or "
                                  "leave it, before quick play."))
    else:
        messages.error(request, action_error_text(error.code, **error.details))


@login_required
@require_POST
def quick_join(request):
    """Quick play: join the queue for the game of the button pressed (games.services.quick);
    back on the lobby, its waiting panel polls quick_status_json until a table is found."""
    form = QuickPlayForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, quick_form=form, status=400)
    data = form.cleaned_data
    try:
        quick_services.quick_join(user=request.user, variant=data["variant"],
                                  base_stake=data["base_stake"], cap=data["cap"],
                                  bots_after=data["wait"])
    except ActionError as error:
        _quick_refused(request, error)
    return redirect("ui:lobby")


@login_required
@require_POST
def quick_leave(request):
    quick_services.quick_leave(user=request.user)
    return redirect("ui:lobby")


@login_required
@require_POST
def quick_bots(request):
    """"Fill with bots now": the wait ends; the panel goes on polling to be taken to the table."""
    quick_services.quick_bots_now(user=request.user)
    return redirect("ui:lobby")


@login_required
def quick_status_json(request):
    """The waiting panel's poll (docs/api.md, "Quick play"): the player's place in the queue,
    kept alive by this very poll, or the table they were seated at (with its page's URL)."""
    quick_services.quick_seen(user=request.user)
    status = quick_status(user=request.user, now=timezone.now())
    if status["state"] == "seated":
        status["url"] = reverse("ui:table", args=[status["table"]])
    return JsonResponse(status)


@login_required
@require_POST
def table_sit(request, table_id):
    table = get_object_or_404(Table, pk=table_id)
    try:
        table_services.table_sit(table_id=table.pk, user=request.user,
                                seat=_int_or_none(request.POST.get("seat")),
                                base_stake=_int_or_none(request.POST.get("base_stake")))
    except ActionError as error:
        messages.error(request, action_error_text(error.code, **error.details))
        return redirect("ui:lobby")
    return redirect("ui:table", table_id=table.pk)


@login_required
@require_POST
def table_bot_add(request, table_id):
    """Fill an empty seat with a bot (games.services allows it to a player seated here)."""
    table = get_object_or_404(Table, pk=table_id)
    try:
        table_services.table_bot_add(table_id=table.pk, user=request.user,
                                    seat=_int_or_none(request.POST.get("seat")),
                                    level=request.POST.get("level") or "normal")
    except ActionError as error:
        messages.error(request, action_error_text(error.code, **error.details))
    return redirect("ui:table", table_id=table.pk)


@login_required
def table(request, table_id):
    """The live table: a player's own seat, or a spectator's view (旁观) with ?watch=1 or no seat.

    A private table shows only to whom it admits (games.selectors.table_admits); others get
    a page that says why (403). Its invitation link (`?invite=<token>`) lets its holder in
    for good (games.services.invites.invite_use) and comes back to the address without it,
    so the token stays out of the history and of what the page shows."""
    table = get_object_or_404(Table.objects.select_related("room"), pk=table_id)
    token = request.GET.get("invite")
    if token is not None:
        # A token that is not the table's current one lets nobody in: the page below says so.
        invite_use(table_id=table.pk, user=request.user, token=token)
    if not table_admits(table=table, user_id=request.user.pk):
        return render(request, "ui/table_private.html",
                      {"table": table, "link_refused": token is not None}, status=403)
    if token is not None:
        query = request.GET.copy()
        del query["invite"]
        address = reverse("ui:table", args=[table.pk])
        return redirect(f"{address}?{query.urlencode()}" if query else address)
    seat = seat_of(user=request.user, table_id=table.pk)
    watching = seat is None or request.GET.get("watch") == "1"
    mode = "watch" if watching else "play"
    rules = descriptor(table.variant)
    client = {
        "table": table.pk,
        "mode": mode,
        "seat": None if watching else seat,
        "socket": f"/ws/tables/{table.pk}/{mode}/",
        # What the script knows of the rule set (its descriptor); which parts of a table it
        # has (a kitty, levels, a contract) each view says (`parts`).
        "variant": {"id": rules.id, "label": in_language(rules.label),
                    "partnerships": rules.partnerships, "teams": variant_teams(rules)},
        "lobby": reverse("ui:lobby"),
        "profile": reverse("ui:profile"),
        # A finished hand's replay: "{hand}" stands for the hand_id of hand_started/settled.
        "replay_url": reverse("ui:replay", args=[0]).replace("/0/", "/{hand}/"),
        "catalog": client_catalog(),
        # The player's settings; the page changes them by POSTing JSON to `prefs_url` with
        # `csrf` in the X-CSRFToken header.
        "prefs": user_prefs(user=request.user),
        # Chat marks the reader's own messages (a chat event's `user`).
        "user": request.user.pk,
        "prefs_url": reverse("ui:prefs"),
        "csrf": get_token(request),
        # A private table's invitation link: "{token}" stands for the seats' `invite`.
        "invite_url": (reverse("ui:table", args=[table.pk]) + "?invite={token}"
                       if table.private else None),
    }
    return render(request, "ui/table.html", {
        "table": table, "client": client, "watching": watching,
        "sort_choices": User.HandSort.choices,
        "has_seat_elsewhere": seat_of(user=request.user) is not None and seat is None,
    })


# Where each seat sits on the page, from the reader's own seat (at the bottom) on. Someone
# who did not play sees South at the bottom, so East is on the right as on a map.
POSITIONS = ("bottom", "right", "top", "left")
SOUTH = 3


def hand_replay(request, pk):
    """A finished hand drawn as a table, stepped through trick by trick (403 while it is
    being played). A player of the hand sees it from their own seat."""
    try:
        hand = hand_finished_get(hand_id=pk)
    except HandInProgress:
        return render(request, "ui/replay_unavailable.html", {"hand_id": pk}, status=403)
    if hand is None:
        raise Http404
    replay = hand_replay_build(hand=hand)
    players = list(hand.players.all())
    rules = descriptor_or_none(hand.variant)
    teams = rules.partnerships if rules else True
    mine = next((p.seat for p in players if p.user_id == request.user.pk), SOUTH)
    seats = [{
        "seat": p.seat, "name": str(p.user), "bot": p.is_bot, "points": p.points,
        "place": str(SEAT_PLACES[p.seat]), "pos": POSITIONS[(p.seat - mine) % 4],
        "team": ("B" if seat_team(p.seat) else "A") if teams else None,
        "dealer": p.seat == hand.dealer,
    } for p in players]
    trump = replay["trump"]
    names = [s["name"] for s in seats]
    return render(request, "ui/replay.html", {
        "hand": hand,
        "seats": seats,
        "dealer": next((s for s in seats if s["dealer"]), None),
        "teams": teams,
        "plays_matches": rules.plays_matches if rules else True,
        "trump": trump,
        "no_trump": str(LABELS["no_trump"]),
        "level": level_name(trump["level"]) if trump else None,
        "levels_before": [level_name(n) for n in hand.levels_before or []],
        "levels_after": [level_name(n) for n in hand.levels_after or []],
        "replay": replay,
        "calls": [_replay_call(call, names) for call in replay["calls"]],
        "tricks": [{
            "leader": names[t["leader"]],
            "winner": names[t["winner"]] if t.get("winner") is not None else None,
            "points": t.get("points"),
        } for t in replay["tricks"]],
        "script": {"replay": replay, "names": names, "positions": [s["pos"] for s in seats],
                   "labels": replay_catalog(), "csrf": get_token(request),
                   # The review (static/ui/analysis.js): its state, its button, its words.
                   "analysis": analysis_client(request=request, hand=hand)},
    })


def _replay_call(call, names):
    """One declaration, bid, contract or trump of a replay as a sentence (with the cards or
    the suit the page draws)."""
    kind, seat = call["type"], call.get("seat", call.get("dealer"))
    name = names[seat] if seat is not None else "–"
    if kind == "declared":
        return {"text": _("%(name)s declared") % {"name": name}, "cards": call["cards"]}
    if kind == "bid":
        text = (_("%(name)s passes") if call.get("bid") is None else _("%(name)s bids %(bid)s"))
        return {"text": text % {"name": name, "bid": call.get("bid")}}
    if kind == "contract":
        return {"text": _("%(name)s plays for %(bid)s (× %(m)s)") % {
            "name": name, "bid": call.get("bid"), "m": call.get("multiplier")}}
    if call.get("trump") is None:
        return {"text": _("%(name)s deals; no trump") % {"name": name}}
    return {"text": _("%(name)s deals; trump:") % {"name": name}, "suit": call["trump"]}


def rules(request, variant_id):
    """A rule set explained to a newcomer (issue 32, learn in place), open to anyone. The
    variant's own page (templates/ui/rules/<id>.html) tells its story; the figures it quotes
    (decks, kitty, trump order, permanent trumps) come from the engine (rules_facts). A rule
    set with no page of its own gets the common page, its facts only."""
    rules = descriptor_or_none(variant_id)
    if rules is None:
        raise Http404
    page = select_template([f"ui/rules/{rules.id}.html", "ui/rules/base.html"])
    return HttpResponse(page.render({
        "variant": rules, "label": in_language(rules.label), "summary": in_language(rules.summary),
        "facts": rules_facts(rules.id),
        "others": [(d.id, in_language(d.label)) for d in descriptors() if d.id != rules.id],
    }, request))


RATINGS_SHOWN = 100


def ratings_leaderboard(request):
    """The best-rated players of one game (`?variant=`, the first game by default), open to
    anyone: the top RATINGS_SHOWN of stats.selectors.leaderboard_rating."""
    variant = request.GET.get("variant") or variant_ids()[0]
    if descriptor_or_none(variant) is None:
        raise Http404
    return render(request, "ui/ratings.html", {
        "variant": variant,
        "variants": [(d.id, in_language(d.label)) for d in descriptors()],
        "rows": list(leaderboard_rating(variant=variant)[:RATINGS_SHOWN]),
        "provisional_hands": PROVISIONAL_HANDS,
    })


def _profile_page(request, prefs_form=None, delete_form=None, status=200):
    return render(request, "ui/profile.html", {
        "balance": point_balance(user=request.user),
        "entries": ledger_history(user=request.user),
        "prefs_form": prefs_form or PrefsForm(initial=user_prefs(user=request.user)),
        "delete_form": delete_form or AccountDeleteForm(),
    }, status=status)


@login_required
def profile_data(request):
    """Everything about the player's account, as a JSON file to download."""
    response = JsonResponse(account_export(user=request.user),
                            json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tractor-{request.user.pk}.json"'
    response["Cache-Control"] = "private, no-store"
    return response


ACCOUNT_DELETE_REFUSALS = {
    "bad_password": _lazy("The password is not right."),
    "seated_in_hand": _lazy("You sit at a table with a hand running. Finish the hand and "
                            "leave the table, then delete your account."),
    "seated": _lazy("You sit at a table. Leave it, then delete your account."),
}


@login_required
@require_POST
def profile_delete(request):
    """Delete the player's account (its password confirms); a refusal is said beside the
    password (400) and nothing changes."""
    form = AccountDeleteForm(request.POST)
    if form.is_valid():
        try:
            account_delete(user=request.user, password=form.cleaned_data["password"])
        except ActionError as refused:
            form.add_error("password", str(ACCOUNT_DELETE_REFUSALS.get(refused.code, refused)))
        else:
            logout(request)
            messages.success(request, _("Your account is deleted."))
            return redirect("ui:home")
    return _profile_page(request, delete_form=form, status=400)


@login_required
def profile(request):
    return _profile_page(request)


@login_required
@require_POST
def profile_prefs(request):
    """The profile page's table settings form; a refusal is shown beside its field (400)."""
    form = PrefsForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, prefs_form=form, status=400)
    user_prefs_set(user=request.user, hand_sort=form.cleaned_data["sort"],
                   turn_sound=form.cleaned_data["turn_sound"],
                   card_counter=form.cleaned_data["counter"])
    messages.success(request, _("Your table settings are saved."))
    return redirect("ui:profile")


@require_POST
def prefs_json(request):
    """The table page's settings switch: a JSON object with `sort` ("trump" or "suit"),
    `turn_sound` and/or `counter` (true/false); answers with the settings now. Like every POST it
    needs the CSRF token (header X-CSRFToken)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "not_logged_in"}, status=401)
    try:
        body = json.loads(request.body)
    except ValueError:
        body = None
    form = PrefsForm.from_json(body, user_prefs(user=request.user))
    if form is None or not form.is_valid():
        return JsonResponse({"error": "bad_prefs"}, status=400)
    user_prefs_set(user=request.user, hand_sort=form.cleaned_data["sort"],
                   turn_sound=form.cleaned_data["turn_sound"],
                   card_counter=form.cleaned_data["counter"])
    return JsonResponse(user_prefs(user=request.user))


@login_required
def api_token(request):
    return render(request, "ui/token.html", {"token": api_token_of(user=request.user)})


@login_required
@require_POST
def api_token_new(request):
    api_token_create(user=request.user)
    messages.success(request, "A new API token was created; the old one no longer works.")
    return redirect("ui:token")


@login_required
@require_POST
def api_token_delete(request):
    api_token_revoke(user=request.user)
    messages.success(request, "Your API token was revoked.")
    return redirect("ui:token")
