"""Reads of tables' games and of finished hands, for sockets, pages and the API (no locks;
nothing here changes state).

A hand is public once it has ended (`ended_at` set): its history row, its replay with every
card. While it runs only the spectators' view of its table is public (table_public_view).
"""

from datetime import datetime
from typing import Any, NamedTuple, TypedDict

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Sum

from accounts.models import LedgerEntry, PointAccount, User
from accounts.selectors import users_banned_now
from games.chat import CHAT_EVENTS, CHAT_RECENT
from games.engine.counter import card_counter
from games.engine.facts import hand_facts, hand_teams
from games.engine.registry import descriptor, machine_for
from games.models import (
    SPECTATORS,
    ChatMessage,
    DealPreset,
    GameEvent,
    GameState,
    Hand,
    HandPlayer,
    Match,
    QuickEntry,
    TableClosure,
)
from games.rematch import REMATCH, REMATCH_MOVES, rematch_answers
from games.replay import replay_build, replay_sort
from games.timers import ABANDONED
from lobby.models import Seat, Table, TableGuest
from stats.models import Rating

# A reconnecting client further behind than this gets a snapshot instead of events.
CATCHUP_MAX_EVENTS = 500

# What a socket or a page is sent (JSON): a view, a snapshot, a seat's entry, an event.
JSONObject = dict[str, Any]


def table_public(*, table: Table, seats: list[Seat], control: list[JSONObject],
                 version: int) -> JSONObject:
    """What everyone may know about a table: variant, stake, who sits where and how."""
    return {
        "id": table.pk,
        "variant": table.variant,
        "options": table.options,
        "base_stake": table.base_stake,
        "turn_timeout": table.turn_timeout,
        "version": version,
        "seats": [_seat_public(s, control[s.number]) for s in seats],
    }


def _seat_public(seat: Seat, control: JSONObject) -> JSONObject:
    user = seat.user if seat.user_id else None
    bot = user is not None and user.is_bot
    return {
        "seat": seat.number,
        "user": seat.user_id,
        "name": str(user) if user is not None else None,
        "bot": bot,
        "bot_level": user.bot_level if user is not None and bot else None,
        # The page names a platform bot in its reader's language (机器人 3 / Bot 3).
        "bot_number": user.bot_number if user is not None else None,
        "ready": seat.ready,
        "auto": control["auto"],
        "connected": control["connected"],
    }


def game_view(*, game: GameState, seats: list[Seat],
              seat: int | None) -> JSONObject | None:
    """The engine's view of the table's hand for `seat` (None: the spectators), with what
    the platform adds: the running timer (`timer`), the match (`match`), the hand's id
    (`hand_id`, for its replay) and who plays with whom (`teams`, from the rule set's
    descriptor: a page holds no rule of partnerships). None before the first hand. `game`
    is the GameState as committed, `seats` the table's Seat rows."""
    return game_views(game=game, seats=seats, audiences=[seat])[seat]


def game_views(*, game: GameState, seats: list[Seat],
               audiences: list[int | None]) -> dict[int | None, JSONObject | None]:
    """{audience: game_view(...)} for each of `audiences` (seats, None: the spectators),
    built together: what every audience sees is built once and shared."""
    state = game.state
    if state is None:
        return dict.fromkeys(audiences)
    variant = hand_facts(state).variant
    machine = machine_for(variant)
    views: dict[int | None, JSONObject | None] = machine.views(state, audiences)
    added = {"timer": _timer_view(game, seats, machine),
             "match": _match_view(game.match) if game.match is not None else None,
             "rematch": _rematch_view(game.control),
             "hand_id": game.hand_id,
             "teams": hand_teams(state, partnerships=descriptor(variant).partnerships)}
    for view in views.values():
        if view is not None:  # (the engine gives every audience a view)
            view.update(added)
    _counters(game, machine, views)
    return views


def _counters(game: GameState, machine: Any, views: dict[int | None, JSONObject | None]) -> None:
    """The card counter (记牌器, `counter`) in the view of each seat whose socket turned it
    on (`control[seat]["counter"]`, games.services.play): built only for those seats, so
    a table where nobody uses it pays one lookup per seat view."""
    control = game.control
    for audience, view in views.items():
        if audience is not None and view is not None and control \
                and control[audience].get("counter"):
            view["counter"] = card_counter(machine, game.state, audience)


def _timer_view(game: GameState, seats: list[Seat], machine: Any) -> JSONObject | None:
    """{"kind", "deadline" (ISO 8601, UTC), "seats" (whom it waits for: [] for the deal and
    the declaration window)} of the running timer, or None; the "abandoned" timer of a
    table nobody sits at waits for nobody, so it is not shown."""
    if game.deadline is None or game.timer_kind == ABANDONED:
        return None
    if game.timer_kind == "ready":
        waiting = [s.number for s in seats if s.user is not None and not s.user.is_bot
                   and not s.ready]
    elif game.timer_kind == REMATCH:
        answers = rematch_answers(game.control) or []
        waiting = [seat for seat, accepted in enumerate(answers) if not accepted]
    else:
        timer = machine.timer_due(game.state)
        waiting = [timer[1]] if timer is not None and timer[1] is not None else []
    return {"kind": game.timer_kind, "deadline": game.deadline.isoformat(), "seats": waiting}


def _rematch_view(control: list[JSONObject]) -> JSONObject | None:
    """The open rematch offer (games.rematch): the seats that accepted, those it waits for,
    and where each seat's player sits in the next match (`moves`); None without one."""
    answers = rematch_answers(control)
    if answers is None:
        return None
    return {"accepted": [seat for seat, yes in enumerate(answers) if yes],
            "waiting": [seat for seat, yes in enumerate(answers) if not yes],
            "moves": list(REMATCH_MOVES)}


def _match_view(match: Match) -> JSONObject:
    return {"number": match.number, "hands": match.hands, "winner_team": match.winner_team,
            "over": match.ended_at is not None}


def game_snapshot(*, table_id: int, seat: int | None,
                  viewer: int | None = None) -> JSONObject:
    """The full picture for `seat` (None: a spectator, the user `viewer`) at the table's
    current version, with the latest chat messages that reader may see."""
    game = GameState.objects.select_related("table", "match").get(table_id=table_id)
    return game_snapshot_of(game=game, seats=_seats_of(game), seat=seat, viewer=viewer)


def game_snapshot_of(*, game: GameState, seats: list[Seat], seat: int | None,
                     viewer: int | None = None) -> JSONObject:
    """game_snapshot from the table's current rows, read already (the game row with its
    table and match, the four seats with their users)."""
    snapshot, hears_spectators = _snapshot(game, seats, seat, viewer)
    return dict(snapshot, chat=_chat_recent(game, hears_spectators))


def _seats_of(game: GameState) -> list[Seat]:
    return list(Seat.objects.filter(table_id=game.pk).select_related("user").order_by("number"))


def _snapshot(game: GameState, seats: list[Seat], seat: int | None,
              viewer: int | None) -> tuple[JSONObject, bool]:
    """The snapshot (without chat), and whether its reader hears the spectators: a
    spectator does, a seat never, nor a seated player watching their own table."""
    snapshot = {
        "type": "snapshot",
        "version": game.version,
        "seq": game.seq,
        "view": game_view(game=game, seats=seats, seat=seat),
        "table": table_public(table=game.table, seats=seats, control=game.control,
                              version=game.version),
    }
    if seat is not None and game.table.private:
        snapshot["invite"] = game.table.invite_token
    hears_spectators = seat is None and not any(s.user_id == viewer for s in seats if viewer)
    return snapshot, hears_spectators


def game_catchup(*, table_id: int, seat: int | None, last_seq: object,
                 viewer: int | None = None) -> JSONObject:
    """For a client that has seen events up to `last_seq`: the events it missed that `seat`
    (None: a spectator, the user `viewer`) may see, with the current view; or a snapshot
    when it is too far behind, ahead of the table, or sent no sequence number. Chat that an
    operator deleted, or whose author is banned now, is left out."""
    game = GameState.objects.select_related("table", "match").get(table_id=table_id)
    snapshot, hears_spectators = _snapshot(game, _seats_of(game), seat, viewer)
    if (not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0
            or last_seq > game.seq or game.seq - last_seq > CATCHUP_MAX_EVENTS):
        return dict(snapshot, chat=_chat_recent(game, hears_spectators))
    audience = Q(audience__isnull=True)
    if seat is not None:
        audience |= Q(audience=seat)
    elif hears_spectators:
        audience |= Q(audience=SPECTATORS)
    hidden = _chat_hidden(table_id=table_id).filter(seq__gt=last_seq, seq__lte=game.seq)
    events = [
        dict(payload, type=kind, seq=seq)
        for seq, kind, payload in GameEvent.objects.filter(
            audience, table_id=table_id, seq__gt=last_seq, seq__lte=game.seq
        ).exclude(seq__in=hidden.values("seq")).order_by("seq").values_list("seq", "type", "payload")
    ]
    return dict(snapshot, type="catchup", prev_seq=last_seq, events=events)


class SeatGame(NamedTuple):
    """A table's game as committed, and one user's seat there (None: not seated)."""

    version: int
    state: JSONObject | None
    seat: int | None


def game_seat_read(*, table_id: int, user_id: int) -> SeatGame | None:
    """The table's version and state as committed, read without a lock, with `user_id`'s seat;
    None when there is no such table. For what a seat asks that changes nothing (a hint, a
    check of a selection: games.services.advice): two reads by key, no row locked."""
    row = GameState.objects.filter(table_id=table_id).values_list("version", "state").first()
    if row is None:
        return None
    seat = (Seat.objects.filter(table_id=table_id, user_id=user_id)
            .values_list("number", flat=True).first())
    return SeatGame(row[0], row[1], seat)


def hand_refunds_due(*, hand_id: int) -> list[tuple[PointAccount, int]]:
    """What voiding hand `hand_id` gives back: [(PointAccount, amount)], the opposite of
    every point the ledger moved under reference `hand:<id>` and not yet reversed, netted
    per account (empty: nothing to refund)."""
    totals = (LedgerEntry.objects.filter(transaction__reference=f"hand:{hand_id}",
                                         transaction__reversed_by__isnull=True)
              .values("account_id").annotate(total=Sum("amount"))
              .values_list("account_id", "total"))
    net: dict[int, int] = {account_id: total for account_id, total in totals if total}
    accounts = PointAccount.objects.select_related("user").in_bulk(list(net))
    return [(accounts[a], -total) for a, total in sorted(net.items())]


class ClosePreview(TypedDict):
    void: Hand | None
    settle: Hand | None
    refunds: list[tuple[PointAccount, int]]


def table_close_preview(*, table_id: int) -> ClosePreview:
    """What force-closing the table would do now, without doing it: the hand it would void
    (one still running) or settle (one that ended unsettled), and the refunds the void
    would post, [(PointAccount, amount)]."""
    game = GameState.objects.select_related("hand").filter(table_id=table_id).first()
    hand = game.hand if game is not None else None
    if hand is None or hand.settled:
        return {"void": None, "settle": None, "refunds": []}
    if hand.result is not None:
        return {"void": None, "settle": hand, "refunds": []}
    return {"void": hand, "settle": None, "refunds": hand_refunds_due(hand_id=hand.pk)}


def _chat_hidden(*, table_id: int) -> QuerySet[ChatMessage]:
    """The table's chat messages nobody is shown any more: deleted by an operator, or said
    by a user an operator's ban holds now."""
    return ChatMessage.objects.filter(table_id=table_id).filter(
        Q(deleted_at__isnull=False) | Q(user_id__in=users_banned_now()))


def _chat_recent(game: GameState, hears_spectators: bool) -> list[JSONObject]:
    """The `chat` events of the latest CHAT_RECENT messages still shown, oldest first."""
    shown = ChatMessage.objects.filter(table_id=game.pk, seq__lte=game.seq).exclude(
        pk__in=_chat_hidden(table_id=game.pk).values("pk"))
    if not hears_spectators:
        shown = shown.filter(seat__isnull=False)
    seqs = list(shown.order_by("-seq").values_list("seq", flat=True)[:CHAT_RECENT])
    return [
        dict(payload, type="chat", seq=seq)
        for seq, payload in GameEvent.objects.filter(table_id=game.pk, seq__in=seqs)
        .order_by("seq").values_list("seq", "payload")
    ]


def table_is_closed(*, table_id: int) -> bool:
    return TableClosure.objects.filter(table_id=table_id).exists()


def tables_mid_hand() -> list[int]:
    """The tables whose hand was dealt and has not ended, by id: on a platform started from a
    backup nobody is there to finish it (games.services.recovery)."""
    return list(GameState.objects.filter(hand__isnull=False, hand__ended_at__isnull=True)
                .order_by("table_id").values_list("table_id", flat=True))


def hands_finished_latest(*, limit: int) -> list[Hand]:
    """The `limit` hands that ended last (voided ones too), newest first."""
    return list(Hand.objects.filter(ended_at__isnull=False).order_by("-ended_at", "-pk")[:limit])


def tables_open() -> QuerySet[Table]:
    """Tables open to everyone: not closed (TableClosure: by an operator, or left empty past
    its grace) and not private (only its invitation link shows one), with their room, seats
    (and who sits there) and game (phase, current hand): the lobby's and the API's live
    list."""
    return (
        Table.objects.filter(closure__isnull=True, private=False)
        .select_related("room", "game", "game__hand")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")
                                   .order_by("number")))
    )


def table_admits(*, table: Table, user_id: int) -> bool:
    """Whether the user may watch and sit at `table`: anyone at a table that is not private;
    at a private one its creator, whoever sits there, and whoever its invitation link let in
    since it was last renewed (TableGuest, games.services.invites)."""
    if not table.private or table.created_by_id == user_id:
        return True
    return (Seat.objects.filter(table=table, user_id=user_id).exists()
            or TableGuest.objects.filter(table=table, user_id=user_id).exists())


def table_admits_id(*, table_id: int, user_id: int) -> bool | None:
    """table_admits for the table `table_id`; None when there is no such table."""
    table = Table.objects.filter(pk=table_id).only("private", "created_by_id").first()
    return None if table is None else table_admits(table=table, user_id=user_id)


def table_public_view(*, table: Table) -> JSONObject | None:
    """What a spectator sees of the table's current hand: never a hand, the buried kitty
    or a hidden declaration (the engine's view for seat None)."""
    game = GameState.objects.filter(table=table).only("state").first()
    if game is None or not game.state:
        return None
    return machine_for(hand_facts(game.state).variant).view(game.state, None)


class HandInProgress(Exception):
    pass


class HandSealed(HandInProgress):
    """The hand has ended but its deal is sealed (DealPreset.sealed): the same deal is still
    being played at other tables, so it is refused as one in progress is."""


def _players_by_seat() -> QuerySet[HandPlayer]:
    return HandPlayer.objects.select_related("user").order_by("seat")


def player_hand_history(*, user: User) -> QuerySet[HandPlayer]:
    """The player's finished hands, newest first (the (user, -hand) index); a hand whose
    deal is sealed (DealPreset.sealed) is left out as a running one is."""
    sealed = DealPreset.objects.filter(table_id=OuterRef("hand__table_id"),
                                       hand_number=OuterRef("hand__number"), sealed=True)
    return (
        HandPlayer.objects.filter(user=user, hand__ended_at__isnull=False)
        .exclude(Exists(sealed))
        .select_related("hand")
        .prefetch_related(Prefetch("hand__players", queryset=_players_by_seat()))
        .order_by("-hand_id")
    )


def hand_finished_get(*, hand_id: int) -> Hand | None:
    """The hand if it has ended; None if there is no such hand. Raises HandInProgress
    while it runs, and HandSealed (one) while its deal is sealed, so callers can say so
    without showing anything of it."""
    hand = (Hand.objects.filter(pk=hand_id)
            .prefetch_related(Prefetch("players", queryset=_players_by_seat())).first())
    if hand is not None and hand.ended_at is None:
        raise HandInProgress(hand_id)
    if hand is not None and DealPreset.objects.filter(
            table_id=hand.table_id, hand_number=hand.number, sealed=True).exists():
        raise HandSealed(hand_id)
    return hand


# The event that closes a hand's log: the seed's reveal, after `hand_end` or a force-close's
# void (hands logged before deals were revealed end at `hand_end`).
HAND_LOG_ENDS = ("deal_revealed", "hand_end")


class LoggedEvent(TypedDict):
    """An event of a hand's log as hand_replay_events reads it."""

    seq: int
    type: str
    payload: JSONObject
    audience: int | None
    created_at: datetime


def hand_replay_events(*, hand: Hand) -> list[LoggedEvent]:
    """The event log of a finished hand, every seat's events included, in order, from its
    start to its end: what the table did after it (the settlement, the next hand's seats
    and readiness) is not part of it, nor the table's chat (players' talk is not part of
    the hand's record, and the spectators' never reaches the seats)."""
    if hand.ended_at is None:
        raise HandInProgress(hand.pk)
    events = list(
        GameEvent.objects.filter(hand=hand).exclude(type__in=CHAT_EVENTS).order_by("seq")
        .values("seq", "type", "payload", "audience", "created_at")
    )
    for kind in HAND_LOG_ENDS:
        last = next((i for i, e in enumerate(events) if e["type"] == kind), None)
        if last is not None:
            return events[: last + 1]
    return events


def hand_replay_build(*, hand: Hand, events: list[LoggedEvent] | None = None) -> JSONObject:
    """What the replay of a finished hand steps through (games.replay), every hand sorted as
    it was held in play; `events` from hand_replay_events when the caller has them."""
    if events is None:
        events = hand_replay_events(hand=hand)
    options = Table.objects.values_list("options", flat=True).get(pk=hand.table_id)
    return replay_sort(replay_build(events), variant=hand.variant, options=options)


def quick_status(*, user: User, now: datetime) -> JSONObject:
    """Where `user` stands in quick play (games.services.quick), for their page's poll:
    `waiting` with their row's figures and how many wait for the same game, `seated` with
    the table they have a seat at (the matcher's, or one they sat at themselves), or
    `idle`."""
    from_seat = Seat.objects.filter(user=user).values_list("table_id", flat=True).first()
    entry = QuickEntry.objects.filter(user=user).first()
    if entry is None or from_seat is not None:
        return {"state": "idle"} if from_seat is None else {"state": "seated", "table": from_seat}
    return {"state": "waiting", "variant": entry.variant,
            "waited": max(0, int((now - entry.joined_at).total_seconds())),
            "band": entry.band, "rating": entry.rating, "bots_after": entry.bots_after,
            "base_stake": entry.base_stake, "cap": entry.cap,
            "queued": QuickEntry.objects.filter(variant=entry.variant).count()}


def account_export(*, user: User) -> JSONObject:
    """Everything the platform keeps about `user`, as JSON for them to download: their
    profile and settings, balance, every ledger entry, every hand they sat in (with the
    others at the table, by name), every chat message they wrote, and their ratings."""
    hands = (HandPlayer.objects.filter(user=user).select_related("hand")
             .prefetch_related(Prefetch("hand__players", queryset=_players_by_seat()))
             .order_by("hand_id"))
    return {
        "profile": {"username": user.username, "display_name": user.display_name,
                    "email": user.email, "preferred_language": user.preferred_language,
                    "date_joined": user.date_joined.isoformat(),
                    "last_login": user.last_login.isoformat() if user.last_login else None,
                    "settings": {"hand_sort": user.hand_sort, "turn_sound": user.turn_sound,
                                 "card_counter": user.card_counter}},
        "balance": PointAccount.objects.values_list("balance", flat=True).get(user=user),
        "ledger": [{"at": entry.transaction.created_at.isoformat(),
                    "kind": entry.transaction.kind, "key": entry.transaction.key,
                    "reference": entry.transaction.reference, "amount": entry.amount}
                   for entry in LedgerEntry.objects.filter(account__user=user)
                   .select_related("transaction").order_by("id")],
        "hands": [{"hand": player.hand_id, "table": player.hand.table_id,
                   "number": player.hand.number, "variant": player.hand.variant,
                   "seat": player.seat, "points": player.points,
                   "started_at": player.hand.started_at.isoformat(),
                   "ended_at": player.hand.ended_at.isoformat() if player.hand.ended_at else None,
                   "players": [str(other.user) for other in player.hand.players.all()]}
                  for player in hands],
        "chat": [{"table": message.table_id, "seq": message.seq, "text": message.text,
                  "phrase": message.phrase, "spectator": message.seat is None,
                  "at": message.created_at.isoformat()}
                 for message in ChatMessage.objects.filter(user=user).order_by("id")],
        "ratings": [{"variant": rating.variant, "shown": rating.shown, "hands": rating.hands}
                    for rating in Rating.objects.filter(user=user).order_by("variant")],
    }
