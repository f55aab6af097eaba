"""Operators act only from a session that passed two-factor sign-in (django-otp): the admin
site, every operator action (checked again in moderation.services) and the operators' log
in the API. Each refusal changes nothing, checked in the database."""

import pytest
from django.test import Client, override_settings
from django.utils import translation
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import TableClosure
from moderation.models import OperatorAction
from moderation.services import OperatorError, table_force_close
from tests.factories import client_verified, game_of, totp_code, totp_device_of

pytestmark = pytest.mark.django_db

VERIFY = "/accounts/two-factor/verify/"


@pytest.fixture
def unverified(operator):
    """The operator as their password alone signs them in: the same row, no verified device."""
    return type(operator).objects.get(pk=operator.pk)


def force_close_in_the_admin(client, table):
    return client.post("/admin/lobby/table/", {
        "action": "force_close", "_selected_action": [table.pk], "apply": "1",
        "reason": "stuck table"})


def nothing_changed(table, hand, version):
    hand.refresh_from_db()
    assert not TableClosure.objects.filter(table=table).exists()
    assert game_of(table).version == version
    assert hand.ended_at is None and hand.result is None
    assert not OperatorAction.objects.exists()


def test_staff_without_a_device_is_sent_to_enroll_and_changes_nothing(client, unverified,
                                                                      running_hand):
    hand, table, _users = running_hand
    version = game_of(table).version
    TOTPDevice.objects.filter(user=unverified).delete()
    client.force_login(unverified)
    refused = force_close_in_the_admin(client, table)
    assert refused.status_code == 302 and refused.url.startswith("/admin/login/")
    # The admin's sign-in sends a signed-in staff member to the second factor, and one with
    # no device on to enrolling one.
    to_verify = client.get(refused.url)
    assert to_verify.url == VERIFY + "?next=%2Fadmin%2Flobby%2Ftable%2F"
    assert client.get(to_verify.url).url == "/accounts/two-factor/?next=%2Fadmin%2Flobby%2Ftable%2F"
    nothing_changed(table, hand, version)


def test_a_device_without_a_verified_session_is_refused_everywhere(client, unverified,
                                                                 running_hand):
    hand, table, _users = running_hand
    version = game_of(table).version
    totp_device_of(unverified)
    client.force_login(unverified)
    for page in ("/admin/", "/admin/lobby/table/", f"/admin/lobby/table/{table.pk}/change/"):
        answer = client.get(page)
        assert answer.status_code == 302 and answer.url.startswith("/admin/login/"), page
    assert client.get("/admin/login/?next=/admin/").url == VERIFY + "?next=%2Fadmin%2F"
    assert force_close_in_the_admin(client, table).status_code == 302
    # The service refuses the unverified operator too, whatever calls it, in both languages.
    with pytest.raises(OperatorError, match="two-factor sign-in"):
        table_force_close(table_id=table.pk, operator=unverified, reason="stuck table")
    with translation.override("zh-hans"), pytest.raises(OperatorError, match="两步验证"):
        table_force_close(table_id=table.pk, operator=unverified, reason="stuck table")
    nothing_changed(table, hand, version)


def test_a_valid_code_verifies_the_session_and_the_action_runs(client, unverified,
                                                              running_hand):
    hand, table, _users = running_hand
    device = totp_device_of(unverified)
    client.force_login(unverified)
    page = client.get(VERIFY + "?next=/admin/lobby/table/")
    assert page.status_code == 200 and "Two-factor sign-in" in page.content.decode()
    answer = client.post(VERIFY, {"otp_device": device.persistent_id,
                                  "otp_token": totp_code(device), "next": "/admin/lobby/table/"})
    assert answer.status_code == 302 and answer.url == "/admin/lobby/table/"
    assert client.get("/admin/").status_code == 200
    assert force_close_in_the_admin(client, table).status_code == 302
    closure = TableClosure.objects.get(table=table)
    assert (closure.closed_by, closure.voided_hand) == (unverified, hand)
    action = OperatorAction.objects.get()
    assert (action.operator, action.kind, action.reason) == (unverified, "force_close",
                                                             "stuck table")


def test_a_wrong_code_is_refused_and_counted(client, unverified, running_hand):
    hand, table, _users = running_hand
    version = game_of(table).version
    device = totp_device_of(unverified)
    right = totp_code(device)
    wrong = f"{(int(right) + 1) % 10**6:06d}"
    client.force_login(unverified)
    answer = client.post(VERIFY, {"otp_device": device.persistent_id, "otp_token": wrong})
    assert answer.status_code == 200
    assert "Invalid token" in answer.content.decode()
    device.refresh_from_db()
    assert device.throttling_failure_count == 1
    assert client.get("/admin/").status_code == 302
    assert force_close_in_the_admin(client, table).status_code == 302
    nothing_changed(table, hand, version)


@override_settings(OTP_TOTP_THROTTLE_FACTOR=1000)
def test_after_a_wrong_code_even_the_right_one_waits(client, unverified):
    # django-otp's back-off: after n wrong codes in a row the device refuses every code for
    # factor × 2^(n-1) seconds (1000 s here, so the test cannot outrun it).
    device = totp_device_of(unverified)
    client.force_login(unverified)
    right = totp_code(device)
    client.post(VERIFY, {"otp_device": device.persistent_id,
                         "otp_token": f"{(int(right) + 1) % 10**6:06d}"})
    answer = client.post(VERIFY, {"otp_device": device.persistent_id, "otp_token": right})
    assert answer.status_code == 200
    assert "Verification temporarily disabled because of 1 failed attempt" in \
        answer.content.decode()
    device.refresh_from_db()
    assert device.throttling_failure_count == 1 and device.last_t == -1  # right code unused
    assert client.get("/admin/").status_code == 302


def test_a_code_is_accepted_once(client, unverified, make_user):
    device = totp_device_of(unverified)
    code = totp_code(device)
    client.force_login(unverified)
    assert client.post(VERIFY, {"otp_device": device.persistent_id,
                                "otp_token": code}).status_code == 302
    other = Client()
    other.force_login(unverified)
    replay = other.post(VERIFY, {"otp_device": device.persistent_id, "otp_token": code})
    assert replay.status_code == 200 and "Invalid token" in replay.content.decode()
    assert other.get("/admin/").status_code == 302


def test_the_refusal_reads_in_chinese(client, unverified):
    device = totp_device_of(unverified)
    client.force_login(unverified)
    client.cookies["django_language"] = "zh-hans"
    page = client.get(VERIFY).content.decode()
    assert "两步验证" in page
    wrong = f"{(int(totp_code(device)) + 1) % 10**6:06d}"
    answer = client.post(VERIFY, {"otp_device": device.persistent_id, "otp_token": wrong})
    assert "验证码不正确" in answer.content.decode()


def test_the_operators_log_needs_a_verified_session(client, unverified):
    api = APIClient()
    client.force_login(unverified)
    refused = client.get("/api/v1/operator-actions/")
    assert refused.status_code == 403
    assert "Two-factor sign-in needed" in refused.json()["error"]["message"]
    # A token is made from a password alone: never enough for operators' data.
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=unverified).key}")
    assert api.get("/api/v1/operator-actions/").status_code == 403
    client_verified(client, unverified)
    assert client.get("/api/v1/operator-actions/").status_code == 200
