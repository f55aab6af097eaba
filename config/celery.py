import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("tractor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _connections_tidy(**kwargs):
    # Django's own policy for a connection between two units of work, as between two
    # requests: closed once older than CONN_MAX_AGE or broken, else kept. Celery's Django
    # fixup would close it before and after every task instead (CELERY_DB_REUSE_MAX unset):
    # a new PostgreSQL connection, a backend process forked, for every timer and settlement.
    from django.db import close_old_connections

    close_old_connections()


task_prerun.connect(_connections_tidy, weak=False)
task_postrun.connect(_connections_tidy, weak=False)
