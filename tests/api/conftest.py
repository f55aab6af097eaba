import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

GENEROUS = {f"{who}_{scope}": "100000/min" for who in ("anon", "user")
            for scope in ("read", "stats", "leaderboard", "replay", "ledger")}


@pytest.fixture(autouse=True)
def _api_settings(settings):
    """Limits out of the way (the throttle tests lower them) and a clean throttle cache."""
    settings.API_THROTTLE_RATES = dict(GENEROUS)
    settings.GAMES_BOT_DELAY = (0.0, 0.0)
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return APIClient()
