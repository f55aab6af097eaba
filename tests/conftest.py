import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from accounts.services import user_create


@pytest.fixture
def make_user(db):
    """Create a user through the service, as registration does (so with a point account)."""
    counter = iter(range(1, 10_000))

    def make(username=None, password="a-Strong-pass-42", display_name=None, **extra):
        n = next(counter)
        username = username or f"player{n}"
        return user_create(
            username=username,
            password=password,
            display_name=display_name or f"Player {n}",
            **extra,
        )

    return make


@pytest.fixture(autouse=True)
def _close_async_db_connections(request):
    """Async ORM calls run in asgiref's single worker thread and leave its connection open;
    close it after each async test, or the PostgreSQL test database cannot be dropped."""
    yield
    if asyncio.iscoroutinefunction(getattr(request.node, "function", None)):
        asyncio.run(sync_to_async(connections.close_all)())
