from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.utils import timezone

from accounts.models import LedgerTransaction
from accounts.selectors import point_balance
from accounts.services import ESCROW, ledger_post, system_account_get_or_create
from accounts.models import SittingBan
from accounts.selectors import sitting_ban_active
from games.models import ChatMessage, GameState, Hand, TableClosure
from games.selectors import game_catchup
from games.services import chat_send, game_timer_fire
from moderation.services import OperatorError, table_force_close
from lobby.models import Seat
from stats.models import ALL_VARIANTS, PlayerStats

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, operator):
    client.force_login(operator)
    return client


def _stake_escrowed(hand, users, amount=10):
    """What an escrowing game would post when a hand starts: each seat's stake held."""
    escrow = system_account_get_or_create(code=ESCROW)
    entries = [(u.point_account, -amount) for u in users] + [(escrow, amount * len(users))]
    ledger_post(key=f"stake:{hand.pk}", entries=entries, kind=LedgerTransaction.Kind.SETTLE,
                reference=f"hand:{hand.pk}")


def test_force_close_refunds_exactly_once(admin_client, running_hand):
    hand, table, users = running_hand
    before = [point_balance(user=u) for u in users]
    _stake_escrowed(hand, users)
    assert [point_balance(user=u) for u in users] == [b - 10 for b in before]
    stale_version = GameState.objects.get(table=table).version
    url = "/admin/lobby/table/"
    form = {"action": "force_close", "_selected_action": [table.pk]}
    page = admin_client.post(url, form)
    assert page.status_code == 200 and b"reason" in page.content  # asks why first
    assert not TableClosure.objects.exists()
    for _ in range(2):  # a double submit
        response = admin_client.post(url, dict(form, apply="1", reason="stuck table"))
        assert response.status_code == 302
    assert [point_balance(user=u) for u in users] == before
    assert LedgerTransaction.objects.filter(key=f"force_close:hand:{hand.pk}").count() == 1
    table_force_close(table_id=table.pk, operator=None, reason="again")  # and a direct call
    assert [point_balance(user=u) for u in users] == before
    call_command("ledger_reconcile")  # raises CommandError on any mismatch
    hand.refresh_from_db()
    assert hand.result["void"] is True and hand.settled and hand.ended_at is not None
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    game = GameState.objects.get(table=table)
    assert game.state is None and game.deadline is None and game.version == stale_version + 1
    assert not game_timer_fire(table_id=table.pk, version=stale_version)  # a stale timer
    assert TableClosure.objects.get(table=table).voided_hand_id == hand.pk
    assert LogEntry.objects.filter(object_id=str(table.pk),
                                   change_message__startswith="force-closed").count() == 1
    # A voided hand counts in nobody's statistics and its replay still opens.
    assert not PlayerStats.objects.filter(user=users[0]).exists()
    assert admin_client.get(f"/api/v1/hands/{hand.pk}/replay/").status_code == 200


def test_force_close_without_a_reason_changes_nothing(running_hand, operator):
    hand, table, users = running_hand
    version = GameState.objects.get(table=table).version
    with pytest.raises(OperatorError):
        table_force_close(table_id=table.pk, operator=operator, reason="  ")
    assert GameState.objects.get(table=table).version == version
    assert not TableClosure.objects.exists()


def test_force_close_settles_a_hand_that_had_ended(finished_hand, operator):
    hand, table, users = finished_hand(settle=False)
    assert not hand.settled
    before = [point_balance(user=u) for u in users]
    closure = table_force_close(table_id=table.pk, operator=operator, reason="closing time")
    hand.refresh_from_db()
    assert closure.voided_hand is None and hand.settled and not hand.result.get("void")
    assert [point_balance(user=u) - b for u, b in zip(users, before)] == \
        [d * 10 for d in hand.result["deltas"]]
    assert PlayerStats.objects.get(user=users[0], variant="classic").hands_played == 1
    call_command("ledger_reconcile")


def test_reverse_transaction_reconciles_and_happens_once(admin_client, finished_hand):
    hand, table, users = finished_hand()
    settle = LedgerTransaction.objects.get(key=f"settle:{hand.pk}")
    before = [point_balance(user=u) for u in users]
    url = "/admin/accounts/ledgertransaction/"
    form = {"action": "reverse_transaction", "_selected_action": [settle.pk], "apply": "1",
            "memo": "dealt from a bad deck"}
    assert admin_client.post(url, form).status_code == 302
    after = [point_balance(user=u) for u in users]
    assert [a - b for a, b in zip(after, before)] == [-d * 10 for d in hand.result["deltas"]]
    reversal = LedgerTransaction.objects.get(reverses=settle)
    assert reversal.key == f"reverse:{settle.pk}" and reversal.memo == "dealt from a bad deck"
    call_command("ledger_reconcile")
    admin_client.post(url, form)  # again: the same key, nothing moves
    assert [point_balance(user=u) for u in users] == after
    response = admin_client.post(url, dict(form, _selected_action=[reversal.pk]), follow=True)
    assert b"a reversal is not reversed again" in response.content
    assert [point_balance(user=u) for u in users] == after
    assert LogEntry.objects.filter(object_id=str(settle.pk),
                                   change_message__startswith="reversed by").exists()
    call_command("ledger_reconcile")


def test_rerun_settlement_pays_once_and_counts_stats(admin_client, finished_hand):
    hand, table, users = finished_hand(settle=False)
    before = [point_balance(user=u) for u in users]
    url = "/admin/games/hand/"
    for _ in range(2):
        response = admin_client.post(url, {"action": "rerun_settlement",
                                           "_selected_action": [hand.pk]}, follow=True)
        assert response.status_code == 200
    hand.refresh_from_db()
    assert hand.settled
    assert [point_balance(user=u) - b for u, b in zip(users, before)] == \
        [d * 10 for d in hand.result["deltas"]]
    assert PlayerStats.objects.get(user=users[0], variant=ALL_VARIANTS).hands_played == 1
    assert b"already settled, nothing paid" in response.content
    messages = list(LogEntry.objects.filter(object_id=str(hand.pk))
                    .values_list("change_message", flat=True))
    assert sorted(messages) == ["settlement re-run: already settled, nothing paid",
                                "settlement re-run: settled now"]


def test_rerun_settlement_of_a_running_hand_is_refused(admin_client, running_hand):
    hand, table, users = running_hand
    response = admin_client.post("/admin/games/hand/", {"action": "rerun_settlement",
                                                        "_selected_action": [hand.pk]},
                                 follow=True)
    assert b"the hand has not ended" in response.content
    assert not Hand.objects.get(pk=hand.pk).settled


def test_sitting_ban_from_the_admin(admin_client, make_user):
    player = make_user()
    ends = timezone.now() + timedelta(days=3)
    response = admin_client.post("/admin/accounts/sittingban/add/", {
        "user": player.pk, "reason": "escaped 5 hands", "ends_at_0": ends.strftime("%Y-%m-%d"),
        "ends_at_1": ends.strftime("%H:%M:%S")})
    assert response.status_code == 302
    ban = SittingBan.objects.get(user=player)
    assert ban.created_by is not None and ban.starts_at <= timezone.now()
    assert sitting_ban_active(user=player) == ban
    admin_client.post("/admin/accounts/sittingban/", {"action": "lift", "_selected_action": [ban.pk]})
    assert sitting_ban_active(user=player) is None
    assert LogEntry.objects.filter(object_id=str(ban.pk)).count() == 2  # added, lifted


def test_sitting_ban_in_the_past_is_refused(admin_client, make_user):
    player = make_user()
    response = admin_client.post("/admin/accounts/sittingban/add/", {
        "user": player.pk, "reason": "x", "ends_at_0": "2001-01-01", "ends_at_1": "00:00:00"})
    assert response.status_code == 200 and b"the ban must end in the future" in response.content
    assert not SittingBan.objects.exists() and sitting_ban_active(user=player) is None


def test_repeated_escapers_are_flagged(admin_client, settled_rows, now):
    from games.services import hand_stats_record

    for n in range(1, 4):
        hand = settled_rows(number=n, ended_at=now, deltas=(-9, 3, 3, 3))
        Hand.objects.filter(pk=hand.pk).update(result={"deltas": [-9, 3, 3, 3], "escape": 0,
                                                       "levels": 0})
        hand.refresh_from_db()
        hand_stats_record(hand=hand)
    escaper = settled_rows.users[0]
    page = admin_client.get("/admin/accounts/user/?escaper=repeated").content.decode()
    assert escaper.username in page and settled_rows.users[1].username not in page
    redirect = admin_client.post("/admin/accounts/user/", {"action": "ban_from_sitting",
                                                           "_selected_action": [escaper.pk]})
    assert redirect.status_code == 302 and f"user={escaper.pk}" in redirect["Location"]


@pytest.mark.parametrize("url", [
    "/admin/lobby/table/", "/admin/games/hand/", "/admin/accounts/ledgertransaction/",
    "/admin/accounts/user/", "/admin/games/bot/", "/admin/accounts/sittingban/",
    "/admin/games/tableclosure/", "/admin/stats/playerstats/", "/admin/accounts/sittingban/add/",
    "/admin/games/chatmessage/",
])
def test_operator_pages_render(admin_client, settled_rows, make_user, url):
    make_user(is_bot=True)
    assert admin_client.get(url).status_code == 200


def test_hand_page_links_to_its_events_and_replay(admin_client, finished_hand):
    hand, table, users = finished_hand()
    page = admin_client.get(f"/admin/games/hand/{hand.pk}/change/").content.decode()
    assert f"?hand__id__exact={hand.pk}" in page and f"/hands/{hand.pk}/replay/" in page
    events = admin_client.get(f"/admin/games/gameevent/?hand__id__exact={hand.pk}")
    assert events.status_code == 200


def test_chat_in_the_admin_is_escaped_marked_and_deleted_with_a_reason(admin_client,
                                                                       table_factory):
    table, users = table_factory()
    script = '<script>alert("x")</script>'
    chat_send(table_id=table.pk, user=users[0], text=script)
    chat_send(table_id=table.pk, user=users[1], text="said before a ban")
    SittingBan.objects.create(user=users[1], reason="abuse", starts_at=timezone.now(),
                              ends_at=timezone.now() + timedelta(days=1))
    url = "/admin/games/chatmessage/"
    page = admin_client.get(url).content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page and script not in page
    assert "hidden: the author is banned" in page
    message = ChatMessage.objects.get(user=users[0])
    assert message.text == script  # stored as typed
    form = {"action": "delete_messages", "_selected_action": [message.pk]}
    page = admin_client.post(url, form)
    assert page.status_code == 200 and b"reason" in page.content  # asks why first
    assert ChatMessage.objects.get(pk=message.pk).deleted_at is None
    for _ in range(2):  # a double submit deletes once
        assert admin_client.post(url, dict(form, apply="1", reason="markup")).status_code == 302
    message.refresh_from_db()
    assert message.deleted_by.is_superuser and message.deleted_reason == "markup"
    assert LogEntry.objects.filter(object_id=str(message.pk),
                                   change_message="deleted: markup").count() == 1
    # Gone from the table: neither message is in a catch-up any more (one deleted, one banned).
    catchup = game_catchup(table_id=table.pk, seat=2, last_seq=0)
    chat = [e for e in catchup["events"] if e["type"].startswith("chat")]
    assert [e["type"] for e in chat] == ["chat_deleted"] and chat[0]["chat_seq"] == message.seq
    assert "deleted by" in admin_client.get(url).content.decode()
