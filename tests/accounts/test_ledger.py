import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from accounts.models import LedgerEntry, LedgerTransaction, PointAccount
from accounts.selectors import ledger_history, ledger_mismatches, point_balance
from accounts.services import (
    ESCROW,
    HOUSE,
    AlreadyReversed,
    EmptyTransaction,
    Overdraft,
    UnbalancedTransaction,
    ZeroAmountEntry,
    ledger_post,
    ledger_reverse,
    system_account_get_or_create,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def balances(*accounts):
    return [PointAccount.objects.get(pk=a.pk).balance for a in accounts]


def test_new_user_gets_the_opening_grant_from_the_house(make_user, settings):
    user = make_user()
    house = system_account_get_or_create(code=HOUSE)
    assert point_balance(user=user) == settings.POINTS_OPENING_GRANT == 1000
    grant = LedgerTransaction.objects.get(key=f"grant:{user.pk}")
    assert grant.kind == "grant" and grant.reference == f"user:{user.pk}"
    assert sorted(e.amount for e in grant.entries.all()) == [-1000, 1000]
    assert house.balance == -1000 and house.floor is None
    assert [e.transaction for e in ledger_history(user=user)] == [grant]


def test_opening_grant_follows_the_setting(make_user, settings):
    settings.POINTS_OPENING_GRANT = 250
    assert point_balance(user=make_user()) == 250


def test_same_key_twice_moves_points_once(make_user):
    alice, bob = make_user().point_account, make_user().point_account
    first = ledger_post(
        key="settle:1", entries=[(alice, -300), (bob, 300)], kind="settle", reference="1"
    )
    again = ledger_post(
        key="settle:1", entries=[(alice, -300), (bob, 300)], kind="settle", reference="1"
    )
    assert again.pk == first.pk
    assert balances(alice, bob) == [700, 1300]
    assert LedgerTransaction.objects.filter(key="settle:1").count() == 1
    assert first.entries.count() == 2


@pytest.mark.parametrize(
    "amounts, error",
    [
        ((-100, 90), UnbalancedTransaction),
        ((-100, 100, 0), ZeroAmountEntry),
        ((), EmptyTransaction),
    ],
)
def test_malformed_transactions_are_rejected_and_change_nothing(make_user, amounts, error):
    accounts = [make_user().point_account for _ in range(3)]
    house = system_account_get_or_create(code=HOUSE)
    before = balances(house, *accounts)
    with pytest.raises(error):
        ledger_post(key="bad", entries=list(zip(accounts, amounts, strict=False)), kind="settle", reference="x")
    assert balances(house, *accounts) == before
    assert not LedgerTransaction.objects.filter(key="bad").exists()


def test_overdraft_is_rejected_and_leaves_every_balance_unchanged(make_user):
    alice, bob = make_user().point_account, make_user().point_account
    escrow = system_account_get_or_create(code=ESCROW)
    with pytest.raises(Overdraft) as caught:
        # Balances move in account id order: alice's credit is applied before bob's debit
        # fails, so the failure must undo a move that already happened.
        ledger_post(
            key="settle:2",
            entries=[(escrow, -1), (alice, 1002), (bob, -1001)],
            kind="settle",
            reference="2",
        )
    assert caught.value.account == bob
    assert balances(alice, bob, escrow) == [1000, 1000, 0]
    assert not LedgerTransaction.objects.filter(key="settle:2").exists()
    assert not ledger_mismatches()


def test_balance_may_reach_the_floor_exactly(make_user):
    alice = make_user().point_account
    escrow = system_account_get_or_create(code=ESCROW)
    ledger_post(
        key="stake:1", entries=[(alice, -1000), (escrow, 1000)], kind="settle", reference="t1"
    )
    assert balances(alice, escrow) == [0, 1000]


def test_system_accounts_have_no_floor():
    house = system_account_get_or_create(code=HOUSE)
    escrow = system_account_get_or_create(code=ESCROW)
    ledger_post(key="k", entries=[(house, -5), (escrow, 5)], kind="grant", reference="r")
    assert balances(house, escrow) == [-5, 5]
    assert system_account_get_or_create(code=HOUSE).pk == house.pk


def test_reversal_undoes_a_transaction_once(make_user):
    alice, bob = make_user().point_account, make_user().point_account
    original = ledger_post(
        key="settle:3", entries=[(alice, -200), (bob, 200)], kind="settle", reference="3"
    )
    reversal = ledger_reverse(transaction=original, key="reverse:settle:3", memo="misdeal")
    assert reversal.reverses == original and reversal.kind == "reversal"
    assert balances(alice, bob) == [1000, 1000]
    assert ledger_reverse(transaction=original, key="reverse:settle:3", memo="again") == reversal
    with pytest.raises(AlreadyReversed):
        ledger_reverse(transaction=original, key="reverse:settle:3:b", memo="twice")
    assert balances(alice, bob) == [1000, 1000]
    assert not ledger_mismatches()


def test_reversal_cannot_overdraw(make_user):
    alice, bob = make_user().point_account, make_user().point_account
    original = ledger_post(
        key="settle:4", entries=[(alice, -500), (bob, 500)], kind="settle", reference="4"
    )
    ledger_post(key="settle:5", entries=[(bob, -1500), (alice, 1500)], kind="settle", reference="5")
    with pytest.raises(Overdraft):
        ledger_reverse(transaction=original, key="reverse:settle:4", memo="too late")
    assert balances(alice, bob) == [2000, 0]


def test_entries_and_transactions_cannot_be_changed_through_the_orm(make_user):
    user = make_user()
    entry = LedgerEntry.objects.filter(account__user=user).get()
    entry.amount = 5000
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=1)
    with pytest.raises(TypeError):
        LedgerEntry.objects.all().delete()
    with pytest.raises(TypeError):
        entry.transaction.save()
    with pytest.raises(TypeError):
        LedgerTransaction.objects.all().delete()
    assert LedgerEntry.objects.get(pk=entry.pk).amount == 1000


def test_reconcile_passes_on_a_consistent_ledger(make_user, capsys):
    make_user()
    make_user()
    call_command("ledger_reconcile")
    assert "consistent" in capsys.readouterr().out


def test_reconcile_catches_a_balance_changed_behind_the_ledgers_back(make_user, capsys):
    user = make_user()
    PointAccount.objects.filter(user=user).update(balance=5000)
    with pytest.raises(CommandError):
        call_command("ledger_reconcile")
    assert f"account {user.point_account.pk}" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_reconcile_command_line_exits_non_zero_on_a_mismatch(make_user):
    """The real command line, as an operator or a cron job runs it, on committed rows."""
    user = make_user()
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "TEST_DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    command = [sys.executable, "manage.py", "ledger_reconcile"]
    assert subprocess.run(command, env=env, cwd=ROOT, capture_output=True).returncode == 0

    PointAccount.objects.filter(user=user).update(balance=7)
    broken = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    assert broken.returncode != 0
    assert "balance 7 != entries total 1000" in broken.stderr


@pytest.mark.django_db(transaction=True)
def test_two_threads_posting_the_same_key_move_points_once(make_user):
    alice, bob = make_user().point_account, make_user().point_account
    start = threading.Barrier(2)
    results, errors = [], []

    def post():
        try:
            start.wait()
            results.append(
                ledger_post(
                    key="settle:race",
                    entries=[(alice, -400), (bob, 400)],
                    kind="settle",
                    reference="race",
                ).pk
            )
        except Exception as exc:  # surfaced by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(results) == 2 and results[0] == results[1]
    assert balances(alice, bob) == [600, 1400]
    assert LedgerTransaction.objects.filter(key="settle:race").count() == 1
    assert not ledger_mismatches()


@pytest.mark.django_db(transaction=True)
def test_two_threads_racing_for_the_last_points_cannot_overdraw(make_user):
    alice = make_user().point_account
    escrow = system_account_get_or_create(code=ESCROW)
    start = threading.Barrier(2)
    outcomes = []

    def stake(n):
        try:
            start.wait()
            ledger_post(
                key=f"stake:{n}",
                entries=[(alice, -700), (escrow, 700)],
                kind="settle",
                reference=str(n),
            )
            outcomes.append("posted")
        except Overdraft:
            outcomes.append("overdraft")
        finally:
            connection.close()

    threads = [threading.Thread(target=stake, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["overdraft", "posted"]
    assert balances(alice, escrow) == [300, 700]
