import pytest


@pytest.fixture
def player(client, make_user):
    """A new account, signed in on `client`."""
    user = make_user()
    client.force_login(user)
    return user
