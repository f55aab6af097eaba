"""The admin app, with moderation's site as the default one (`admin.site`): every app's
admin pages register on it knowing nothing of two-factor sign-in. A module of its own, since
it is loaded with the app registry, before the site's module can import any model."""

from django.contrib.admin.apps import AdminConfig


class OperatorAdminConfig(AdminConfig):
    default_site = "moderation.admin_site.OperatorAdminSite"
