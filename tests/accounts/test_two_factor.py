"""Staff's second factor: enrolling an authenticator app, the reset command (a lost phone,
backup codes), and players, who are never asked for one."""

import base64
import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.factories import client_verified, hand_start, totp_code, totp_device_of
from tests.ui.test_languages import foreign_words

pytestmark = pytest.mark.django_db

ENROLL = "/accounts/two-factor/"
VERIFY = "/accounts/two-factor/verify/"
PASSWORD = "a-Strong-pass-42"  # make_user's


@pytest.fixture
def staff(make_user):
    user = make_user(username="ops")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def shown_secret(page):
    return re.search(r'id="two-factor-secret">([A-Z2-7 ]+)<', page).group(1).replace(" ", "")


# No back-off after the wrong code (one second by default), so the right one is taken at once;
# the back-off has its own test (tests/moderation/test_two_factor.py).
@override_settings(OTP_TOTP_THROTTLE_FACTOR=0)
def test_staff_enroll_an_app_from_its_secret_and_one_code(client, staff):
    client.force_login(staff)
    page = client.get(ENROLL + "?next=/admin/").content.decode()
    assert 'src="data:image/svg+xml;base64,' in page
    device = TOTPDevice.objects.get(user=staff)
    assert not device.confirmed
    secret = shown_secret(page)
    assert base64.b32decode(secret) == device.bin_key
    qr = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', page).group(1)
    svg = base64.b64decode(qr)
    assert b"<svg" in svg and b"<path" in svg
    # Reloading shows the same secret: the app already added keeps working.
    assert shown_secret(client.get(ENROLL).content.decode()) == secret
    # The code an app computes from the secret shown (not from the database row).
    code = f"{totp(base64.b32decode(secret)):06d}"
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    refused = client.post(ENROLL, {"token": wrong, "next": "/admin/"})
    assert refused.status_code == 200 and "That code is not right" in refused.content.decode()
    assert not TOTPDevice.objects.get(pk=device.pk).confirmed
    assert client.get("/admin/").status_code == 302
    done = client.post(ENROLL, {"token": code, "next": "/admin/"})
    assert done.status_code == 302 and done.url == "/admin/"
    device.refresh_from_db()
    assert device.confirmed and TOTPDevice.objects.filter(user=staff).count() == 1
    assert client.get("/admin/").status_code == 200  # this session is verified
    # Enrolled: the page no longer shows a secret, and a new session must verify.
    assert "two-factor-secret" not in client.get(ENROLL).content.decode()
    other = Client()
    other.force_login(staff)
    assert other.get(ENROLL).url == VERIFY + "?next=%2Fadmin%2F"


def test_anonymous_visitors_of_the_admin_sign_in_on_the_sites_page(client):
    first = client.get("/admin/")
    assert first.url == "/admin/login/?next=/admin/"
    assert client.get(first.url).url == "/accounts/login/?next=/admin/"


def test_signing_in_with_the_password_then_the_code(client, staff):
    device = totp_device_of(staff)
    signed_in = client.post("/accounts/login/?next=/admin/",
                            {"username": "ops", "password": PASSWORD, "next": "/admin/"})
    assert signed_in.status_code == 302 and signed_in.url == "/admin/"
    to_verify = client.get("/admin/login/?next=/admin/")
    assert to_verify.url == VERIFY + "?next=%2Fadmin%2F"
    page = client.get(to_verify.url).content.decode()
    assert f'value="{device.persistent_id}" selected' in page  # the one device, chosen
    done = client.post(VERIFY, {"otp_device": device.persistent_id,
                                "otp_token": totp_code(device), "next": "/admin/"})
    assert done.url == "/admin/" and client.get("/admin/").status_code == 200


def test_the_reset_command_replaces_every_device_and_ends_verified_sessions(client, staff):
    old = totp_device_of(staff)
    client_verified(client, staff)
    assert client.get("/admin/").status_code == 200
    out = io.StringIO()
    call_command("two_factor_reset", "ops", "--backup-codes", "3", stdout=out)
    printed = out.getvalue()
    assert not TOTPDevice.objects.filter(pk=old.pk).exists()
    new = TOTPDevice.objects.get(user=staff)
    assert new.confirmed
    assert base64.b32encode(new.bin_key).decode() in printed
    assert new.config_url in printed
    codes = re.findall(r"^  ([a-z2-7]{8})$", printed, re.M)
    assert len(codes) == 3
    assert sorted(StaticDevice.objects.get(user=staff).token_set.values_list("token", flat=True)) \
        == sorted(codes)
    # The session verified with the old phone is verified no longer.
    assert client.get("/admin/").status_code == 302
    # A backup code signs in once.
    backup = StaticDevice.objects.get(user=staff)
    assert client.post(VERIFY, {"otp_device": backup.persistent_id, "otp_token": codes[0],
                                "next": "/admin/"}).url == "/admin/"
    assert client.get("/admin/").status_code == 200
    again = Client()
    again.force_login(staff)
    reused = again.post(VERIFY, {"otp_device": backup.persistent_id, "otp_token": codes[0]})
    assert reused.status_code == 200 and again.get("/admin/").status_code == 302


def test_players_are_never_asked_for_a_second_factor(client, table_factory):
    table, users = table_factory()
    player = users[0]
    signed_in = client.post("/accounts/login/", {"username": player.username,
                                                 "password": PASSWORD})
    assert signed_in.status_code == 302 and signed_in.url == "/accounts/profile/"
    for page in ("/accounts/profile/", "/lobby/", f"/tables/{table.pk}/"):
        assert client.get(page).status_code == 200, page
    assert client.get(ENROLL).status_code == 404
    assert client.get(VERIFY).status_code == 404
    assert 'id="two-factor-link"' not in client.get("/accounts/profile/").content.decode()
    assert not TOTPDevice.objects.filter(user=player).exists()
    # And they play: the hand starts once everyone is ready, no code asked anywhere.
    assert hand_start(table, users).number == 1
    assert client.get(f"/tables/{table.pk}/").status_code == 200


def test_staff_play_without_a_code_too(client, staff, table_factory):
    # Only the admin and operator actions need the second factor, not the lobby or a table.
    table, _users = table_factory()
    client.force_login(staff)
    for page in ("/accounts/profile/", "/lobby/", f"/tables/{table.pk}/"):
        assert client.get(page).status_code == 200, page
    # Their profile leads to the set-up of the second factor.
    profile = client.get("/accounts/profile/").content.decode()
    assert f'<a href="{ENROLL}" id="two-factor-link">' in profile


def test_a_superuser_adds_a_staff_members_device_in_the_admin(admin_client, staff):
    assert admin_client.get("/admin/otp_totp/totpdevice/add/").status_code == 200
    key = "3132333435363738393031323334353637383930"  # RFC 6238's test key, in hex
    added = admin_client.post("/admin/otp_totp/totpdevice/add/", {
        "user": staff.pk, "name": "authenticator app", "confirmed": "on", "key": key,
        "step": 30, "t0": 0, "digits": 6, "tolerance": 1, "drift": 0, "last_t": -1,
        "throttling_failure_count": 0})
    assert added.status_code == 302
    device = TOTPDevice.objects.get(user=staff)
    assert device.key == key and device.confirmed
    qr = admin_client.get(f"/admin/otp_totp/totpdevice/{device.pk}/qrcode/")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    # The staff member then signs in with a code of that key.
    client = Client()
    client.force_login(staff)
    assert client.post(VERIFY, {"otp_device": device.persistent_id,
                                "otp_token": totp_code(device), "next": "/admin/"}).url == "/admin/"


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_two_factor_pages_are_in_one_language(client, staff, make_user, language):
    client.cookies["django_language"] = "zh-hans" if language == "zh" else "en"
    # The apps' names are no language's; nor are the users' own names.
    allowed = {"FreeOTP", "Aegis", "Google", "1Password", str(staff), "ops"}
    client.force_login(staff)
    enroll = client.get(ENROLL)
    wrong = client.post(ENROLL, {"token": "x"})
    enrolled = make_user(username="enrolled")
    enrolled.is_staff = True
    enrolled.save(update_fields=["is_staff"])
    device = totp_device_of(enrolled)
    client.force_login(enrolled)
    verify = client.get(VERIFY)
    refused = client.post(VERIFY, {"otp_device": device.persistent_id, "otp_token": "x"})
    allowed |= {str(enrolled), "enrolled"}
    leaks = {name: foreign_words(page.content.decode(), language, allowed=allowed)
             for name, page in (("enroll", enroll), ("enroll refused", wrong),
                                ("verify", verify), ("verify refused", refused))}
    assert leaks == {name: [] for name in leaks}


def test_the_reset_command_refuses_an_unknown_user(staff):
    with pytest.raises(CommandError, match="there is no user 'nobody'"):
        call_command("two_factor_reset", "nobody", stdout=io.StringIO())
    assert not TOTPDevice.objects.exists()
