"""The test suite's shared ways to make tables and move hands along, all through the services
(as a socket or a page would): the fixtures in tests/conftest.py and tests/games/conftest.py
and the tests that need a plain function import them from here, instead of each file
keeping its own copy."""

from django.db import transaction
from django.utils import timezone
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from games.bots import bot_choose_action
from games.models import GameState, Hand, HandPlayer, Match
from games.services.play import game_apply_action
from games.services.settlement import hand_settle
from games.services.tables import table_create, table_sit
from games.services.timeouts import game_timer_fire
from lobby.models import Seat
from lobby.services import room_default_get_or_create

ACE = 14


def game_of(table):
    """The table's GameState as the database has it now."""
    return GameState.objects.get(table=table)


def act(table, user, action):
    """`user` sends `action` for the table's current version."""
    return game_apply_action(table_id=table.pk, user=user, action=action,
                             version=game_of(table).version)


def table_seated(users, *, variant="classic", stake=10, **extra):
    """A table of `variant` with `users` (four) seated in order at `stake`, cap 4 unless
    given: the first creates it (and sets the stake, P8), the others sit."""
    table = table_create(room=room_default_get_or_create(), user=users[0], variant=variant,
                         base_stake=stake, **{"cap": 4, **extra})
    for seat, user in enumerate(users[1:], start=1):
        table_sit(table_id=table.pk, user=user, seat=seat)
    return table


def hand_start(table, users):
    """Every player presses ready: the next hand starts. Returns it."""
    for user in users:
        act(table, user, {"type": "ready"})
    return Hand.objects.filter(table=table).order_by("-number").first()


def hand_ended(table, users, *, deltas, dealer=0, number=None):
    """A hand of `table` that ended with `deltas` (base stakes per seat, RULES P8b) and
    `dealer`, not yet settled: an end position for the settlement service (hand_settle), so
    tests of what settling does need not play the hand out. `users` sit in seat order."""
    number = number or Hand.objects.filter(table=table).count() + 1
    winner = "dealer" if deltas[dealer] > 0 else "defenders"
    hand = Hand.objects.create(
        table=table, number=number, variant=table.variant, base_stake=table.base_stake,
        dealer=dealer, trump="S", levels_before=[2, 2], ended_at=timezone.now(),
        result={"deltas": list(deltas), "escape": None, "winner": winner,
                "levels": max(deltas)})
    HandPlayer.objects.bulk_create(HandPlayer(hand=hand, seat=seat, user=user,
                                              is_bot=user.is_bot)
                                   for seat, user in enumerate(users))
    return hand


def _declare(table, people):
    """Deal by timer, and the first player who can declares (people not on 托管 declare
    nothing by themselves, and a hand nobody declares is dealt again)."""
    while game_of(table).state["phase"] == "deal":
        assert game_timer_fire(table_id=table.pk, version=game_of(table).version)
    state = game_of(table).state
    for user in people:
        seat = Seat.objects.get(table=table, user=user).number
        action = bot_choose_action(state, seat)
        if action:
            act(table, user, action)
            return


def _play_out(table):
    """Fire the table's timers until the hand ends (bots play, people time out)."""
    while game_of(table).phase != "end":
        assert game_timer_fire(table_id=table.pk, version=game_of(table).version)
    return Hand.objects.filter(table=table).order_by("-number").first()


def match_won(table, people, settle_last=True):
    """RULES P13 reached quickly: hands are played through the services by the table's
    timers (bots play, `people` time out, one of them declares), each after the first from
    both teams at A, until one wins the match; every hand but the last is settled (and the
    last too with `settle_last`), as the settlement task would. Returns the last hand."""
    for _ in range(10):
        for user in people:
            if not Seat.objects.get(table=table, user=user).ready:
                act(table, user, {"type": "ready"})
        _declare(table, people)
        hand = _play_out(table)
        match = Match.objects.get(table=table, number=1)
        if match.ended_at is not None:
            if settle_last:
                hand_settle(hand_id=hand.pk)
            return hand
        hand_settle(hand_id=hand.pk)
        with transaction.atomic():
            game = GameState.objects.select_for_update().get(table=table)
            game.state["result"]["levels_after"] = [ACE, ACE]
            game.save(update_fields=["state"])
    raise AssertionError("no match was won")


# --- staff's second factor (django-otp), as the two-factor pages leave it ----------------------


def totp_device_of(user):
    """`user`'s confirmed authenticator app (made now if they have none)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="authenticator app",
                                               confirmed=True)


def totp_code(device, steps_ahead=0):
    """The code `device`'s app shows now (`steps_ahead` 30-second steps later: a code is
    accepted once, so a second sign-in within one step uses the next one)."""
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift + steps_ahead):0{device.digits}d}"


def operator_verified(user):
    """`user` as the request's user of a session that passed two-factor sign-in (what
    django-otp's middleware makes of it): what moderation.services needs of an operator."""
    user.otp_device = totp_device_of(user)
    return user


def client_verified(client, user):
    """Sign `client` in as `user` with a session that passed two-factor sign-in."""
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = totp_device_of(user).persistent_id
    session.save()
    return client
