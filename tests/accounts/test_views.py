import re

import pytest
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse

from accounts.models import LedgerTransaction, User
from tests.factories import client_verified

pytestmark = pytest.mark.django_db

STRONG = "Lucky-tractor-88"


def register(client, **overrides):
    data = {
        "username": "xiaoming",
        "display_name": "小明",
        "preferred_language": "zh-hans",
        "password1": STRONG,
        "password2": STRONG,
        **overrides,
    }
    return client.post(reverse("accounts:register"), data)


def test_registration_creates_a_player_logs_in_and_grants_points(client):
    response = register(client)
    assert response.status_code == 302 and response.url == reverse("ui:profile")
    user = User.objects.get(username="xiaoming")
    assert user.display_name == "小明" and user.preferred_language == "zh-hans"
    assert not user.is_bot
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"

    profile = client.get(reverse("ui:profile"))
    assert profile.status_code == 200
    assert profile.context["balance"] == 1000
    assert re.search(r'id="balance">\s*1000\s*<', profile.content.decode())
    assert [e.transaction.kind for e in profile.context["entries"]] == ["grant"]
    assert '<html lang="zh-hans">' in profile.content.decode()


def test_registration_rejects_a_taken_username(client, make_user):
    make_user(username="xiaoming")
    response = register(client, username="XiaoMing")
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("password", ["12345678", "password", "short"])
def test_registration_rejects_a_weak_password(client, password):
    response = register(client, password1=password, password2=password)
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not User.objects.exists()
    assert not LedgerTransaction.objects.exists()


def test_registration_rejects_mismatched_passwords_and_missing_display_name(client):
    response = register(client, password2=STRONG + "!", display_name="")
    errors = response.context["form"].errors
    assert "password2" in errors and "display_name" in errors
    assert not User.objects.exists()


@pytest.mark.parametrize("language, text", [
    ("en", "Choose a display name: it is what the table shows."),
    ("zh-hans", "请填写昵称：牌桌上显示的就是它。"),
])
def test_an_empty_display_name_is_refused_beside_the_field_in_the_pages_language(
        client, language, text):
    client.cookies["django_language"] = language
    page = register(client, display_name="").content.decode()
    form = page.split('id="register"')[1].split("</form>")[0]
    assert "novalidate" in form.split(">")[0]
    beside = form.split('name="display_name"')[1].split("</div>")[0]
    assert f'<span class="field-error" id="id_display_name_error" role="alert">{text}</span>' in beside
    label = form.split('name="display_name"')[0].rsplit("<div", 1)[1]
    assert 'class="field required has-error"' in label
    # The refused field has the focus, not the user name Django focuses on a fresh form.
    assert "autofocus" in form.split('name="display_name"')[1].split(">")[0]
    assert "autofocus" not in form.split('name="username"')[1].split(">")[0]


def test_login_activates_the_preferred_language_and_logout_ends_the_session(client, make_user):
    make_user(username="wang", password=STRONG, preferred_language="zh-hans")
    response = client.post(reverse("accounts:login"), {"username": "wang", "password": STRONG})
    assert response.status_code == 302 and response.url == reverse("ui:profile")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert '<html lang="zh-hans">' in client.get(reverse("ui:home")).content.decode()

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("ui:profile")).status_code == 302


def test_login_with_a_wrong_password_fails(client, make_user):
    make_user(username="wang", password=STRONG)
    response = client.post(reverse("accounts:login"), {"username": "wang", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_password_change(client, make_user):
    user = make_user(username="li", password=STRONG)
    client.force_login(user)
    new = "Another-strong-99"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": STRONG, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302 and response.url == reverse("accounts:password_done")
    client.logout()
    # django-axes checks sign-ins per request: the test client's login passes one.
    assert client.login(request=HttpRequest(), username="li", password=new)

    weak = client.post(
        reverse("accounts:password_change"),
        {"old_password": new, "new_password1": "123", "new_password2": "123"},
    )
    assert weak.status_code == 200 and weak.context["form"].errors


def test_profile_needs_a_login(client):
    response = client.get(reverse("ui:profile"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_language_switch_sets_the_cookie_and_remembers_the_choice(client, make_user):
    user = make_user(preferred_language="en")
    client.force_login(user)
    response = client.post(
        reverse("accounts:language"), {"language": "zh-hans", "next": "/accounts/profile/"}
    )
    assert response.status_code == 302 and response.url == "/accounts/profile/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    user.refresh_from_db()
    assert user.preferred_language == "zh-hans"


def test_language_switch_works_anonymously_and_refuses_foreign_redirects(client):
    response = client.post(
        reverse("accounts:language"), {"language": "zh-hans", "next": "https://evil.example/"}
    )
    assert response.url == "/"
    assert '<html lang="zh-hans">' in client.get("/").content.decode()
    assert client.post(reverse("accounts:language"), {"language": "xx"}).url == "/"


def test_pages_render_in_both_languages(client, make_user):
    client.force_login(make_user())
    for language in ("en", "zh-hans"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for name in ("ui:home", "ui:profile", "accounts:password_change"):
            page = client.get(reverse(name))
            assert page.status_code == 200
            assert f'<html lang="{language}">' in page.content.decode()
            assert 'name="viewport"' in page.content.decode()


def test_admin_lists_users_and_shows_the_ledger_read_only(client, make_user):
    admin = User.objects.create_superuser(username="boss", password=STRONG, display_name="Boss")
    player = make_user()
    client_verified(client, admin)
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 200
    assert client.get(reverse("admin:accounts_user_change", args=[player.pk])).status_code == 200
    grant = LedgerTransaction.objects.get(key=f"grant:{player.pk}")
    assert (
        client.get(reverse("admin:accounts_ledgertransaction_change", args=[grant.pk])).status_code
        == 200
    )
    assert client.get(reverse("admin:accounts_ledgertransaction_add")).status_code == 403
    assert client.get(reverse("admin:accounts_ledgerentry_changelist")).status_code == 200
    assert (
        client.post(
            reverse("admin:accounts_ledgertransaction_delete", args=[grant.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert LedgerTransaction.objects.filter(pk=grant.pk).exists()


@pytest.mark.parametrize("accept,chosen", [("zh-CN,zh;q=0.9,en;q=0.5", "zh-hans"),
                                           ("en-US,en;q=0.9", "en"), ("fr-FR", "en")])
def test_the_sign_up_form_starts_in_the_browsers_language(client, accept, chosen):
    page = client.get(reverse("accounts:register"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    selected = re.search(r'<option value="([^"]+)" selected>', page)
    assert selected and selected.group(1) == chosen


@pytest.mark.parametrize("language, required", [
    ("en", "This field is required."), ("zh-hans", "该字段是必填项。")])
def test_sign_in_marks_its_fields_required_and_refuses_an_empty_one_beside_it(
        client, language, required):
    client.cookies["django_language"] = language
    page = client.get(reverse("accounts:login")).content.decode()
    form = page.split('id="sign-in"')[1].split("</form>")[0]
    assert "novalidate" in form.split(">")[0] and "required-legend" in form
    for name in ("username", "password"):
        assert 'class="field required' in form.split(f'name="{name}"')[0].rsplit("<div", 1)[1]
        assert 'aria-required="true"' in form.split(f'name="{name}"')[1].split(">")[0]
    page = client.post(reverse("accounts:login"), {"username": "wang", "password": ""}) \
        .content.decode()
    beside = page.split('name="password"')[1].split("</div>")[0]
    assert f'<span class="field-error" id="id_password_error" role="alert">{required}</span>' \
        in beside
    assert "field-error" not in page.split('name="username"')[1].split("</div>")[0]


def test_a_wrong_password_is_said_above_the_sign_in_fields(client, make_user):
    make_user(username="wang", password=STRONG)
    page = client.post(reverse("accounts:login"), {"username": "wang", "password": "nope"}) \
        .content.decode()
    form = page.split('id="sign-in"')[1].split("</form>")[0]
    top = form.split('class="field')[0]
    assert 'class="notice error" role="alert"' in top and "correct username and password" in top


def test_the_password_change_form_marks_its_fields_and_speaks_beside_them(client, make_user):
    client.force_login(make_user(password=STRONG))
    page = client.post(reverse("accounts:password_change"), {
        "old_password": STRONG, "new_password1": "", "new_password2": ""}).content.decode()
    form = page.split('id="password-change"')[1].split("</form>")[0]
    assert "novalidate" in form.split(">")[0] and "required-legend" in form
    assert 'aria-required="true"' in form.split('name="new_password1"')[1].split(">")[0]
    beside = form.split('name="new_password1"')[1].split("</div>")[0]
    assert 'id="id_new_password1_error"' in beside and "This field is required." in beside
