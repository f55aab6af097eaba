"""Server-rendered pages of the API app: the replay player and the API token page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from api.replay import replay_build
from api.selectors import HandInProgress, hand_finished_get, hand_replay_events
from api.services import api_token_create, api_token_revoke


def hand_replay_page(request, pk):
    """Step through a finished hand trick by trick (403 while it is being played)."""
    try:
        hand = hand_finished_get(hand_id=pk)
    except HandInProgress:
        return render(request, "api/replay_unavailable.html", {"hand_id": pk}, status=403)
    if hand is None:
        raise Http404
    replay = replay_build(hand_replay_events(hand=hand))
    return render(request, "api/replay.html", {
        "hand": hand,
        "players": list(hand.players.all()),
        "replay": replay,
    })


@login_required
def api_token_page(request):
    token = Token.objects.filter(user=request.user).first()
    return render(request, "api/token.html", {"token": token})


@login_required
@require_POST
def api_token_create_view(request):
    api_token_create(user=request.user)
    messages.success(request, "A new API token was created; the old one no longer works.")
    return redirect("api_pages:token")


@login_required
@require_POST
def api_token_revoke_view(request):
    api_token_revoke(user=request.user)
    messages.success(request, "Your API token was revoked.")
    return redirect("api_pages:token")
