"""Tables already empty between hands get the "abandoned" timer their next change would start
(games.timers, issue 39): due TABLE_ABANDONED_GRACE after their last change, so the beat
sweeper (game_timers_sweep) closes those whose grace has already run out."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.db.models import F


def abandoned_timers_start(apps, schema_editor):
    GameState = apps.get_model("games", "GameState")
    grace = timedelta(seconds=settings.TABLE_ABANDONED_GRACE)
    (GameState.objects
     .filter(table__closure__isnull=True, phase__in=("waiting", "end"), deadline__isnull=True)
     .exclude(table__seats__user__is_bot=False)
     .update(deadline=F("updated_at") + grace, timer_kind="abandoned"))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_gamestate_rev"),
        ("lobby", "0003_table_cap"),
        ("accounts", "0008_user_card_counter"),
    ]

    operations = [migrations.RunPython(abandoned_timers_start, migrations.RunPython.noop)]
