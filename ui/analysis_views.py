"""The replay page's review of a hand (docs/analysis.md): its poll and its Analyse button."""

from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from games.analysis_selectors import hand_analysis_allowed, hand_analysis_get, hand_analysis_view
from games.models import Hand
from games.selectors import HandInProgress, hand_finished_get
from games.services.analysis import analysis_request
from games.services.errors import ActionError
from ui.messages import action_error_text, analysis_catalog


def analysis_client(*, request, hand: Hand) -> dict:
    """What the replay page's script needs for the review: whether the reader may ask,
    where to, the review as it stands, and its words in the reader's language."""
    allowed = hand_analysis_allowed(hand=hand, user=request.user)
    return {
        "allowed": allowed,
        "signed_in": request.user.is_authenticated,
        "recorded": hand.setup is not None,
        "url": reverse("ui:replay_analysis", args=[hand.pk]),
        "view": _json(hand_analysis_view(hand=hand, row=hand_analysis_get(hand_id=hand.pk)))
        if allowed else None,
        "labels": analysis_catalog(),
    }


def hand_analysis(request, pk):
    """GET: the review of hand `pk` as it stands (the page polls it while it is made);
    POST: ask for it (games.services.analysis.analysis_request). JSON either way; a refusal
    is {"error": code, "message": in the reader's language}."""
    if not request.user.is_authenticated:
        return _refused("not_authenticated", _("Sign in to analyse this hand."), 401)
    try:
        hand = hand_finished_get(hand_id=pk)
    except HandInProgress:
        return _refused("hand_in_progress", _("The hand is still being played."), 403)
    if hand is None:
        return _refused("not_found", action_error_text("not_found"), 404)
    if request.method == "POST":
        try:
            row = analysis_request(hand_id=hand.pk, user=request.user)
        except ActionError as error:
            status = 429 if error.code == "analysis_rate" else 403
            return _refused(error.code, action_error_text(error.code, **error.details), status)
    elif hand_analysis_allowed(hand=hand, user=request.user):
        row = hand_analysis_get(hand_id=hand.pk)
    else:
        return _refused("analysis_forbidden", action_error_text("analysis_forbidden"), 403)
    return JsonResponse(_json(hand_analysis_view(hand=hand, row=row)))


def _json(view):
    return {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in view.items()}


def _refused(code, message, status):
    return JsonResponse({"error": code, "message": message}, status=status)
