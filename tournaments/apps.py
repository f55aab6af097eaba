from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        # games may not import tournaments: it says when a hand is settled, and a board
        # table's result is recorded then (tournaments.services.board_result_record).
        from games.signals import hand_settled
        from tournaments.receivers import board_hand_settled

        hand_settled.connect(board_hand_settled, dispatch_uid="tournaments.board_hand_settled")
