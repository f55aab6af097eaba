from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import LedgerTransaction, SittingBan
from accounts.selectors import point_balance, sitting_ban_active
from accounts.services import ESCROW, ledger_post, system_account_get_or_create
from games.models import ChatMessage, GameEvent, GameState, Hand, TableClosure
from games.selectors import game_catchup
from games.services.chat import chat_send
from games.services.timeouts import game_timer_fire
from lobby.models import Seat, Table
from moderation.models import OperatorAction
from moderation.services import OperatorError, table_force_close
from stats.models import ALL_VARIANTS, PlayerStats
from tests.factories import client_verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, operator):
    return client_verified(client, operator)


def test_force_close_of_a_real_running_hand_voids_it_and_moves_no_points(
        admin_client, operator, running_hand, make_user):
    # A classic hand two tricks in, played through games.services: nothing has been posted
    # under its reference yet (it settles when it ends), so voiding it refunds nothing and
    # every balance stays as it was. The operator is staff with the permission, not a
    # superuser.
    hand, table, users = running_hand
    assert not operator.is_superuser and operator.has_perm("moderation.force_close_table")
    before = [point_balance(user=u) for u in users]
    assert not LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").exists()
    url = "/admin/lobby/table/"
    form = {"action": "force_close", "_selected_action": [table.pk]}
    page = admin_client.post(url, form).content.decode()
    assert f"hand 1 (id {hand.pk}) is running: it will be voided" in page
    assert "refund to" not in page
    response = admin_client.post(url, dict(form, apply="1", reason="stuck table"), follow=True)
    assert response.status_code == 200
    assert [point_balance(user=u) for u in users] == before
    assert not LedgerTransaction.objects.filter(key=f"force_close:hand:{hand.pk}").exists()
    hand.refresh_from_db()
    assert hand.result["void"] is True and hand.result["deltas"] == [0, 0, 0, 0]
    assert OperatorAction.objects.get().outcome == (
        f"closed table {table.pk}; voided hand 1 (id {hand.pk}); nothing to refund")
    call_command("ledger_reconcile")


def test_force_close_needs_its_permission_not_only_staff(running_hand, make_user):
    hand, table, users = running_hand
    staff = make_user()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    version = GameState.objects.get(table=table).version
    with pytest.raises(OperatorError, match="may not do this"):
        table_force_close(table_id=table.pk, operator=staff, reason="stuck table")
    assert GameState.objects.get(table=table).version == version
    assert not TableClosure.objects.exists()


def _stake_escrowed(hand, users, amount=10):
    """Points moved under the hand's reference while it runs (what an escrowed stake or an
    early penalty would post; no game posts one today, so the real hand above refunds
    nothing): the refund of a voided hand gives them back."""
    escrow = system_account_get_or_create(code=ESCROW)
    entries = [(u.point_account, -amount) for u in users] + [(escrow, amount * len(users))]
    ledger_post(key=f"stake:{hand.pk}", entries=entries, kind=LedgerTransaction.Kind.SETTLE,
                reference=f"hand:{hand.pk}")


def test_force_close_refunds_exactly_once(admin_client, operator, running_hand):
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
    # The confirm page says what will be voided and refunded, per player.
    page = page.content.decode()
    assert f"hand 1 (id {hand.pk}) is running: it will be voided" in page
    for user in users:
        assert f"refund to {user}: +10" in page
    for _ in range(2):  # a double submit
        response = admin_client.post(url, dict(form, apply="1", reason="stuck table"),
                                     follow=True)
        assert response.status_code == 200
    assert "refunded" in response.content.decode() or "already closed" in response.content.decode()
    assert [point_balance(user=u) for u in users] == before
    assert LedgerTransaction.objects.filter(key=f"force_close:hand:{hand.pk}").count() == 1
    with pytest.raises(OperatorError, match="already closed"):  # and a direct call
        table_force_close(table_id=table.pk, operator=operator, reason="again")
    assert [point_balance(user=u) for u in users] == before
    call_command("ledger_reconcile")  # raises CommandError on any mismatch
    hand.refresh_from_db()
    assert hand.result["void"] is True and hand.settled and hand.ended_at is not None
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    game = GameState.objects.get(table=table)
    assert game.state is None and game.deadline is None and game.version == stale_version + 1
    assert not game_timer_fire(table_id=table.pk, version=stale_version)  # a stale timer
    assert TableClosure.objects.get(table=table).voided_hand_id == hand.pk
    logged = OperatorAction.objects.get()
    assert (logged.operator, logged.kind, logged.reason) == (operator, "force_close", "stuck table")
    assert logged.targets == [f"table:{table.pk}", f"hand:{hand.pk}"]
    assert f"voided hand 1 (id {hand.pk})" in logged.outcome
    assert all(f"{user} +10" in logged.outcome for user in users)
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
    action = table_force_close(table_id=table.pk, operator=operator, reason="closing time")
    hand.refresh_from_db()
    assert TableClosure.objects.get(table=table).voided_hand is None
    assert hand.settled and not hand.result.get("void")
    assert action.outcome == f"closed table {table.pk}; no hand was running: nothing to void " \
        "or refund"
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
            "reason": "dealt from a bad deck"}
    assert admin_client.post(url, form).status_code == 302
    after = [point_balance(user=u) for u in users]
    assert [a - b for a, b in zip(after, before)] == [-d * 10 for d in hand.result["deltas"]]
    reversal = LedgerTransaction.objects.get(reverses=settle)
    assert reversal.key == f"reverse:{settle.pk}" and reversal.memo == "dealt from a bad deck"
    call_command("ledger_reconcile")
    again = admin_client.post(url, form, follow=True)  # again: refused, nothing written
    assert "already reversed" in again.content.decode()
    assert [point_balance(user=u) for u in users] == after
    assert LedgerTransaction.objects.filter(reverses=settle).count() == 1
    response = admin_client.post(url, dict(form, _selected_action=[reversal.pk]), follow=True)
    assert b"a reversal is not reversed again" in response.content
    assert [point_balance(user=u) for u in users] == after
    logged = OperatorAction.objects.get()  # one reversal, one line: the refusals wrote none
    assert logged.kind == "reversal" and logged.reason == "dealt from a bad deck"
    assert logged.outcome == (f"reversed {settle.key} by {reversal.key}; "
                              f"hand {hand.pk} taken out of the ratings")
    call_command("ledger_reconcile")


def test_rerun_settlement_pays_once_and_counts_stats(admin_client, finished_hand):
    hand, table, users = finished_hand(settle=False)
    before = [point_balance(user=u) for u in users]
    url = "/admin/games/hand/"
    for _ in range(2):
        response = admin_client.post(url, {"action": "rerun_settlement", "apply": "1",
                                           "reason": "stuck settlement",
                                           "_selected_action": [hand.pk]}, follow=True)
        assert response.status_code == 200
    hand.refresh_from_db()
    assert hand.settled
    assert [point_balance(user=u) - b for u, b in zip(users, before)] == \
        [d * 10 for d in hand.result["deltas"]]
    assert PlayerStats.objects.get(user=users[0], variant=ALL_VARIANTS).hands_played == 1
    assert b"already settled, nothing paid" in response.content
    outcomes = list(OperatorAction.objects.filter(targets=[f"hand:{hand.pk}"])
                    .order_by("pk").values_list("outcome", flat=True))
    assert outcomes == ["settled now", "already settled, nothing paid"]


def test_rerun_settlement_of_a_running_hand_is_refused(admin_client, running_hand):
    hand, table, users = running_hand
    response = admin_client.post("/admin/games/hand/", {"action": "rerun_settlement",
                                                        "apply": "1", "reason": "try",
                                                        "_selected_action": [hand.pk]},
                                 follow=True)
    assert b"the hand has not ended" in response.content
    assert not Hand.objects.get(pk=hand.pk).settled and not OperatorAction.objects.exists()


def test_several_players_banned_at_once_and_lifted(admin_client, operator, make_user):
    players = [make_user() for _ in range(3)]
    url = "/admin/accounts/user/"
    form = {"action": "ban_from_sitting", "_selected_action": [p.pk for p in players[:2]]}
    page = admin_client.post(url, form).content.decode()
    default_end = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%d")
    assert f'value="{default_end}"' in page  # the end is filled in: a week from now
    ends = timezone.now() + timedelta(days=3)
    admin_client.post(url, dict(form, apply="1", reason="escaped 5 hands",
                                ends_at_0=ends.strftime("%Y-%m-%d"), ends_at_1="12:00:00"))
    bans = list(SittingBan.objects.order_by("user_id"))
    assert [b.user_id for b in bans] == [p.pk for p in players[:2]]
    assert all(sitting_ban_active(user=p) for p in players[:2])
    assert sitting_ban_active(user=players[2]) is None
    admin_client.post("/admin/accounts/sittingban/", {
        "action": "lift", "apply": "1", "reason": "appeal upheld",
        "_selected_action": [bans[0].pk]})
    assert sitting_ban_active(user=players[0]) is None and sitting_ban_active(user=players[1])
    ban, lift = OperatorAction.objects.order_by("pk")
    assert (ban.kind, ban.reason, lift.kind, lift.reason) == \
        ("ban", "escaped 5 hands", "lift", "appeal upheld")
    assert ban.targets[:2] == [f"user:{players[0].pk}", f"user:{players[1].pk}"]
    assert lift.targets == [f"sitting_ban:{bans[0].pk}"] and lift.operator == operator


def test_a_ban_in_the_past_is_refused_and_the_form_keeps_what_was_typed(admin_client,
                                                                      make_user):
    player = make_user()
    response = admin_client.post("/admin/accounts/user/", {
        "action": "ban_from_sitting", "_selected_action": [player.pk], "apply": "1",
        "reason": "x", "ends_at_0": "2001-01-01", "ends_at_1": "00:00:00"})
    page = response.content.decode()
    assert response.status_code == 200 and "the ban must end in the future" in page
    assert 'value="2001-01-01"' in page
    assert not SittingBan.objects.exists() and sitting_ban_active(user=player) is None


def test_repeated_escapers_are_flagged(admin_client, settled_rows, now):
    from games.services.settlement import hand_stats_record

    for n in range(1, 4):
        hand = settled_rows(number=n, ended_at=now, deltas=(-9, 3, 3, 3))
        Hand.objects.filter(pk=hand.pk).update(result={"deltas": [-9, 3, 3, 3], "escape": 0,
                                                       "levels": 0})
        hand.refresh_from_db()
        hand_stats_record(hand=hand)
    escaper = settled_rows.users[0]
    page = admin_client.get("/admin/accounts/user/?escaper=repeated").content.decode()
    assert escaper.username in page and settled_rows.users[1].username not in page
    form = admin_client.post("/admin/accounts/user/", {"action": "ban_from_sitting",
                                                       "_selected_action": [escaper.pk]})
    assert form.status_code == 200 and "Banned until" in form.content.decode()


@pytest.mark.parametrize("url", [
    "/admin/lobby/table/", "/admin/games/hand/", "/admin/accounts/ledgertransaction/",
    "/admin/accounts/user/", "/admin/games/bot/", "/admin/accounts/sittingban/",
    "/admin/games/tableclosure/", "/admin/stats/playerstats/", "/admin/moderation/operatoraction/",
    "/admin/lobby/table/add/", "/admin/accounts/ledgerentry/", "/admin/games/gameevent/",
    "/admin/games/gamestate/", "/admin/games/chatmessage/",
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


def test_a_table_made_in_the_admin_has_seats_and_a_game(admin_client):
    from lobby.services import room_default_get_or_create

    room = room_default_get_or_create()
    form = {"room": room.pk, "name": "Operators' table", "variant": "point_bid",
            "options": '{"decks": 1}', "turn_timeout": 30}
    refused = admin_client.post("/admin/lobby/table/add/", dict(form, turn_timeout=1))
    assert refused.status_code == 200 and not Table.objects.exists()
    refused = admin_client.post("/admin/lobby/table/add/", dict(form, options='{"decks": 7}'))
    assert refused.status_code == 200 and not Table.objects.exists()
    assert admin_client.post("/admin/lobby/table/add/", form).status_code == 302
    table = Table.objects.get()
    assert (table.variant, table.options, table.turn_timeout, table.base_stake) == \
        ("point_bid", {"decks": 1}, 30, None)
    assert Seat.objects.filter(table=table).count() == 4
    assert GameState.objects.get(table=table).phase == "waiting"


def test_a_running_tables_rules_do_not_change_but_its_name_does(admin_client, running_hand):
    hand, table, users = running_hand
    url = f"/admin/lobby/table/{table.pk}/change/"
    form = {"room": table.room_id, "name": table.name, "variant": table.variant,
            "options": "{}", "turn_timeout": table.turn_timeout, "base_stake": 10,
            "seats-TOTAL_FORMS": 4, "seats-INITIAL_FORMS": 4, "seats-MIN_NUM_FORMS": 0,
            "seats-MAX_NUM_FORMS": 4}
    form.update({f"seats-{n}-id": seat.pk for n, seat in
                 enumerate(Seat.objects.filter(table=table).order_by("number"))})
    form.update({f"seats-{n}-table": table.pk for n in range(4)})
    version = GameState.objects.get(table=table).version
    response = admin_client.post(url, dict(form, turn_timeout=60))
    assert "change between hands" in response.content.decode()
    table.refresh_from_db()
    assert table.turn_timeout == 25 and GameState.objects.get(table=table).version == version
    assert admin_client.post(url, dict(form, name="Renamed")).status_code == 302
    table.refresh_from_db()
    assert table.name == "Renamed" and table.turn_timeout == 25
    game = GameState.objects.get(table=table)
    assert game.version == version + 1 and game.phase == "play"
    assert GameEvent.objects.filter(table=table, type="table_changed").count() == 1


def test_every_model_has_a_readable_name_in_both_languages(admin_client):
    from django.apps import apps
    from django.utils import translation

    ours = [m for m in apps.get_models()
            if m._meta.app_label in {"accounts", "lobby", "games", "stats", "moderation"}]
    assert len(ours) >= 15
    for model in ours:
        opts = model._meta
        with translation.override("en"):
            english = str(opts.verbose_name_plural)
        with translation.override("zh-hans"):
            chinese = str(opts.verbose_name_plural)
        assert not english.endswith("ys") and "object" not in english, model
        assert chinese != english or model.__name__ == "User", model
    page = admin_client.get("/admin/").content.decode()
    assert "Ledger entries" in page and "Ledger entrys" not in page
    page = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "流水分录" in page


def test_a_hand_player_reads_as_who_sat_where(finished_hand):
    hand, table, users = finished_hand()
    player = hand.players.get(seat=2)
    assert str(player) == f"{users[2]} in seat 2 of hand {hand.pk}"


def test_operators_find_tables_hands_events_and_ledger_entries(admin_client, finished_hand,
                                                                make_user):
    hand, table, users = finished_hand()
    other_users = [make_user() for _ in range(2)]
    from games.services.tables import table_create
    from lobby.services import room_default_get_or_create

    other = table_create(room=room_default_get_or_create(), user=other_users[0],
                         variant="classic", cap=4, base_stake=1, name="Quiet corner")

    def rows(url):
        page = admin_client.get(url)
        assert page.status_code == 200, url
        return page.context["cl"].result_list

    # Tables: who sits there, by phase.
    assert [t.pk for t in rows(f"/admin/lobby/table/?q={other_users[0].username}")] == [other.pk]
    assert [t.pk for t in rows("/admin/lobby/table/?game__phase__exact=waiting")] == [other.pk]
    # Hands: by player, by table.
    assert [h.pk for h in rows(f"/admin/games/hand/?player={users[1].pk}")] == [hand.pk]
    assert list(rows(f"/admin/games/hand/?player={other_users[1].pk}")) == []
    assert [h.pk for h in rows(f"/admin/games/hand/?q={users[2].username}")] == [hand.pk]
    # Events: by type and table, never by what a payload says.
    found = rows("/admin/games/gameevent/?q=deal_revealed")
    assert [e.hand_id for e in found] == [hand.pk]
    assert list(rows(f"/admin/games/gameevent/?q={hand.seed}")) == []
    # Ledger entries: by kind.
    settled = rows("/admin/accounts/ledgerentry/?transaction__kind__exact=settle")
    assert {e.transaction.key for e in settled} == {f"settle:{hand.pk}"}


def test_chat_in_the_admin_is_escaped_marked_and_deleted_with_a_reason(admin_client, operator,
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
    assert message.deleted_by == operator and not operator.is_superuser
    assert message.deleted_reason == "markup"
    logged = OperatorAction.objects.get()  # the second submit was refused: already deleted
    assert (logged.kind, logged.reason, logged.targets) == \
        ("chat_delete", "markup", [f"chat_message:{message.pk}"])
    # Gone from the table: neither message is in a catch-up any more (one deleted, one banned).
    catchup = game_catchup(table_id=table.pk, seat=2, last_seq=0)
    chat = [e for e in catchup["events"] if e["type"].startswith("chat")]
    assert [e["type"] for e in chat] == ["chat_deleted"] and chat[0]["chat_seq"] == message.seq
    assert "deleted by" in admin_client.get(url).content.decode()
