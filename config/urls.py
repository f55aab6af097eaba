from django.contrib import admin
from django.urls import include, path

from config.health import healthz

urlpatterns = [
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/v1/", include("api.urls")),
    # Every page: home, lobby, tables, replays, the profile and the API token page.
    path("", include("ui.urls")),
]
