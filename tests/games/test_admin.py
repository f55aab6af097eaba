"""The game rows in the admin: a hand still being played shows only what a spectator sees."""

import html
import re

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from games.engine.cards import TOKENS
from games.models import GameEvent, GameState, Match, MatchPlayer
from tests.factories import client_verified

pytestmark = pytest.mark.django_db

CARD = re.compile(r"(?<![A-Za-z0-9])(BJ|LJ|[SHCD](?:10|[2-9JQKA]))(?![A-Za-z0-9])")


@pytest.fixture
def viewer(make_user, client):
    """A staff member who may only look at game states, hands and events."""
    user = make_user()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.set(Permission.objects.filter(
        codename__in=["view_gamestate", "view_hand", "view_gameevent"]))
    return client_verified(client, user)


def hidden_tokens(table):
    """Cards nobody but their holder may know yet: every hand, the kitty, the deck not yet
    dealt, less the cards made public by then (played, declared) - the socket tests' check."""
    state = GameState.objects.get(table=table).state
    dealt = sum(len(h) for h in state["hands"])
    hidden = {TOKENS[c] for c in [*sum(state["hands"], []), *state["kitty"],
                                  *state["deck"][dealt:]]}
    public = set()
    for payload in GameEvent.objects.filter(table=table, audience__isnull=True) \
            .values_list("payload", flat=True):
        public |= set(CARD.findall(str(payload)))
    return hidden - public, state


def test_a_live_game_state_hand_and_events_show_no_hidden_card(viewer, running_hand):
    hand, table, users = running_hand
    hidden, state = hidden_tokens(table)
    assert len(hidden) > 20
    pages = [f"/admin/games/gamestate/{table.pk}/change/", f"/admin/games/hand/{hand.pk}/change/"]
    pages += [f"/admin/games/gameevent/{pk}/change/" for pk in
              GameEvent.objects.filter(table=table, type__in=["dealt", "kitty", "buried"])
              .values_list("pk", flat=True)[:30]]
    for url in pages:
        response = viewer.get(url)
        assert response.status_code == 200, url
        page = html.unescape(response.content.decode())
        assert not set(CARD.findall(page)) & hidden, url
        assert state["seed"] not in page and '"hands"' not in page and '"deck"' not in page
    # What it does show is the spectators' view: the trick being played, the counts.
    page = html.unescape(viewer.get(pages[0]).content.decode())
    assert "what a spectator sees" in page and '"counts"' in page


def test_an_ended_hand_shows_everything(viewer, finished_hand):
    hand, table, users = finished_hand()
    page = html.unescape(viewer.get(f"/admin/games/gamestate/{table.pk}/change/").content.decode())
    assert hand.seed in page and '"kitty"' in page
    dealt = GameEvent.objects.filter(table=table, type="dealt").first()
    page = html.unescape(viewer.get(f"/admin/games/gameevent/{dealt.pk}/change/").content.decode())
    assert dealt.payload["card"] in CARD.findall(page)
    page = viewer.get(f"/admin/games/hand/{hand.pk}/change/").content.decode()
    assert hand.seed in page and hand.deal_commitment in page


def test_the_view_only_staff_member_changes_nothing(viewer, running_hand):
    hand, table, users = running_hand
    for url in ("/admin/games/gamestate/add/", f"/admin/games/hand/{hand.pk}/delete/"):
        assert viewer.get(url).status_code == 403
    response = viewer.post(f"/admin/games/gamestate/{table.pk}/change/", {"phase": "end"})
    assert response.status_code == 403
    assert GameState.objects.get(table=table).phase == "play"


@pytest.fixture
def match_viewer(make_user, client):
    """A staff member who may only look at matches."""
    user = make_user()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.set(Permission.objects.filter(
        codename__in=["view_match", "view_matchplayer"]))
    return client_verified(client, user)


def match_row(table, users, *, number, variant="classic", winner_team=None):
    """A match written straight to the tables, its four players in seat order."""
    match = Match.objects.create(table=table, number=number, variant=variant, hands=7,
                                 winner_team=winner_team,
                                 ended_at=None if winner_team is None else timezone.now())
    for seat, user in enumerate(users):
        MatchPlayer.objects.create(match=match, seat=seat, team=seat % 2, user=user)
    return match


def test_matches_are_listed_filtered_and_searched_by_player(match_viewer, table_factory,
                                                            make_user):
    table, users = table_factory()
    won = match_row(table, users, number=1, winner_team=1)
    open_ = match_row(table, users, number=2)
    other_table, others = table_factory(variant="guigang")
    guigang = match_row(other_table, others, number=1, variant="guigang", winner_team=0)

    def listed(query):
        response = match_viewer.get(f"/admin/games/match/?{query}")
        assert response.status_code == 200, query
        return {m.pk for m in response.context["cl"].result_list}

    assert listed("") == {won.pk, open_.pk, guigang.pk}
    assert listed("variant=guigang") == {guigang.pk}
    assert listed("winner=1") == {won.pk}
    assert listed("winner=0") == {guigang.pk}
    assert listed("winner=none") == {open_.pk}
    # A player of both classic matches, by user name and by display name: each match once.
    assert listed(f"q={users[2].username}") == {won.pk, open_.pk}
    assert listed(f"q={others[3].display_name}") == {guigang.pk}
    page = html.unescape(match_viewer.get(f"/admin/games/match/{won.pk}/change/")
                         .content.decode())
    assert all(str(user) in page for user in users) and "Seats 1/3" in page


def test_the_view_only_staff_member_cannot_change_a_match(match_viewer, table_factory):
    table, users = table_factory()
    match = match_row(table, users, number=1)
    assert match_viewer.get("/admin/games/match/add/").status_code == 403
    assert match_viewer.get(f"/admin/games/match/{match.pk}/delete/").status_code == 403
    response = match_viewer.post(f"/admin/games/match/{match.pk}/change/",
                                 {"winner_team": 0, "hands": 1})
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.winner_team is None and match.hands == 7
    page = match_viewer.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert 'name="_save"' not in page
