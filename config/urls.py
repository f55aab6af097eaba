from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from config.health import healthz

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # The plain protocol client of issue 5 (lobby and table); the full UI (ui/) owns
    # /lobby/ and /tables/<id>/.
    path("plain/lobby/", include("lobby.urls")),
    path("plain/tables/", include("games.urls")),
]
