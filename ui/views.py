"""Every page of the site but the sign-in forms: home, lobby, table, replay, profile and API
token. Thin: tables are made and seats change through games.services (which decide who may),
and the live table itself talks to the socket (docs/protocol.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.selectors import api_token_of, ledger_history, point_balance
from accounts.services import api_token_create, api_token_revoke
from games import services as game_services
from games.replay import replay_build
from games.selectors import HandInProgress, hand_finished_get, hand_replay_events
from games.timers import timer_lengths
from games.variants import descriptor
from lobby.models import Table
from lobby.services import room_default_get_or_create
from ui.forms import TableCreateForm, cap_defaults
from ui.messages import action_error_text, client_catalog, in_language
from ui.selectors import lobby_rooms, seat_of


def _int_or_none(value):
    """A form field's whole number, or None when it is missing or not a number."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _lobby_page(request, form, status=200):
    return render(request, "ui/lobby.html", {
        "rooms": lobby_rooms(), "form": form, "my_seat": seat_of(user=request.user),
        "cap_defaults": cap_defaults(),
    }, status=status)


@login_required
def lobby(request):
    room_default_get_or_create()
    return _lobby_page(request, TableCreateForm())


@login_required
@require_POST
def table_create(request):
    """Make a table and sit its creator in seat 0 at the chosen stake (the first player sets
    it, P8), in one service call: a creator who cannot sit there leaves no table."""
    form = TableCreateForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, form, status=400)
    data = form.cleaned_data
    try:
        table = game_services.table_create(
            room=data["room"] or room_default_get_or_create(), user=request.user,
            variant=data["variant"], base_stake=data["base_stake"], options=form.options(),
            cap=data["cap"], turn_timeout=data["turn_timeout"], name=data["name"])
    except game_services.ActionError as error:
        messages.error(request, action_error_text(error.code, **error.data))
        return redirect("ui:lobby")
    return redirect("ui:table", table_id=table.pk)


@login_required
@require_POST
def table_sit(request, table_id):
    table = get_object_or_404(Table, pk=table_id)
    try:
        game_services.table_sit(table_id=table.pk, user=request.user,
                                seat=_int_or_none(request.POST.get("seat")),
                                base_stake=_int_or_none(request.POST.get("base_stake")))
    except game_services.ActionError as error:
        messages.error(request, action_error_text(error.code, **error.data))
        return redirect("ui:lobby")
    return redirect("ui:table", table_id=table.pk)


@login_required
@require_POST
def table_bot_add(request, table_id):
    """Fill an empty seat with a bot (games.services allows it to a player seated here)."""
    table = get_object_or_404(Table, pk=table_id)
    try:
        game_services.table_bot_add(table_id=table.pk, user=request.user,
                                    seat=_int_or_none(request.POST.get("seat")))
    except game_services.ActionError as error:
        messages.error(request, action_error_text(error.code, **error.data))
    return redirect("ui:table", table_id=table.pk)


@login_required
def table(request, table_id):
    """The live table: a player's own seat, or a spectator's view (旁观) with ?watch=1 or no seat."""
    table = get_object_or_404(Table.objects.select_related("room"), pk=table_id)
    seat = seat_of(user=request.user, table_id=table.pk)
    watching = seat is None or request.GET.get("watch") == "1"
    mode = "watch" if watching else "play"
    rules = descriptor(table.variant)
    client = {
        "table": table.pk,
        "mode": mode,
        "seat": None if watching else seat,
        "socket": f"/ws/tables/{table.pk}/{mode}/",
        # What the script knows of the rule set (its descriptor).
        "variant": {"id": rules.id, "label": in_language(rules.label),
                    "partnerships": rules.partnerships, "plays_matches": rules.plays_matches},
        # The countdown: seconds per timer kind at this table (games.timers).
        "timers": timer_lengths(variant=table.variant, turn_timeout=table.turn_timeout),
        "lobby": reverse("ui:lobby"),
        "profile": reverse("ui:profile"),
        "catalog": client_catalog(),
    }
    return render(request, "ui/table.html", {
        "table": table, "client": client, "watching": watching,
        "has_seat_elsewhere": seat_of(user=request.user) is not None and seat is None,
    })


def hand_replay(request, pk):
    """Step through a finished hand trick by trick (403 while it is being played)."""
    try:
        hand = hand_finished_get(hand_id=pk)
    except HandInProgress:
        return render(request, "ui/replay_unavailable.html", {"hand_id": pk}, status=403)
    if hand is None:
        raise Http404
    return render(request, "ui/replay.html", {
        "hand": hand,
        "players": list(hand.players.all()),
        "replay": replay_build(hand_replay_events(hand=hand)),
    })


@login_required
def profile(request):
    return render(request, "ui/profile.html", {
        "balance": point_balance(user=request.user),
        "entries": ledger_history(user=request.user),
    })


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
