from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class UiConfig(AppConfig):
    name = "ui"
    verbose_name = _("Browser pages")

    def ready(self):
        from ui import signals  # noqa: F401  (connects the sign-in receiver)
