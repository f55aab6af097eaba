from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.services import point_account_open


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def open_point_account(sender, instance, created, raw, **kwargs):
    # A receiver rather than a call in user_create, so users made by createsuperuser,
    # the admin or a fixture-free test get their account too; fixtures (raw) bring their own.
    if created and not raw:
        point_account_open(user=instance, grant=instance.opening_grant)
