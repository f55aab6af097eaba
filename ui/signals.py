"""The daily relief (救济金) is offered when a player signs in, as when they open the lobby
(ui.views.relief_offer): accounts, which signs them in, does not know the tables."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import translation

from ui.views import relief_offer


@receiver(user_logged_in)
def relief_on_sign_in(sender, request, user, **kwargs):
    if request is not None:
        # The sign-in switches to the player's language only once it answers.
        with translation.override(user.preferred_language):
            relief_offer(request, user)
