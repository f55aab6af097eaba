"""Words for the server's stable error codes and the table client's labels, in the active
language. The table page hands `client_catalog()` to its script, so the browser explains a
refusal in the player's language while the server only ever sends a code."""

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.chat import PHRASES
from games.variants import descriptor_or_none
from lobby.services import DEFAULT_ROOM

# Error codes of games.services / the engine / the sockets (docs/protocol.md).
ERRORS = {
    "illegal_follow": _("That follow is not allowed."),
    "illegal_lead": _("That lead is not allowed: lead one single, pair or tractor, or a throw "
                      "of one suit."),
    "throw_refused": _("You cannot throw these cards: you hold a card that beats part of "
                       "the throw. Lead again."),
    "not_your_turn": _("It is not your turn."),
    "cards_not_held": _("You do not hold these cards."),
    "play_not_in_hand": _("You do not hold these cards."),
    "declaration_rejected": _("This declaration does not beat the standing one."),
    "wrong_count": _("Wrong number of cards."),
    "stale_version": _("The table moved on before your action arrived; it has been refreshed."),
    "wrong_phase": _("That is not possible at this point of the hand."),
    "bad_cards": _("Select some cards first."),
    "bad_card": _("Select some cards first."),
    "illegal_bid": _("That bid is not allowed."),
    "bidding_over": _("The bidding is over."),
    "bad_trump": _("That trump cannot be named."),
    "surrender_not_allowed": _("You cannot surrender now."),
    "hand_in_progress": _("Seats change between hands."),
    "seat_taken": _("That seat is taken."),
    "already_seated": _("You already have a seat at a table."),
    "balance_too_low": _("Your points do not cover this table's cap × stake: it needs "
                         "{need} points. Choose a smaller cap or stake."),
    "bad_cap": _("The cap must be a whole number from 1 up to the game's worst loss."),
    "bad_stake": _("The base stake must be 1 or more."),
    "bots_balance_too_low": _("Playing against three bots needs at least {need} points: "
                              "your own stake, the stake you back each bot with, and as "
                              "much again for the hands you lose."),
    "bad_seat": _("There is no such seat."),
    "bad_level": _("A bot's level is easy, normal or hard."),
    "not_seated": _("You have no seat at this table."),
    "not_your_seat": _("You can only act for your own seat."),
    "no_such_table": _("There is no such table."),
    "no_hand": _("No hand is being played."),
    "hand_over": _("The hand has ended."),
    "unknown_variant": _("There is no such game."),
    "bad_option": _("That table option is not offered for this game."),
    "bad_timeout": _("The turn time is 5 to 300 seconds."),
    "spectator": _("Spectators cannot act."),
    "banned": _("An operator has banned you from sitting for now."),
    "table_closed": _("This table is closed."),
    "chat_empty": _("Type a message first."),
    "chat_too_long": _("A message is at most {n} characters."),
    "chat_flood": _("Too many messages: wait {n} s."),
    "chat_banned": _("An operator has banned you: you cannot chat for now."),
    "chat_bad_phrase": _("That phrase is not offered."),
    "hint_rate": _("Enough hints for now: wait {retry_after} s."),
    "analysis_rate": _("You have asked for enough analyses for now: wait {retry_after} s."),
    "analysis_forbidden": _("Only the players of this hand may analyse it."),
    "analysis_unavailable": _("This hand was played before hands were kept for analysis."),
    "not_found": _("There is no such hand."),
    "bad_variant": _("There is no such game."),
    "bad_wait": _("Choose one of the waits offered."),
    "private_table": _("This table is private: only people holding its invitation link can "
                       "sit here."),
    "not_private": _("This table is open to everyone: it has no invitation link."),
    "no_rematch": _("No rematch is offered now."),
    "rematch_already_accepted": _("You have accepted the rematch already."),
    "bad_value": _("That value is not allowed."),
    "bad_name": _("A tournament's name is 1 to 64 characters."),
    "bad_boards": _("A round has 1 to 12 boards."),
    "bad_rounds": _("A tournament has 1 to 9 rounds."),
    "bad_start": _("A tournament starts at a time to come."),
    "not_registering": _("This tournament takes no more registrations."),
    "bots_do_not_register": _("Bots fill the empty places when the tournament starts."),
    "no_partners": _("In this game everyone registers alone."),
    "partner_is_self": _("Your partner is another player."),
    "already_registered": _("A player is registered already."),
    "bots_in_staked": _("A staked tournament needs a full field of pairs: bots play for no "
                        "points."),
    "no_such_player": _("There is no player of that name."),
}
GENERIC_ERROR = _("That action was refused.")

# Labels and sentences the table script shows. {n}, {suit} and the like are filled in there.
LABELS = {
    "bury_count": _("Select exactly {n} cards to bury."),
    "phase_waiting": _("Waiting for four players to press Ready"),
    "phase_deal": _("Dealing"),
    "phase_deal_calls": _("Dealing — declare trump now"),
    "phase_declare": _("Last chance to declare"),
    "phase_bid": _("Bidding"),
    "phase_trump": _("The dealer names trump"),
    "phase_bury": _("The dealer buries the kitty"),
    "phase_play": _("Playing tricks"),
    "phase_end": _("Hand over"),
    "your_turn": _("Your turn"),
    # Whom the hand waits on, in the words of its phase ("turn_" + the view's phase), and
    # for a phase without words of its own.
    "turn_play": _("{name} to play"),
    "turn_bid": _("{name} to bid"),
    "turn_trump": _("{name} to name trump"),
    "turn_bury": _("{name} to bury the kitty"),
    "turn_of": _("Waiting for {name}"),
    "play": _("Play"), "bury": _("Bury"), "ready": _("Ready"),
    "next_hand": _("Next hand"), "take_back": _("Take back control"),
    "leave": _("Leave seat"), "pass": _("Pass"), "surrender": _("Surrender"),
    "declare": _("Declare"), "no_trump": _("No trump"),
    "bid": _("Bid {n}"), "name_trump": _("Trump: {suit}"),
    "dealer_mark": _("Dealer"), "auto_mark": _("Auto"), "offline": _("Offline"),
    "ready_mark": _("Ready"), "bot": _("Bot"), "bot_name": _("Bot {n}"),
    "empty": _("Empty seat"),
    "team_a": _("Team A"), "team_b": _("Team B"), "level_short": _("Lv"),
    # English says "1 card" but "2 cards": the page takes the `_one` text for one card.
    "cards": _("{n} cards"), "cards_one": _("{n} card"), "seconds": _("{n} s"),
    "trump_unknown": _("not yet declared"),
    "winner_dealer": _("The dealer's side wins"),
    "winner_defenders": _("The defenders win"),
    "escape": _("Seat {seat} left the table: escape penalty"),
    "levels_move": _("Levels: {before} → {after}"),
    "stake": _("Base stake: {n}"),
    "throw_failed": _("{name}'s throw failed: only {cards} was played"),
    "bomb": _("Bomb! {name} played {cards}"),
    # What the server says a call is (the view's `calls` and declarations' `kind`).
    "call_declare": _("Declare {cards}"),
    "call_reinforce": _("Reinforce {cards}"),
    "call_counter": _("Counter {cards}"),
    "kind_declare": _("declared"),
    "kind_reinforce": _("reinforced"),
    "kind_counter": _("countered"),
    "declared_cards": _("{name} {kind}: {cards}"),
    "declared_count": _("{name} {kind}: {n} cards, suit hidden"),
    "declared_count_one": _("{name} {kind}: {n} card, suit hidden"),
    "trump_hidden": _("hidden until the deal ends"),
    "bid_history": _("Bids"),
    "bid_of": _("{name}: {n}"),
    "pass_of": _("{name}: pass"),
    "contract": _("Contract {n}, odds × {m}"),
    "dealer_alone": _("The dealer plays alone against the other three"),
    "surrendered": _("{name} surrendered"),
    "match_of": _("Match {n} · hand {k}"),
    "match_won": _("{names} win the match in {n} hands!"),
    "match_new": _("A new match starts at the first level."),
    "levels_team": _("{names}: level {before} → {after}"),
    "cap_applied": _("Cap applied: losses cut to {cap} points"),
    "replay": _("Replay of this hand"),
    "ready_timer": _("press Next hand before the time runs out, or you stand up"),
    "you": _("you"),
    "add_bot": _("Add bot"), "sit": _("Sit"),
    "bot_level": _("Bot level"), "bot_easy": _("Easy"), "bot_normal": _("Normal"),
    "bot_hard": _("Hard"),
    "replaced": _("This seat was opened in another window or tab."),
    "too_many_sockets": _("Too many tables are open in your windows or on your network; "
                          "close some and reload this page."),
    "bad_request": _("This table address is not valid."),
    # chat, the trick history and the settings switches (chat.js, table/history.js, turncue.js)
    "chat_empty_log": _("No messages yet."),
    "chat_offline": _("Not connected: the message was not sent."),
    "history_empty": _("No trick finished yet in this hand."),
    "history_trick": _("Trick {k}"),
    "history_won": _("{name} won it · +{points}"),
    "history_throw": _("throw failed: {cards}"),
    "prefs_saved": _("Saved."),
    "prefs_not_saved": _("Not saved: try again."),
    # the card counter (记牌器, static/ui/table/counter.js): the cards and points still out
    "counter_cards": _("Cards out"), "counter_points": _("Points out"),
    "counter_all": _("All"), "counter_trump": _("Trump"),
    "counter_S": _("Spades"), "counter_H": _("Hearts"), "counter_C": _("Clubs"),
    "counter_D": _("Diamonds"),
    "counter_waiting": _("The counts start once trump is known."),
    # 提示 (static/ui/table/advice.js): the server's suggestion for the seat's decision.
    "hint_none": _("Hint: nothing to do now."),
    "hint_call": _("Hint: {call}"),
    # The header's fixed place for both teams' levels, or point_bid's contract (view.parts).
    "levels_fact": _("{team} ({names}): level {level}"),
    "levels_fact_playing": _("{team} ({names}): level {level}, played this hand"),
    "contract_fact": _("{n} (odds × {m})"),
    # The dealer's hand while burying: the cards the kitty brought (the view's kitty).
    "from_kitty": _("from the kitty"),
    "kitty_marked": _("The cards edged in blue came from the kitty."),
    "winner_none": _("No hand was played"),
    # The result in steps: "step_" + each of the view's result_steps kinds, with its figures.
    "step_contract": _("Contract {contract}: odds × {m}"),
    "step_trick_points": _("The defenders took {points} points in tricks"),
    "step_kitty_bonus": _("The defenders won the last trick: the kitty's {kitty} × {m} = "
                          "{bonus}; {before} + {bonus} = {total}"),
    "step_kitty_kept": _("The dealer's side won the last trick: the kitty's {kitty} points "
                         "do not count"),
    "step_kitty_capture": _("A defender won the last trick with trumps: the kitty's {kitty} "
                            "× {m} (cards of that play) = {bonus}; {before} + {bonus} = "
                            "{total}"),
    "step_kitty_not_captured": _("The kitty's {kitty} points do not count: no defender won "
                                 "the last trick with trumps"),
    "step_special_defender": _("{name} holds {special}: {passes} × {step} = {points} for the "
                               "defenders; {before} + {points} = {total}"),
    "step_special_dealer": _("{name}, the dealer, holds {special}: {passes} × {step} = "
                             "{points} off the defenders; {before} − {points} = {total}"),
    "step_last_trick_defenders": _("The defenders won the last trick: its {points} points × "
                                   "{m} (cards led) = {bonus} in place of its {points}; "
                                   "{before} − {points} + {bonus} = {total}"),
    "step_last_trick_dealer": _("The dealer's side won the last trick: its {points} points × "
                                "{m} (cards led) = {penalty} off the defenders; {before} − "
                                "{penalty} = {total}"),
    "step_score_dealer": _("{points} is under {need}: the dealer's side wins and goes up "
                           "{levels}"),
    "step_score_defenders": _("{points} reaches {need}: the defenders win, settled at "
                              "{levels}; their level goes up {advance}"),
    "step_score_take_deal": _("{points} reaches {need}: the defenders take the deal; no level "
                              "moves and nobody pays"),
    "step_contract_made": _("The dealer made the contract of {contract}: the defenders have "
                            "{points}, under {contract}; ⌊({contract} − {points}) / {step}⌋ + "
                            "1 = {levels}"),
    "step_contract_failed": _("The dealer did not make the contract of {contract}: the "
                              "defenders have {points} ≥ {contract}; ⌊({points} − "
                              "{contract}) / {step}⌋ + 1 = {levels}"),
    "step_contract_shut_out": _("The dealer made the contract of {contract} and shut the "
                                "defenders out ({points}): ⌊({contract} − {points}) / {step}⌋ "
                                "+ 1 = {formula}, at least {least}: {levels}"),
    "step_surrender": _("The dealer surrendered: counted as a contract not made, {levels}"),
    "step_stopped": _("{deals} deals in a row without a declaration: the game stops and "
                      "nobody pays"),
    # What each seat's points are made of: "why_" + each of the view's result_seats kinds.
    "why_levels_won": _("winners' side: {levels} × stake {stake}"),
    "why_levels_lost": _("losers' side: {levels} × stake {stake}"),
    "why_nothing": _("nothing to pay or receive"),
    "why_dealer": _("the dealer, alone against three: {factor} × odds {m} × {levels} × stake "
                    "{stake}"),
    "why_defender": _("a defender: odds {m} × {levels} × stake {stake}"),
    "why_escaped": _("left during the hand: {times} × stake {stake}"),
    "why_escape_paid": _("paid by the one who left: {times} × stake {stake}"),
    "why_capped": _("{would} by the rules, cut to the cap: {paid}"),
    "why_shared": _("{would} by the rules; the capped losses shared out: {paid}"),
    # Play again (the view's `rematch`) and a private table's invitation link.
    "rematch_offer": _("Play again? The same rules, and the seats move round so that "
                       "everyone gets a new partner."),
    "rematch_accepted_by": _("Accepted: {names}"),
    "rematch_waiting": _("Waiting for: {names}"),
    "rematch_accept": _("Play again"),
    "rematch_decline": _("No, thanks"),
    "rematch_declined": _("{name} does not want a rematch: the table goes on as before."),
    "rematch_ended_timeout": _("Nobody answered the rematch in time: the table goes on as "
                               "before."),
    "rematch_ended_vacated": _("A player left: no rematch."),
    "rematch_started": _("Rematch: the seats moved round, new partners."),
    "invite_renewed": _("{name} made a new invitation link: the old one no longer works."),
    "invite_copied": _("Copied."),
    "private_closed": _("This table is private, and its invitation link was renewed: "
                        "ask a player for the new one."),
}

# The replay page (static/ui/replay.js): {k}, {n}, {name} and {points} are filled in there.
REPLAY_LABELS = {
    "deal": _("Before the first trick: the hands as play began"),
    "trick_of": _("Trick {k} of {n}"),
    "leads": _("{name} leads"),
    "wins": _("{name} wins the trick (+{points})"),
    "defenders": _("Defenders' points so far: {n}"),
    "unfinished": _("The hand ended during this trick."),
}

# The replay's review (docs/analysis.md; static/ui/analysis.js).
ANALYSIS_LABELS = {
    "analyse": _("Analyse"),
    "title": _("Analysis"),
    "intro": _("Each decision is judged from what its player knew at that moment, never from "
               "the hidden cards. Values are in levels (point_bid: levels × multiplier)."),
    "queued": _("Waiting for the analysis to start…"),
    "running": _("Analysing the hand… this takes a minute or two."),
    "failed": _("The analysis failed ({error}). You may ask again."),
    "sign_in": _("Sign in to analyse this hand."),
    "unavailable": _("This hand was played before hands were kept for analysis."),
    "mistake": _("Mistake"),
    "blunder": _("Blunder"),
    "played": _("{name} played"),
    "better": _("Better:"),
    "no_declaration": _("no declaration"),
    "pass": _("pass"),
    "cost": _("expected cost {loss} ± {se}"),
    "chart": _("Expected result of the hand, trick by trick"),
    "chart_axis": _("Trick"),
    "dealer_side": _("Dealer's side"),
    "defenders": _("Defenders"),
    "end": _("End"),
    "player": _("Player"),
    "mistakes": _("Mistakes"),
    "blunders": _("Blunders"),
    "total_cost": _("Expected cost"),
    "none_marked": _("No play was marked."),
    "other_decisions": _("Before the play"),
    "declare": _("Declaration"),
    "bid": _("Bid"),
    "trump": _("Naming trump"),
    "bury": _("Burial"),
    "trick_marks": _("Trick {k}"),
}

# Seats by their place at the table: play goes 0 → 1 → 2 → 3, counter-clockwise (RULES §1).
SEAT_PLACES = (_("East"), _("North"), _("West"), _("South"))


def in_language(texts):
    """One of a descriptor's {"en": ..., "zh": ...} texts, in the active language (else English)."""
    return texts.get((get_language() or "en").split("-")[0]) or texts["en"]


def room_label(room):
    """A room's name; the room every site starts with, in the reader's language."""
    return str(_("Main room")) if room.name == DEFAULT_ROOM else room.name


def variant_label(variant_id):
    """A variant's name in the active language; the id itself for a rule set no longer offered."""
    desc = descriptor_or_none(variant_id)
    return in_language(desc.label) if desc else variant_id


def action_error_text(code, **data):
    """The refusal `code` in the reader's language, with the figures the service gave
    (ActionError.details, e.g. `need`) in its place holders."""
    text = str(ERRORS.get(code, GENERIC_ERROR))
    for name, value in data.items():
        text = text.replace("{" + name + "}", str(value))
    return text


# point_bid's special hands (RULES §4.9, A27) by the names the engine gives them (the seed's
# own, in traditional characters): each page shows them in its language.
SPECIAL_NAMES = {
    "沖關": _("Breakthrough"),
    "主7沖關": _("Trump-7 breakthrough"),
    "全7沖關": _("All-7s breakthrough"),
    "主2沖關": _("Trump-2 breakthrough"),
    "皇後": _("Queen"),
    "大沖關": _("Great breakthrough"),
    "主7大沖關": _("Trump-7 great breakthrough"),
    "全7大沖關": _("All-7s great breakthrough"),
    "主2大沖關": _("Trump-2 great breakthrough"),
    "皇上": _("Emperor"),
}


def client_catalog():
    """Everything the table script says, in the active language."""
    return {
        "special_names": {name: str(text) for name, text in SPECIAL_NAMES.items()},
        "errors": {code: str(text) for code, text in ERRORS.items()},
        "error": str(GENERIC_ERROR),
        "labels": {key: str(text) for key, text in LABELS.items()},
        # The one-tap chat phrases by id: each reader sees their own language.
        "phrases": {key: in_language(texts) for key, texts in PHRASES.items()},
    }


def analysis_catalog():
    return {key: str(text) for key, text in ANALYSIS_LABELS.items()}


def replay_catalog():
    return {key: str(text) for key, text in REPLAY_LABELS.items()}
