"""The browser's lobby and table pages. Thin: seats change through games.services, tables
are made by lobby.services, and the live table itself talks to the socket (docs/protocol.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import services as game_services
from games.engine.registry import descriptor
from games.timers import timer_lengths
from lobby import services as lobby_services
from lobby.models import Table
from ui.forms import TableCreateForm
from ui.messages import action_error_text, client_catalog, in_language
from ui.selectors import lobby_rooms, seat_of


@login_required
def lobby(request):
    lobby_services.room_default_get_or_create()
    return render(request, "ui/lobby.html", {
        "rooms": lobby_rooms(),
        "form": TableCreateForm(),
        "my_seat": seat_of(user=request.user),
    })


@login_required
@require_POST
def table_create(request):
    """Make a table and sit its creator in seat 0 at the chosen stake (the first player sets it, P8)."""
    form = TableCreateForm(request.POST)
    if not form.is_valid():
        return render(request, "ui/lobby.html", {
            "rooms": lobby_rooms(), "form": form, "my_seat": seat_of(user=request.user),
        }, status=400)
    data = form.cleaned_data
    room = data["room"] or lobby_services.room_default_get_or_create()
    try:
        table = lobby_services.table_create(
            room=room, user=request.user, variant=data["variant"], options=form.options(),
            turn_timeout=data["turn_timeout"], name=data["name"])
        game_services.table_sit(table_id=table.pk, user=request.user, seat=0,
                                base_stake=data["base_stake"])
    except game_services.ActionError as error:
        messages.error(request, action_error_text(error.code))
        return redirect("ui:lobby")
    return redirect("ui:table", table_id=table.pk)


@login_required
@require_POST
def table_sit(request, table_id):
    table = get_object_or_404(Table, pk=table_id)
    try:
        game_services.table_sit(table_id=table.pk, user=request.user,
                                seat=_int(request.POST.get("seat")),
                                base_stake=_int(request.POST.get("base_stake")))
    except game_services.ActionError as error:
        messages.error(request, action_error_text(error.code))
        return redirect("ui:lobby")
    return redirect("ui:table", table_id=table.pk)


@login_required
@require_POST
def table_bot_add(request, table_id):
    """Only a player seated at the table may fill its empty seats with bots."""
    table = get_object_or_404(Table, pk=table_id)
    if seat_of(user=request.user, table_id=table.pk) is None:
        messages.error(request, action_error_text("not_seated"))
    else:
        try:
            game_services.table_bot_add(table_id=table.pk, seat=_int(request.POST.get("seat")))
        except game_services.ActionError as error:
            messages.error(request, action_error_text(error.code))
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
        "profile": reverse("accounts:profile"),
        "catalog": client_catalog(),
    }
    return render(request, "ui/table.html", {
        "table": table, "client": client, "watching": watching,
        "has_seat_elsewhere": seat_of(user=request.user) is not None and seat is None,
    })


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None

