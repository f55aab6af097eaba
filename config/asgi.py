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
