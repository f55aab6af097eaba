import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from celery.worker.consumer import Consumer

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


class BrokerLossConsumer(Consumer):
    """The worker's consumer, kept alive when Redis goes away (a restart, a failover).

    Celery 5.7 with kombu 5.7's Redis transport: once the broker connection breaks, the
    consumer collects the dead connection (its channel's close reads the pending BRPOP, which
    fails while Redis is down, so the channel stays open) and then closes it, by which time
    the transport has forgotten its client: closing the channel raises AttributeError (no
    `hostname` on None) and the worker exits with "Unrecoverable error" instead of
    reconnecting (tests/games/test_restart_drill.py found it). The consumer has let go of the
    connection before that close, so here the error only ends a clean-up that cannot be
    done: the messages it would give back were in the Redis that went away (a Redis that
    keeps its data gives them back itself, after the visibility timeout)."""

    def on_connection_error_after_connected(self, exc):
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            if self.connection is not None:
                raise
