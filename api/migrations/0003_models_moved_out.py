"""The API app keeps no models: SittingBan moved to accounts, TableClosure and the Bot proxy
to games (docs/architecture.md). The tables stay and are renamed by those apps' migrations;
here they only leave the API's state. The content types move with them, so the admin's
history (LogEntry) and the permissions operators hold keep pointing at the same rows."""

from django.db import migrations

MOVED = {"sittingban": "accounts", "tableclosure": "games", "bot": "games"}


def content_types_move(apps, schema_editor, *, forward=True):
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(
        schema_editor.connection.alias)
    for model, app in MOVED.items():
        old, new = ("api", app) if forward else (app, "api")
        if not content_types.filter(app_label=new, model=model).exists():
            content_types.filter(app_label=old, model=model).update(app_label=new)


def content_types_back(apps, schema_editor):
    content_types_move(apps, schema_editor, forward=False)


class Migration(migrations.Migration):

    dependencies = [
        ("api", "0002_bot"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Bot"),
                migrations.DeleteModel(name="SittingBan"),
                migrations.DeleteModel(name="TableClosure"),
            ],
        ),
        migrations.RunPython(content_types_move, content_types_back),
    ]
