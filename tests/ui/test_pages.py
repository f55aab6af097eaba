"""The lobby and table pages without a browser: who may create, sit, add bots and watch."""

import json
import re

import pytest
from django.urls import reverse

from accounts.models import PointAccount
from games.services.invites import invite_renew
from games.services.tables import table_close, table_create
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db


def client_config(response):
    return json.loads(response.content.decode().split('id="table-client" type="application/json">')[1]
                      .split("</script>")[0])


def test_creating_a_table_seats_its_creator_at_the_chosen_stake(client, player):
    response = client.post(reverse("ui:table_create"), {
        "variant": "classic", "base_stake": 20, "cap": 50, "turn_timeout": 25})
    table = Table.objects.get()
    assert response.url == reverse("ui:table", args=[table.pk])
    assert (table.base_stake, table.cap) == (20, 50)
    assert Seat.objects.get(user=player).number == 0
    page = client.get(response.url)
    config = client_config(page)
    assert (config["mode"], config["seat"], config["socket"]) == ("play", 0, f"/ws/tables/{table.pk}/play/")


def test_a_creator_who_cannot_sit_leaves_no_table_and_is_told_what_to_change(client, player):
    # 1000 points (the opening grant) do not cover a cap of 4 at a stake of 300.
    response = client.post(reverse("ui:table_create"), {
        "variant": "classic", "base_stake": 300, "cap": 4, "turn_timeout": 25})
    assert response.status_code == 400
    page = response.content.decode()
    beside_cap = page.split('name="cap"')[1].split("</div>")[0]
    assert ("Sitting at this table needs 1200 points (cap 4 × stake 300); you hold 1000. "
            "Lower the stake or the cap.") in beside_cap
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_a_refusal_reads_in_chinese_with_the_figures(client, player):
    client.cookies["django_language"] = "zh-hans"
    page = client.post(reverse("ui:table_create"), {
        "variant": "classic", "base_stake": 300, "cap": 4, "turn_timeout": 25}).content.decode()
    assert "1200" in page and "1000" in page and "降低底注或封顶" in page


def test_only_a_seated_player_adds_bots(client, player, make_user):
    owner = make_user()
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=10, cap=4)
    response = client.post(reverse("ui:table_bot_add", args=[table.pk]), {"seat": 1},
                           follow=True)
    assert "You have no seat at this table." in response.content.decode()
    assert not Seat.objects.filter(table=table, user__is_bot=True).exists()
    client.force_login(owner)
    client.post(reverse("ui:table_bot_add", args=[table.pk]), {"seat": 1})
    assert Seat.objects.get(table=table, number=1).user.is_bot


def test_someone_without_a_seat_watches_and_the_page_holds_no_hand(client, player, make_user):
    owner = make_user()
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=10, cap=4)
    page = client.get(reverse("ui:table", args=[table.pk]))
    config = client_config(page)
    assert (config["mode"], config["seat"]) == ("watch", None)
    assert b'id="hand"' not in page.content


def test_the_lobby_lists_open_tables_with_seats_stake_and_spectators(client, player, make_user):
    owner = make_user(display_name="Wang")
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=15, cap=4)
    closed = table_create(room=room_default_get_or_create(), user=make_user(),
                          variant="classic", base_stake=15, cap=4, name="Shut")
    table_close(table_id=closed.pk, reason="test")
    page = client.get(reverse("ui:lobby")).content.decode()
    assert "Wang" in page and "15" in page and "Spectators: 0" in page
    assert reverse("ui:table_sit", args=[table.pk]) in page
    assert "Shut" not in page and reverse("ui:table", args=[closed.pk]) not in page


def test_pages_follow_the_chosen_language(client, player):
    client.post(reverse("accounts:language"), {"language": "zh-hans", "next": "/lobby/"})
    assert "游戏大厅" in client.get(reverse("ui:lobby")).content.decode()


def test_the_table_page_hands_the_players_settings_to_its_script(client, player, make_user):
    player.hand_sort, player.turn_sound = "suit", True
    player.save()
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=10, cap=4)
    config = client_config(client.get(reverse("ui:table", args=[table.pk])))
    assert config["prefs"] == {"sort": "suit", "turn_sound": True, "counter": False}
    assert config["prefs_url"] == "/accounts/profile/settings.json"
    assert config["csrf"] and client.cookies["csrftoken"].value
    assert config["catalog"]["phrases"]["thanks"] == "Thanks!"
    assert config["replay_url"] == "/hands/{hand}/replay/"
    # Who plays with whom before the first hand's view says so: the fixed partnerships.
    assert config["variant"]["teams"] == [[0, 2], [1, 3]]
    alone = table_create(room=room_default_get_or_create(), user=make_user(), variant="point_bid",
                         base_stake=1, cap=4)
    assert client_config(client.get(reverse("ui:table", args=[alone.pk])))["variant"]["teams"] is None


def test_the_table_page_carries_chat_history_and_the_switches_a_watcher_has_none_of(
        client, player, make_user):
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=10, cap=4)
    page = client.get(reverse("ui:table", args=[table.pk]))
    html = page.content.decode()
    assert client_config(page)["user"] == player.pk  # chat marks the reader's own lines
    for script in ("ui/table/main.js", "ui/table/history.js", "ui/chat.js", "ui/turncue.js"):
        assert script in html
    assert '<script type="module" src="/static/ui/table/main.js">' in html
    assert 'id="chat-panel"' in html and 'id="history-panel"' in html
    assert 'id="pref-turn-sound"' in html and '<option value="suit">By suit</option>' in html
    assert "To the table…" in html
    client.force_login(make_user())
    watched = client.get(reverse("ui:table", args=[table.pk])).content.decode()
    assert 'id="chat-panel"' in watched and "To the spectators only…" in watched
    assert 'id="pref-turn-sound"' not in watched and 'id="pref-sort"' not in watched


def test_a_seat_s_table_page_has_the_hint_button_in_its_language_a_watcher_s_none(
        client, player, make_user):
    from django.utils import translation

    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=10, cap=4)
    page = client.get(reverse("ui:table", args=[table.pk]))
    html = page.content.decode()
    assert 'id="act-hint"' in html and ">Hint</button>" in html and 'id="check-reason"' in html
    labels = client_config(page)["catalog"]["labels"]
    assert labels["hint_call"] == "Hint: {call}"
    assert "{retry_after}" in client_config(page)["catalog"]["errors"]["hint_rate"]
    with translation.override("zh-hans"):
        client.cookies["django_language"] = "zh-hans"
        page = client.get(reverse("ui:table", args=[table.pk]))
    assert ">提示</button>" in page.content.decode()
    assert client_config(page)["catalog"]["labels"]["hint_call"] == "提示：{call}"
    client.force_login(make_user())
    watched = client.get(reverse("ui:table", args=[table.pk])).content.decode()
    assert 'id="act-hint"' not in watched and 'id="check-reason"' not in watched


def test_the_lobby_offers_the_cap_with_its_default_and_shows_what_sitting_needs(
        client, player, make_user):
    from django.utils import translation

    page = client.get(reverse("ui:lobby")).content.decode()
    # The house default (TABLE_CAP_HOUSE_DEFAULT, 10 base stakes) at the house stake (10):
    # 100 points, which the opening grant (1000) covers; the most is classic's worst loss
    # (tests/games/test_stakes.py, DEFAULT_CAPS: 16386), given to the script.
    assert 'name="base_stake" value="10"' in page and 'name="cap" value="10"' in page
    assert 'id="create-rules"' in page and "/static/ui/lobby.js" in page
    assert 'id="balance-points">1000<' in page
    rules = json.loads(page.split('id="create-rules" type="application/json">')[1]
                       .split("</script>")[0])
    assert rules["balance"] == 1000 and rules["stake"] == 10
    assert rules["variants"]["classic"] == [{"options": {}, "cap": 10, "max": 16386}]
    table_create(room=room_default_get_or_create(), user=make_user(), variant="classic",
                 base_stake=15, cap=20, name="Capped")
    page = client.get(reverse("ui:lobby")).content.decode()
    assert "Cap: 20 × stake" in page and "Sitting needs: 300" in page  # 20 × 15
    with translation.override("zh-hans"):
        client.cookies["django_language"] = "zh-hans"
        page = client.get(reverse("ui:lobby")).content.decode()
    assert "封顶（以底注计）" in page and "入座需要" in page


def test_the_table_page_shows_its_cap_and_the_balance_it_needs(client, player):
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=10, cap=7)
    page = client.get(reverse("ui:table", args=[table.pk])).content.decode()
    assert 'id="fact-cap">7 × stake = 70<' in page


def test_play_against_bots_is_one_click_from_the_lobby(client, player):
    lobby = client.get(reverse("ui:lobby")).content.decode()
    assert 'id="play-bots"' in lobby and 'name="bots-variant"' in lobby
    response = client.post(reverse("ui:table_bots_play"), {"bots-variant": "guigang"})
    table = Table.objects.get()
    assert response.url == reverse("ui:table", args=[table.pk])
    seats = list(Seat.objects.filter(table=table).order_by("number").select_related("user"))
    assert seats[0].user == player and all(s.user.is_bot for s in seats[1:])
    assert table.game.phase == "deal"
    # Seated now: the lobby sends the player back to the seat instead.
    assert 'id="play-bots"' not in client.get(reverse("ui:lobby")).content.decode()


def test_the_table_page_sends_no_timer_lengths(client, player):
    client.post(reverse("ui:table_bots_play"), {"bots-variant": "classic"})
    config = client_config(client.get(reverse("ui:table", args=[Table.objects.get().pk])))
    assert "timers" not in config


def test_the_chinese_lobby_names_the_main_room_in_chinese(client, player):
    room_default_get_or_create()
    page = client.get(reverse("ui:lobby"), HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert "大厅" in page and "Main room" not in page
    assert 'rel="icon"' in page


def test_the_lobbys_two_actions_each_have_one_game_choice_and_tag_each_option_with_its_game(
        client, player):
    page = client.get(reverse("ui:lobby")).content.decode()
    bots = page.split('id="play-bots"')[1].split("</form>")[0]
    create = page.split('id="create-table"')[1].split("</form>")[0]
    assert bots.count("<select name=\"bots-variant\"") == 1 and 'name="variant"' not in bots
    assert create.count('<select name="variant"') == 1
    # point_bid's decks (副数) is its only table option (its descriptor): tagged so the page
    # shows it only when point_bid is chosen, in both forms.
    for form, name in ((bots, "bots-point_bid__decks"), (create, "point_bid__decks")):
        field = form.split(f'name="{name}"')[0].rsplit("<div", 1)[1]
        assert 'data-variant="point_bid"' in field
    assert page.count("data-variant=") == 2


def test_the_forms_mark_required_fields_and_let_the_server_speak(client, player):
    page = client.get(reverse("ui:lobby")).content.decode()
    create = page.split('id="create-table"')[1].split("</form>")[0]
    assert "novalidate" in create.split(">")[0] and "required-legend" in create
    stake = create.split('name="base_stake"')[0].rsplit("<div", 1)[1]
    assert 'class="field required' in stake
    assert 'aria-required="true"' in create.split('name="base_stake"')[1].split(">")[0]
    name = create.split('name="name"')[0].rsplit("<div", 1)[1]
    assert "required" not in name
    response = client.post(reverse("ui:table_create"), {"variant": "classic", "base_stake": "",
                                                        "cap": 10, "turn_timeout": 25})
    assert response.status_code == 400
    beside = response.content.decode().split('name="base_stake"')[1].split("</div>")[0]
    assert 'class="field-error"' in beside and "This field is required." in beside


def test_play_against_bots_takes_the_chosen_games_options(client, player):
    client.post(reverse("ui:table_bots_play"), {"bots-variant": "point_bid",
                                                "bots-point_bid__decks": "1"})
    assert Table.objects.get().options["decks"] == 1


def test_a_table_keeps_only_the_chosen_games_options(client, player):
    """Without the script every game's options post: the server keeps the chosen game's."""
    client.post(reverse("ui:table_create"), {"variant": "classic", "point_bid__decks": "1",
                                            "base_stake": 10, "cap": 10, "turn_timeout": 25})
    assert Table.objects.get().options == {}


def test_a_refusal_of_play_against_bots_stands_at_the_top_of_its_own_form(client, player):
    """Not one field's: the bots form's message, in the page's language, above its fields;
    the new-table form beside it shows none."""
    PointAccount.objects.filter(user=player).update(balance=3)
    client.cookies["django_language"] = "zh-hans"
    response = client.post(reverse("ui:table_bots_play"), {"bots-variant": "classic"})
    assert response.status_code == 400
    page = response.content.decode()
    bots = page.split('id="play-bots"')[1].split("</form>")[0]
    create = page.split('id="create-table"')[1].split("</form>")[0]
    top = bots.split('class="field')[0]
    assert 'class="notice error" role="alert"' in top and "你有 3 分" in top
    assert "notice error" not in create


def test_each_fields_message_stands_beside_it_in_one_element_its_control_names(client, player):
    response = client.post(reverse("ui:table_create"), {"variant": "classic", "base_stake": "x",
                                                        "cap": "0", "turn_timeout": "1"})
    page = response.content.decode()
    for name in ("base_stake", "cap", "turn_timeout"):
        control = page.split(f'name="{name}"')[1].split(">")[0]
        described = re.search(r'aria-describedby="([^"]+)"', control).group(1).split()
        assert f"id_{name}_error" in described and 'aria-invalid="true"' in control
        assert page.count(f'id="id_{name}_error"') == 1
        box = page.split(f'name="{name}"')[1].split("</div>")[0]
        assert f'<span class="field-error" id="id_{name}_error" role="alert">' in box


def test_the_new_table_form_folds_what_a_newcomer_can_keep_and_unfolds_it_when_refused(
        client, player):
    page = client.get(reverse("ui:lobby")).content.decode()
    create = page.split('id="create-table"')[1].split("</form>")[0]
    main, more = create.split('<details class="more"')
    for name in ("variant", "base_stake", "cap"):
        assert f'name="{name}"' in main
    for name in ("room", "name", "turn_timeout"):
        assert f'name="{name}"' in more and f'name="{name}"' not in main
    assert more.startswith(">")  # folded
    response = client.post(reverse("ui:table_create"), {"variant": "classic", "base_stake": 10,
                                                        "cap": 10, "turn_timeout": 1})
    create = response.content.decode().split('id="create-table"')[1].split("</form>")[0]
    more = create.split('<details class="more"')[1]
    assert more.startswith(" open>") and 'id="id_turn_timeout_error"' in more


# --- private tables (docs/ui.md, "Private tables") -------------------------------------------


def test_a_private_table_made_from_the_lobby_is_listed_for_nobody(client, player, make_user):
    client.post(reverse("ui:table_create"), {"variant": "classic", "base_stake": 1, "cap": 4,
                                             "turn_timeout": 25, "private": "on"})
    table = Table.objects.get()
    assert table.private and table.invite_token
    client.force_login(make_user())
    page = client.get(reverse("ui:lobby")).content.decode()
    assert reverse("ui:table", args=[table.pk]) not in page
    assert 'name="private"' in page.split('id="create-table"')[1].split("</form>")[0]


@pytest.mark.parametrize("language, refusal, link_refused", [
    ("en", "This table is private: only people holding its invitation link can sit or watch.",
     "This invitation link no longer works: a player at the table has made a new one."),
    ("zh-hans", "这是私人牌桌：只有持有邀请链接的人才能入座或旁观。",
     "这个邀请链接已失效：桌上的玩家已生成了新链接。")])
def test_a_stranger_is_told_why_and_the_links_holder_comes_in(client, player, make_user,
                                                                language, refusal, link_refused):
    client.cookies["django_language"] = language
    owner = make_user()
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=1, cap=4, private=True)
    address = reverse("ui:table", args=[table.pk])
    for asked in (address, address + "?watch=1"):
        response = client.get(asked)
        assert response.status_code == 403 and refusal in response.content.decode()
    response = client.get(address + "?invite=wrong")
    assert response.status_code == 403 and link_refused in response.content.decode()
    # The link lets its holder in and comes back to the address without the token.
    response = client.get(f"{address}?watch=1&invite={table.invite_token}")
    assert response.status_code == 302 and response.url == address + "?watch=1"
    page = client.get(address)
    assert page.status_code == 200 and client_config(page)["mode"] == "watch"
    assert b'id="invite-panel"' not in page.content  # the link is shown to the seats only
    client.post(reverse("ui:table_sit", args=[table.pk]), {"seat": 2})
    assert Seat.objects.get(table=table, number=2).user_id == player.pk
    page = client.get(address)
    assert client_config(page)["invite_url"] == address + "?invite={token}"
    assert b'id="invite-panel"' in page.content


def test_a_revoked_link_no_longer_lets_anyone_in(client, player, make_user):
    owner = make_user()
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=1, cap=4, private=True)
    old = table.invite_token
    invite_renew(table_id=table.pk, user=owner)
    address = reverse("ui:table", args=[table.pk])
    assert client.get(f"{address}?invite={old}").status_code == 403
    response = client.post(reverse("ui:table_sit", args=[table.pk]), {"seat": 1}, follow=True)
    assert "only people holding its invitation link can sit here" in response.content.decode()
    assert Seat.objects.get(table=table, number=1).user_id is None
