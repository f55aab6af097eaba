"""A player's own account: deleting it (the person anonymised everywhere, their points back
to the house). What they may download is games.selectors.account_export."""

from django.db import transaction

from accounts.models import LedgerTransaction, PointAccount, User
from accounts.services import HOUSE, api_token_revoke, ledger_post, system_account_get_or_create
from games.models import ChatMessage, GameEvent, GameState, QuickEntry
from games.services.errors import ActionError
from lobby.models import Seat


def account_placeholder(*, user_id: int) -> str:
    """The name a deleted account keeps wherever it appears (hands, replays, chat): no
    language's word, so both pages show it as it is."""
    return f"#{user_id}"


def account_delete(*, user: User, password: str) -> None:
    """Delete `user`'s account, confirmed with their `password`: they can no longer sign in
    (no usable password, inactive, API token revoked), their name, e-mail and chat texts are
    erased, hand records, replays and the seated and chat events keep the placeholder name
    (account_placeholder), and their balance goes back to the house (ledger kind `erasure`,
    key erasure:<user>: balanced and posted once, so Σ balances stays 0). The rows stay:
    the ledger and the hands are append-only records other players' results rest on.

    Refused (ActionError, nothing changed): a wrong password (`bad_password`); a seat at a
    table whose hand is running (`seated_in_hand`) or at any table (`seated`: leave first,
    so no table waits on a player who is gone). Locks the user's row, so two deletions or a
    deletion and a sitting-down cannot interleave."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.is_active or not user.check_password(password):
            raise ActionError("bad_password", "the password is not right")
        _refuse_while_seated(user)
        _balance_to_house(user)
        _anonymise(user)


def _refuse_while_seated(user: User) -> None:
    tables = Seat.objects.filter(user=user).values("table_id")
    if GameState.objects.filter(table_id__in=tables, hand__isnull=False,
                                hand__ended_at__isnull=True).exists():
        raise ActionError("seated_in_hand", "you sit at a table with a hand running")
    if tables.exists():
        raise ActionError("seated", "you sit at a table: leave it first")


def _balance_to_house(user: User) -> None:
    account = PointAccount.objects.get(user=user)
    if account.balance:
        ledger_post(key=f"erasure:{user.pk}",
                    entries=[(account, -account.balance),
                             (system_account_get_or_create(code=HOUSE), account.balance)],
                    kind=LedgerTransaction.Kind.ERASURE, reference=f"user:{user.pk}",
                    memo="account deleted")


def _anonymise(user: User) -> None:
    placeholder = account_placeholder(user_id=user.pk)
    user.username = f"deleted-{user.pk}"
    user.display_name = placeholder
    user.first_name = user.last_name = user.email = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
    api_token_revoke(user=user)
    QuickEntry.objects.filter(user=user).delete()
    ChatMessage.objects.filter(user=user).update(text="")
    # The event log is append-only for play; erasing a person is the one rewrite it allows:
    # a replay or a catch-up then shows the placeholder (update() does not go through save()).
    for event in GameEvent.objects.filter(type__in=("seated", "chat"), payload__user=user.pk):
        payload = dict(event.payload, name=placeholder)
        if event.type == "chat" and "text" in payload:
            payload["text"] = ""
        GameEvent.objects.filter(pk=event.pk).update(payload=payload)
