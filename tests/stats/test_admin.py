"""The statistics' admin pages show counters and ratings and change nothing."""

import pytest

from stats.models import RatedHand, Rating, RatingChange
from tests.factories import client_verified

pytestmark = pytest.mark.django_db


def test_ratings_are_read_only_in_the_admin(client, operator, make_user):
    player = make_user()
    rating = Rating.objects.create(user=player, variant="classic", mu=26.0, sigma=7.0,
                                   shown=200, hands=1)
    rated = RatedHand.objects.create(hand_id=1, variant="classic", teams=[[[player.pk, ""]]],
                                     ranks=[0])
    RatingChange.objects.create(rated_hand=rated, user=player, variant="classic",
                                mu_before=25.0, sigma_before=8.3, mu=26.0, sigma=7.0,
                                shown=200, hands=1, at=rated.rated_at)
    client_verified(client, operator)
    for model in ("rating", "ratedhand", "ratingchange"):
        page = client.get(f"/admin/stats/{model}/")
        assert page.status_code == 200, model
        assert client.get(f"/admin/stats/{model}/add/").status_code == 403
    assert str(player) in client.get("/admin/stats/rating/").content.decode()
    detail = client.get(f"/admin/stats/rating/{rating.pk}/change/").content.decode()
    assert 'name="_save"' not in detail  # a view, no form to save
    assert client.post(f"/admin/stats/rating/{rating.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Rating.objects.get(pk=rating.pk).mu == 26.0
