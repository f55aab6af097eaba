"""Each operator action needs its own permission, checked on use, and is logged with who,
what and why; without the permission it is refused and nothing is done or logged."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from accounts.models import LedgerTransaction, SittingBan
from accounts.selectors import sitting_ban_active
from games.models import Hand, TableClosure
from moderation.models import OperatorAction
from moderation.services import (
    OperatorError,
    hand_settlement_rerun,
    ledger_transaction_reverse,
    sitting_bans_create,
    sitting_bans_lift,
    table_force_close,
)
from tests.factories import client_verified, operator_verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_with(make_user):
    """A staff member (not a superuser) holding only the given moderation permissions."""

    def make(*codenames):
        user = make_user()
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        user.user_permissions.set(Permission.objects.filter(content_type__app_label="moderation",
                                                            codename__in=codenames))
        # A fresh permission cache; verified by two-factor sign-in, as a request's user.
        return operator_verified(type(user).objects.get(pk=user.pk))

    return make


def _force_close(ctx, operator):
    return table_force_close(table_id=ctx["table"].pk, operator=operator, reason="stuck")


def _rerun(ctx, operator):
    return hand_settlement_rerun(hand_id=ctx["hand"].pk, operator=operator, reason="stuck")


def _reverse(ctx, operator):
    settle = LedgerTransaction.objects.get(key=f"settle:{ctx['hand'].pk}")
    return ledger_transaction_reverse(transaction_id=settle.pk, operator=operator,
                                      reason="bad deck")


def _ban(ctx, operator):
    return sitting_bans_create(users=ctx["users"][:2], reason="escapes", operator=operator,
                               ends_at=timezone.now() + timedelta(days=1))


def _lift(ctx, operator):
    return sitting_bans_lift(bans=[ctx["ban"]], operator=operator, reason="appeal")


def _done(ctx):
    """Whether anything of any action happened."""
    hand = Hand.objects.get(pk=ctx["hand"].pk)
    return {
        "closed": TableClosure.objects.exists(),
        "reversed": LedgerTransaction.objects.filter(kind="reversal").exists(),
        "banned": SittingBan.objects.exclude(pk=ctx["ban"].pk).exists(),
        "lifted": SittingBan.objects.get(pk=ctx["ban"].pk).lifted_at is not None,
        "settled": hand.settled,
    }


ACTIONS = [
    ("force_close_table", _force_close, "force_close", "closed"),
    ("rerun_settlement", _rerun, "settlement_rerun", None),
    ("reverse_transaction", _reverse, "reversal", "reversed"),
    ("ban_user", _ban, "ban", "banned"),
    ("lift_ban", _lift, "lift", "lifted"),
]


@pytest.fixture
def ctx(finished_hand, make_user):
    hand, table, users = finished_hand()
    banned = make_user()
    ban = SittingBan.objects.create(user=banned, reason="old", starts_at=timezone.now(),
                                    ends_at=timezone.now() + timedelta(days=2))
    return {"hand": hand, "table": table, "users": users, "ban": ban}


@pytest.mark.parametrize("codename,act,kind,effect", ACTIONS)
def test_a_staff_member_with_only_that_permission_may(ctx, staff_with, codename, act, kind,
                                                      effect):
    operator = staff_with(codename)
    before = _done(ctx)
    action = act(ctx, operator)
    assert (action.operator, action.kind) == (operator, kind)
    assert action.reason in ("stuck", "bad deck", "escapes", "appeal") and action.outcome
    assert OperatorAction.objects.get() == action
    after = _done(ctx)
    if effect:
        assert (before[effect], after[effect]) == (False, True)


@pytest.mark.parametrize("codename,act,kind,effect", ACTIONS)
def test_without_that_permission_it_is_refused_and_nothing_is_logged(ctx, staff_with,
                                                                     codename, act, kind,
                                                                     effect):
    others = [c for c, *_ in ACTIONS if c != codename]
    before = _done(ctx)
    for operator in (staff_with(*others), None):
        with pytest.raises(OperatorError, match="you may not do this"):
            act(ctx, operator)
    assert _done(ctx) == before and not OperatorAction.objects.exists()
    assert sitting_ban_active(user=ctx["users"][0]) is None


def test_a_permission_without_staff_status_is_not_enough(ctx, staff_with):
    operator = staff_with("force_close_table")
    operator.is_staff = False
    operator.save(update_fields=["is_staff"])
    with pytest.raises(OperatorError):
        _force_close(ctx, operator)
    assert not TableClosure.objects.exists()


def test_the_admin_offers_an_action_only_to_who_may_do_it(ctx, staff_with, client):
    viewer = staff_with("view_operatoraction")
    viewer.user_permissions.add(Permission.objects.get(codename="view_sittingban"))
    client_verified(client, viewer)
    page = client.get("/admin/accounts/sittingban/").content.decode()
    assert page.count('value="lift"') == 0
    form = {"action": "lift", "apply": "1", "_selected_action": [ctx["ban"].pk]}
    client.post("/admin/accounts/sittingban/", dict(form, reason="x"))
    assert sitting_ban_active(user=ctx["ban"].user) is not None
    lifter = staff_with("lift_ban")
    lifter.user_permissions.add(Permission.objects.get(codename="view_sittingban"))
    client_verified(client, lifter)
    assert 'value="lift"' in client.get("/admin/accounts/sittingban/").content.decode()
    client.post("/admin/accounts/sittingban/", dict(form, reason="appeal"))
    assert sitting_ban_active(user=ctx["ban"].user) is None
    assert OperatorAction.objects.get().operator == lifter


def test_force_close_says_when_there_was_nothing_to_refund(running_hand, operator):
    hand, table, users = running_hand  # no stake was escrowed: the ledger moved nothing
    action = table_force_close(table_id=table.pk, operator=operator, reason="stuck")
    assert action.outcome == (f"closed table {table.pk}; voided hand 1 (id {hand.pk}); "
                              "nothing to refund")
    hand.refresh_from_db()
    assert hand.result["void"] and hand.seed  # a voided hand's seed is revealed too
