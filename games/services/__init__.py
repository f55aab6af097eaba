"""The one door to a table's game: every change to seats, the hand or the ledger goes through
one of these modules, each named for what it changes, over one unit of work:

- unit_of_work: reading, locking, writing and announcing a change (its invariants at its top)
- payloads: what the sockets hear of a change, and the groups they hear it in
- errors: ActionError, the refusal every service raises (nothing changed)
- play: a player's action, alone or in a group commit; a seat's socket connecting
- timeouts: a table's timer running out
- seating: sitting, standing, 托管, time-outs, backed bots
- hands: ready, a hand's start, engine steps, its end, voiding it
- matches: the match a hand belongs to, its winner, and the rematch offered then
- rematches: a seat's answer to the rematch, and the next match all four accepting starts
- settlement: paying a hand out and counting it in the statistics
- tables: opening, changing and closing tables
- invites: a private table's invitation link: letting its holder in, renewing it
- chat: table chat
- advice: what a seat asks that changes nothing: a hint, a check of a selection
- accounts: a player deleting their own account

Import from the module itself (``from games.services.tables import table_create``).
"""
