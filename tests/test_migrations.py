"""A database made before the apps were redrawn (issue 10) migrates forward losing nothing:
the sitting bans (now accounts'), the table closures (now games'), the statistics' record of
counted hands (now keyed by a plain hand id), and the admin history and permissions that
point at the moved models' content types."""

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import SittingBan

# The last migrations of the apps as they were before the moves.
BEFORE = [("api", "0002_bot"), ("accounts", "0001_initial"), ("games", "0001_initial"),
          ("lobby", "0001_initial"),
          ("stats", "0002_leaderboard_indexes")]


def migrate(targets):
    """Migrate the test database to `targets`; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_an_existing_database_keeps_bans_closures_counted_hands_and_admin_history():
    try:
        _check_the_moves()
    finally:
        migrate(latest())  # the next tests need today's schema whatever happened here


def _check_the_moves():
    old = migrate(BEFORE)
    user = old.get_model("accounts", "User").objects.create(username="old-timer",
                                                            display_name="Old")
    room = old.get_model("lobby", "Room").objects.create(name="Old room")
    table = old.get_model("lobby", "Table").objects.create(room=room, variant="classic")
    hand = old.get_model("games", "Hand").objects.create(table=table, number=1,
                                                         variant="classic", base_stake=1, seed="s")
    now = timezone.now()
    ban = old.get_model("api", "SittingBan").objects.create(
        user=user, reason="escapes", starts_at=now, ends_at=now + timedelta(days=1),
        created_by=user)
    old.get_model("api", "TableClosure").objects.create(table=table, reason="stuck",
                                                        closed_by=user, voided_hand=hand)
    old.get_model("stats", "RecordedHand").objects.create(hand=hand)
    # Django's own tables did not change: their models are today's.
    ContentType.objects.clear_cache()
    ban_type, _ = ContentType.objects.get_or_create(app_label="api", model="sittingban")
    permission, _ = Permission.objects.get_or_create(
        content_type=ban_type, codename="add_sittingban", defaults={"name": "Can add ban"})
    Group.objects.create(name="operators").permissions.add(permission)
    LogEntry.objects.create(user_id=user.pk, content_type=ban_type, object_id=str(ban.pk),
                            object_repr="ban", action_flag=1, change_message="added")

    new = migrate(latest())
    moved = new.get_model("accounts", "SittingBan").objects.get()
    assert (moved.pk, moved.user_id, moved.reason, moved.created_by_id) == \
        (ban.pk, user.pk, "escapes", user.pk)
    closure = new.get_model("games", "TableClosure").objects.get()
    assert (closure.table_id, closure.reason, closure.voided_hand_id) == (table.pk, "stuck", hand.pk)
    assert list(new.get_model("stats", "RecordedHand").objects.values_list("hand_id", flat=True)) \
        == [hand.pk]
    tables = set(connection.introspection.table_names())
    assert {"accounts_sittingban", "games_tableclosure"} <= tables
    assert not {"api_sittingban", "api_tableclosure"} & tables
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "stats_recordedhand")
    assert not [c for c in constraints.values() if c["foreign_key"]]
    # The admin's history and the operators' permissions follow the model to its new app.
    ContentType.objects.clear_cache()
    entry = LogEntry.objects.get()
    assert entry.get_edited_object() == SittingBan.objects.get(pk=moved.pk)
    granted = Group.objects.get(name="operators").permissions.get()
    assert (granted.content_type.app_label, granted.codename) == ("accounts", "add_sittingban")

