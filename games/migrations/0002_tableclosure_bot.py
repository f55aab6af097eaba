"""TableClosure and the Bot proxy move here from the API app with their rows: the state
takes over the table api_tableclosure as it is, then the table is renamed to
games_tableclosure (the proxy has no table)."""

import django.contrib.auth.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
        ("lobby", "0001_initial"),
        ("api", "0003_models_moved_out"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TableClosure",
                    fields=[
                        ("table", models.OneToOneField(
                            on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                            related_name="closure", serialize=False, to="lobby.table")),
                        ("reason", models.CharField(max_length=200)),
                        ("closed_at", models.DateTimeField(auto_now_add=True)),
                        ("closed_by", models.ForeignKey(
                            null=True, on_delete=django.db.models.deletion.PROTECT,
                            related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("voided_hand", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                            related_name="+", to="games.hand")),
                    ],
                    options={"db_table": "api_tableclosure"},
                ),
            ],
        ),
        migrations.AlterModelTable(name="tableclosure", table=None),
        migrations.CreateModel(
            name="Bot",
            fields=[],
            options={"proxy": True, "indexes": [], "constraints": []},
            bases=("accounts.user",),
            managers=[("objects", django.contrib.auth.models.UserManager())],
        ),
    ]
