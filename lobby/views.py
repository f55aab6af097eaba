from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.services import ActionError
from lobby.models import Room
from lobby.selectors import lobby_rooms, variants_available
from lobby.services import room_default_get_or_create, table_create


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
def lobby(request):
    room_default_get_or_create()
    return render(request, "lobby/lobby.html",
                  {"rooms": lobby_rooms(), "variants": variants_available()})


@login_required
@require_POST
def table_new(request):
    room = get_object_or_404(Room, pk=_int_or_none(request.POST.get("room")))
    try:
        table = table_create(
            room=room, user=request.user, variant=request.POST.get("variant", ""),
            turn_timeout=_int_or_none(request.POST.get("turn_timeout")) or 25,
            name=request.POST.get("name", "")[:64],
        )
    except ActionError as error:
        messages.error(request, error.message)
        return redirect("lobby:lobby")
    return redirect("games:table", table_id=table.pk)
