"""The replay page of a finished hand: the hand drawn as a table, every card of it there,
the hands in the order they were held in play (the order comes from the server)."""

import json
from collections import Counter

import pytest

from games.services.tables import table_create
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db

SUITS = "SHCD"
FACES = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # high to low
DECK = [s + f for s in SUITS for f in FACES] + ["BJ", "LJ"]


def replay_data(page):
    return json.loads(page.split('id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])


def test_a_running_or_unknown_hand_has_no_replay_page(client, running_hand, operator):
    hand, table, users = running_hand
    for user in (users[0], operator):  # not even a player of the hand, nor a staff member
        client.force_login(user)
        response = client.get(f"/hands/{hand.pk}/replay/")
        assert response.status_code == 403 and b"still being played" in response.content
    assert client.get("/hands/999999/replay/").status_code == 404


# (variant, table options, decks, cards per hand, kitty) as RULES.md deals them.
DEALS = [
    ("classic", None, 2, 25, 8),
    ("four_deck", None, 4, 54, 0),
    ("point_bid", {"decks": 2}, 2, 25, 8),
    ("point_bid", {"decks": 1}, 1, 12, 6),
    ("guigang", None, 4, 54, 0),
]


@pytest.mark.parametrize("variant, options, decks, per_hand, kitty", DEALS)
def test_the_page_carries_every_card_of_the_hand(client, make_user, bots_play_a_hand, variant,
                                                  options, decks, per_hand, kitty):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant=variant, cap=4,
                         base_stake=1, options=options)
    hand = bots_play_a_hand(table, player)
    users = [p.user for p in hand.players.order_by("seat")]
    response = client.get(f"/hands/{hand.pk}/replay/")
    assert response.status_code == 200
    page = response.content.decode()
    data = replay_data(page)
    replay = data["replay"]
    # The hands as play began plus the buried kitty are the whole deck, each card `decks` times.
    held = [card for cards in replay["held"] for card in cards]
    assert Counter(held + replay["buried"]) == Counter({card: decks for card in DECK})
    assert [len(cards) for cards in replay["held"]] == [per_hand] * 4
    assert len(replay["kitty_received"]) == len(replay["buried"]) == kitty
    # Every card played is in a trick, once.
    played = [c for t in replay["tricks"] for p in t["plays"] for c in p["cards"]]
    assert Counter(played) == Counter(held)
    # Drawn by the shared card script, seat names and the step controls on the page.
    assert "ui/cards.js" in page and "ui/replay.js" in page
    for user in users:
        assert f'<span class="name">{user}</span>' in page
    assert page.count('data-goto="') == len(replay["tricks"])
    assert data["names"] == [str(u) for u in users]


def test_replay_page_says_how_to_verify_the_deal(client, finished_hand):
    import hashlib

    hand, table, users = finished_hand()
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert "Verify this deal" in page and f"manage.py verify_deal {hand.pk}" in page
    assert hand.deal_commitment in page and hand.seed in page
    assert hashlib.sha256(hand.seed.encode()).hexdigest() == hand.deal_commitment


def test_hands_are_ordered_as_held_in_play_trumps_first(client, finished_hand):
    hand, table, users = finished_hand()
    replay = replay_data(client.get(f"/hands/{hand.pk}/replay/").content.decode())["replay"]
    trump_suit = hand.trump
    level = hand.levels_before[hand.dealer % 2]
    level_face = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))
    # RULES §1.2 (classic): the jokers, every level card and the trump suit are trump.
    # A hand played without a trump suit (无主: nobody declared) has the jokers and the level
    # cards only; deals are no longer fixed by a table seed, so either can come.
    expected_trumps = {"BJ", "LJ"} | {s + level_face for s in SUITS} | {
        trump_suit + f for f in FACES if trump_suit}
    assert set(replay["trumps"]) == expected_trumps
    for cards in replay["held"]:
        trumps = [c for c in cards if c in expected_trumps]
        plain = [c for c in cards if c not in expected_trumps]
        assert cards == trumps + plain  # trumps first
        # Then suit by suit (S, H, C, D), high to low.
        assert plain == sorted(plain, key=lambda c: (SUITS.index(c[0]), FACES.index(c[1:])))
        assert trumps[:cards.count("BJ")] == ["BJ"] * cards.count("BJ")


def test_the_page_names_the_seats_dealer_teams_and_calls_in_both_languages(client,
                                                                           finished_hand):
    hand, table, users = finished_hand()
    client.force_login(users[2])
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    data = replay_data(page)
    # A player of the hand sees it from their own seat, at the bottom.
    assert data["positions"] == ["top", "left", "bottom", "right"]
    dealer = str(users[hand.dealer])
    assert f"<dd>{dealer}</dd>" in page and "(the dealer's side)" in page
    assert "East" in page and "South" in page and "Declarations and bids" in page
    assert f"{dealer} declared" in page  # the first hand's dealer is who declared (RULES §2.2)
    client.post("/accounts/language/", {"language": "zh-hans", "next": "/"})
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert "东家" in page and "庄家" in page and "亮主与叫分" in page
    assert replay_data(page)["labels"]["trick_of"] == "第 {k} 墩，共 {n} 墩"


def test_point_bid_names_the_lone_dealer_and_the_bids(client, make_user, bots_play_a_hand):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant="point_bid", cap=4,
                         base_stake=1)
    hand = bots_play_a_hand(table, player)
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    dealer = str(hand.players.get(seat=hand.dealer).user)
    assert f"{dealer} deals and plays alone against the three others." in page
    assert 'class="team"' not in page
    assert "passes" in page or "bids" in page


def test_the_profile_links_finished_hands_to_their_replay(client, finished_hand):
    hand, table, users = finished_hand()
    client.force_login(users[0])
    page = client.get("/accounts/profile/").content.decode()
    assert page.count(f'href="/hands/{hand.pk}/replay/"') >= 2  # the hand list and the replays
