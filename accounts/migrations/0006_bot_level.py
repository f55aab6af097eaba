from django.db import migrations, models


def bots_played_easy(apps, schema_editor):
    """Every bot so far played the hand-written policy: its results are the easy level's."""
    apps.get_model("accounts", "User").objects.filter(is_bot=True).update(bot_level="easy")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_ledger_bot_backing"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="bot_level",
            field=models.CharField(blank=True, choices=[("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")],
                                   default="", max_length=8, verbose_name="bot level"),
        ),
        migrations.RunPython(bots_played_easy, migrations.RunPython.noop),
    ]
