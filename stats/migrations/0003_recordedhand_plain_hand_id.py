"""RecordedHand keys on the hand's id without a foreign key to games (statistics sit below
games, docs/architecture.md). The column stays `hand_id` with its values; only the
foreign-key constraint goes."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("stats", "0002_leaderboard_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterField(
                    model_name="recordedhand",
                    name="hand",
                    field=models.BigIntegerField(primary_key=True, serialize=False,
                                                 db_column="hand_id"),
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="recordedhand",
                    name="hand",
                    field=models.BigIntegerField(primary_key=True, serialize=False,
                                                 db_column="hand_id"),
                ),
                migrations.RenameField(model_name="recordedhand", old_name="hand",
                                       new_name="hand_id"),
                migrations.AlterField(
                    model_name="recordedhand",
                    name="hand_id",
                    field=models.BigIntegerField(primary_key=True, serialize=False),
                ),
            ],
        ),
    ]
