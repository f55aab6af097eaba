from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameEvent, GameState, Hand
from games.services.timeouts import game_timer_fire
from tournaments.services import tournament_create, tournament_register


@pytest.fixture
def tournament_of(make_user):
    """A tournament of `variant` (unstaked, one board a round unless told) with the
    registrations `field` describes: 2 a pair, 1 a player alone. Returns (tournament, the
    registered users by entry)."""

    def make(variant, field, **extra):
        tournament = tournament_create(
            name=f"{variant} cup", variant=variant, created_by=None,
            starts_at=timezone.now() + timedelta(hours=1),
            **{"boards_per_round": 1, "rounds": 2, "bot_level": "easy", **extra})
        users = []
        for size in field:
            members = [make_user() for _ in range(size)]
            tournament_register(tournament_id=tournament.pk, user=members[0],
                                partner=members[1] if size == 2 else None)
            users.append(members)
        return tournament, users

    return make


def dealt_cards(table_id):
    """Each seat's cards of the table's first deal, in the order dealt (its `dealt` events
    before any redeal)."""
    hand = Hand.objects.get(table_id=table_id, number=1)
    cards = [[], [], [], []]
    for event in GameEvent.objects.filter(hand=hand).order_by("seq"):
        if event.type == "redeal":
            break
        if event.type == "dealt":
            cards[event.audience].append(event.payload["card"])
    return cards


def deal_out(table_id):
    """Fire the table's timers until its first deal is complete (the bots and the platform's
    clock play; the players registered are not connected)."""
    for _ in range(5000):
        game = GameState.objects.get(table_id=table_id)
        state = game.state
        if state["phase"] != "deal" or state["redeals"]:
            return
        assert game_timer_fire(table_id=table_id, version=game.version)
    raise AssertionError("the deal did not end")


def hand_play_out(table_id):
    """Fire the table's timers until its hand has ended. Returns the Hand."""
    for _ in range(20000):
        game = GameState.objects.get(table_id=table_id)
        if game.phase == "end":
            return Hand.objects.get(table_id=table_id, number=1)
        assert game.deadline is not None, game.state["phase"]
        assert game_timer_fire(table_id=table_id, version=game.version)
    raise AssertionError("the hand did not end")
