"""Matches: the hands played from both teams at the first level until one passes A, and the
rematch offered when one is won (games.rematch; answered in games.services.rematches)."""

from django.utils import timezone

from games.engine.facts import hand_facts, match_winner, seat_team, team_seats
from games.engine.registry import machine_for
from games.models import Match, MatchPlayer
from games.rematch import REMATCH_MOVES, rematch_answers
from games.services.unit_of_work import Change, State
from stats.services import stats_record_match


def match_hand_add(change: Change, *, new: bool) -> None:
    """The hand about to start is the next of the match, or (`new`) the first of a new
    one."""
    match = change.match
    if new or match is None:  # (hand_start asks for a new one when there is none)
        number = Match.objects.filter(table=change.table).count() + 1
        match = change.match = Match.objects.create(table=change.table, number=number,
                                                    variant=change.table.variant)
        change.event({"type": "match_started", "match": number})
    match.hands += 1
    match.save(update_fields=["hands"])


def match_end(change: Change, state: State) -> int | None:
    """P13: a team whose level passed A (the A3 wrap) wins the match: record it and its
    players, count it in their statistics, and tell the table. Returns the winning team
    or None."""
    facts = hand_facts(state)
    end = facts.end
    if change.match is None or end is None or end.escape is not None or not end.levels_after:
        return None
    team = match_winner(levels=machine_for(facts.variant).variant.levels,
                        before=facts.levels, after=end.levels_after)
    if team is None:
        return None
    match = change.match
    match.winner_team, match.ended_at = team, timezone.now()
    match.save(update_fields=["winner_team", "ended_at"])
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=s.number, team=seat_team(s.number), user_id=s.user_id)
        for s in change.seats if s.user_id is not None)
    stats_record_match(variant=match.variant,
                       players=[(s.user_id, seat_team(s.number) == team) for s in change.seats
                                if s.user_id is not None])
    change.event({"type": "match_won", "match": match.number, "team": team,
                "seats": team_seats(team), "hands": match.hands})
    return team


def rematch_offer(change: Change) -> None:
    """The match was won (match_end): the four seats are offered the next match with the same
    rules and the seats rotated (REMATCH_MOVES); the table's bots accept at once. Not at a
    table with an empty seat (P6 stood a player up at the end of the hand), nor at one of
    bots alone: nobody would answer for it."""
    if any(s.user_id is None for s in change.seats) or all(change.is_bot(n) for n in range(4)):
        return
    change.event({"type": "rematch_offered", "moves": list(REMATCH_MOVES)})
    for seat in range(4):
        bot = change.is_bot(seat)
        change.control[seat]["rematch"] = bot
        if bot:
            change.event({"type": "rematch_answered", "seat": seat, "accept": True})


def rematch_close(change: Change, reason: str) -> None:
    """The open offer ends without a rematch (`reason`: `declined`, `timeout`, `vacated`, or
    `ready`: every seat pressed ready instead); the table goes on as after any hand. No
    offer: nothing happens."""
    if rematch_answers(change.control) is None:
        return
    for control in change.control:
        control.pop("rematch", None)
    change.event({"type": "rematch_ended", "reason": reason})
