from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import services
from games.models import GameState
from games.selectors import seat_number_of
from lobby.models import Table
from lobby.stakes import stake_required_balance, worst_loss_stakes


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
def table(request, table_id):
    """The table page: a player's own seat, or a spectator's chosen seat to watch from."""
    table = get_object_or_404(Table.objects.select_related("room"), pk=table_id)
    seat = seat_number_of(table_id=table.pk, user=request.user)
    watch_from = _int_or_none(request.GET.get("seat"))
    return render(request, "games/table.html", {
        "table": table,
        "seat": seat,
        "watch_from": watch_from if watch_from in (0, 1, 2, 3) else 0,
        "seats": table.seats.select_related("user").order_by("number"),
        "worst_loss": worst_loss_stakes(table.variant),
        "required": stake_required_balance(variant=table.variant, base_stake=table.base_stake)
        if table.base_stake else None,
    })


def _act(request, table_id, call):
    try:
        call()
    except services.ActionError as error:
        messages.error(request, error.message)
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
def table_sit(request, table_id):
    return _act(request, table_id, lambda: services.table_sit(
        table_id=table_id, user=request.user, seat=_int_or_none(request.POST.get("seat")),
        base_stake=_int_or_none(request.POST.get("base_stake"))))


@login_required
@require_POST
def table_bot(request, table_id):
    return _act(request, table_id, lambda: services.table_bot_add(
        table_id=table_id, seat=_int_or_none(request.POST.get("seat")),
        base_stake=_int_or_none(request.POST.get("base_stake"))))


@login_required
@require_POST
def table_leave(request, table_id):
    """Stand up (between hands) or leave mid-hand (an escape), as of the table's version now."""
    game = get_object_or_404(GameState, pk=table_id)
    return _act(request, table_id, lambda: services.game_apply_action(
        table_id=table_id, user=request.user, action={"type": "leave"}, version=game.version))
