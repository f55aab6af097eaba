"""The duplicate tournaments' pages (docs/tournaments.md): the list, the new-tournament
form and a tournament's page (registration, standings, boards). Thin: tournaments.services
decides, tournaments.selectors reads; the page's standings then follow its socket."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.services.errors import ActionError
from games.variants import descriptor
from tournaments.models import Tournament
from tournaments.selectors import (
    entry_names,
    entry_of,
    player_board_table,
    player_named,
    tournament_boards,
    tournament_live,
    tournaments_listed,
)
from tournaments.services import tournament_create, tournament_register
from ui.forms import TournamentCreateForm, TournamentRegisterForm
from ui.messages import action_error_text


def tournament_list(request):
    listed = list(tournaments_listed())
    return render(request, "ui/tournaments.html", {
        "groups": [(status, label, [t for t in listed if t.status == status])
                   for status, label in Tournament.Status.choices]})


@login_required
def tournament_new(request):
    """The form (GET) and its sending (POST): the service's refusals are shown in the
    reader's language above the form (400)."""
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournament_create(
                name=data["name"], variant=data["variant"], options=form.options(),
                stake=data["stake"], cap=data["cap"], boards_per_round=data["boards_per_round"],
                rounds=data["rounds"], starts_at=data["starts_at"],
                turn_seconds=data["turn_seconds"], bot_level=data["bot_level"],
                created_by=request.user)
        except ActionError as error:
            form.add_error(None, action_error_text(error.code, **error.details))
        else:
            return redirect("ui:tournament", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "ui/tournament_new.html", {"form": form}, status=status)


def _board_rows(tournament_id):
    """Each board with, per table, who held each seat (an entry's member, or a bot) and,
    once revealed, what the seat made and its matchpoints."""
    names = entry_names(tournament_id=tournament_id)
    rows = []
    for played, board, tables in tournament_boards(tournament_id=tournament_id):
        shown = []
        for table in tables:
            seats = []
            for seat, entry in enumerate(table.seats):
                members = names.get(entry, [])
                place = table.seats[:seat].count(entry)
                seats.append({"number": seat + 1, "entry": entry,
                              "player": members[place] if place < len(members) else None,
                              "delta": table.deltas[seat] if table.deltas else None,
                              "matchpoints": table.matchpoints[seat] if table.matchpoints
                              else None})
            shown.append({"result": table, "seats": seats})
        rows.append({"round": played, "board": board, "tables": shown})
    return rows


def _tournament_page(request, tournament, form=None, status=200):
    user = request.user
    entry = entry_of(tournament_id=tournament.pk, user_id=user.pk) if user.is_authenticated \
        else None
    return render(request, "ui/tournament.html", {
        "tournament": tournament, "live": tournament_live(tournament_id=tournament.pk),
        "boards": _board_rows(tournament.pk), "entry": entry,
        "partnerships": descriptor(tournament.variant).partnerships,
        "my_table": player_board_table(tournament_id=tournament.pk, user_id=user.pk)
        if entry is not None else None,
        "form": form or TournamentRegisterForm(),
    }, status=status)


def tournament_page(request, tournament_id):
    return _tournament_page(request, get_object_or_404(Tournament, pk=tournament_id))


@login_required
@require_POST
def tournament_join(request, tournament_id):
    """Register the player, with the partner named (if any)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = TournamentRegisterForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, form=form, status=400)
    partner = None
    if form.cleaned_data["partner"]:
        partner = player_named(username=form.cleaned_data["partner"])
        if partner is None:
            form.add_error("partner", action_error_text("no_such_player"))
            return _tournament_page(request, tournament, form=form, status=400)
    try:
        tournament_register(tournament_id=tournament.pk, user=request.user, partner=partner)
    except ActionError as error:
        form.add_error(None, action_error_text(error.code, **error.details))
        return _tournament_page(request, tournament, form=form, status=400)
    return redirect("ui:tournament", tournament_id=tournament.pk)
