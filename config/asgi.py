import gc
import os
from http import HTTPStatus

from django.core.asgi import get_asgi_application


def reason_phrases_complete():
    """daphne answers through Twisted, whose table of reason phrases stops at the statuses
    of RFC 2616: a 429 went out as "429 Unknown Status". Fill in every status Python knows
    (RFC 6585's 428, 429, 431 and the rest) where Twisted has none."""
    try:
        from twisted.web import http
    except ImportError:  # not under daphne
        return
    for status in HTTPStatus:
        http.RESPONSES.setdefault(status.value, status.phrase.encode("ascii"))


reason_phrases_complete()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# Django must be set up before anything imports models (consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Everything loaded so far lives as long as the process: move it out of the collector's way,
# so a full collection under load walks only what requests made (one over the start-up heap
# with thousands of sockets open was measured pausing daphne for about 600 ms).
gc.collect()
gc.freeze()
# And collect the young generation after 10,000 net allocations instead of 700: under load
# most of what an action makes dies young but not at once (a socket's dispatch tasks,
# futures, cancelled waits of the channel layer), and at 700 it survived into the older
# generations, so daphne ran a full collection every ~6 s (80-570 ms each, 13 in 80 s at 200
# tables at human pace, ~5 s of pauses in all). At 10,000: 1 full and 5 middle collections in
# 63 s, ~1 s of pauses in all (bench/load_tables.py --pace 2, 200 tables).
gc.set_threshold(10_000, 10, 10)
