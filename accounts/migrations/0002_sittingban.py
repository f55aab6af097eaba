"""SittingBan moves here from the API app with its rows: the state takes over the table
api_sittingban as it is, then the table is renamed to accounts_sittingban."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
        ("api", "0003_models_moved_out"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SittingBan",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("reason", models.CharField(max_length=200)),
                        ("starts_at", models.DateTimeField()),
                        ("ends_at", models.DateTimeField()),
                        ("lifted_at", models.DateTimeField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("created_by", models.ForeignKey(
                            null=True, on_delete=django.db.models.deletion.PROTECT,
                            related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("user", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="sitting_bans", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "api_sittingban",
                        "indexes": [models.Index(fields=["user", "-ends_at"],
                                                 name="sitting_ban_user")],
                        "constraints": [models.CheckConstraint(
                            condition=models.Q(("ends_at__gt", models.F("starts_at"))),
                            name="sitting_ban_ends_after_start")],
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="sittingban", table=None),
    ]
