"""Reads for the API, the replay page and the lobby (no locks; nothing here changes state).

A hand is public once it has ended (`ended_at` set): its history row, its replay with every
card. While it runs only the spectators' view of its table is public (table_public_view).
"""

from django.db.models import Prefetch
from django.utils import timezone

from accounts.models import LedgerEntry
from games.engine.registry import machine_for
from games.models import GameEvent, GameState, Hand, HandPlayer
from lobby.models import Seat, Table
from api.models import SittingBan, TableClosure


def user_is_banned(user):
    """True while an operator's sitting ban on `user` is in force (the lobby asks this)."""
    return sitting_ban_active(user=user) is not None


def sitting_ban_active(*, user):
    now = timezone.now()
    return (
        SittingBan.objects.filter(user=user, lifted_at__isnull=True, starts_at__lte=now,
                                  ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def table_is_closed(*, table_id):
    return TableClosure.objects.filter(table_id=table_id).exists()


def tables_live():
    """Open tables with their seats and game phase, for the live list."""
    return (
        Table.objects.filter(closure__isnull=True)
        .select_related("room", "game", "game__hand")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    )


def table_public_view(*, table):
    """What a spectator sees of the table's current hand: never a hand, the buried kitty
    or a hidden declaration (the engine's view for seat None)."""
    game = GameState.objects.filter(table=table).only("state").first()
    if game is None or not game.state:
        return None
    return machine_for(game.state["variant"]).view(game.state, None)


def hands_finished():
    return Hand.objects.filter(ended_at__isnull=False)


def hand_players_prefetch():
    return Prefetch("hand__players",
                    queryset=HandPlayer.objects.select_related("user").order_by("seat"))


def player_hand_history(*, user):
    """The player's finished hands, newest first (the (user, -hand) index)."""
    return (
        HandPlayer.objects.filter(user=user, hand__ended_at__isnull=False)
        .select_related("hand")
        .prefetch_related(hand_players_prefetch())
        .order_by("-hand_id")
    )


def hand_finished_get(*, hand_id):
    """The hand if it has ended; None if there is no such hand. Raises HandInProgress
    while it runs, so callers can say so without showing anything of it."""
    hand = (
        Hand.objects.filter(pk=hand_id)
        .prefetch_related(Prefetch("players",
                                   queryset=HandPlayer.objects.select_related("user")
                                   .order_by("seat")))
        .first()
    )
    if hand is not None and hand.ended_at is None:
        raise HandInProgress(hand_id)
    return hand


class HandInProgress(Exception):
    pass


def hand_replay_events(*, hand):
    """The whole event log of a finished hand, every seat's events included, in order."""
    if hand.ended_at is None:
        raise HandInProgress(hand.pk)
    return list(
        GameEvent.objects.filter(hand=hand).order_by("seq")
        .values("seq", "type", "payload", "audience", "created_at")
    )


def ledger_entries_of(*, user):
    """The user's own ledger entries, newest first."""
    return (
        LedgerEntry.objects.filter(account__user=user)
        .select_related("transaction")
        .order_by("-id")
    )
