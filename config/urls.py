from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from config.health import healthz

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("", include("ui.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # Issue 7: the REST API, the replay page and the API token page.
    path("api/v1/", include("api.urls")),
    path("", include("api.page_urls")),
    # The plain protocol client of issue 5 (lobby and table); the full UI (ui/) owns
    # /lobby/ and /tables/<id>/.
    path("plain/lobby/", include("lobby.urls")),
    path("plain/tables/", include("games.urls")),
]
