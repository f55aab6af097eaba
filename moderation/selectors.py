"""Reads of the operators' log (the admin lists it; the API exports it to staff)."""

from django.db.models import QuerySet

from moderation.models import OperatorAction


def operator_actions() -> QuerySet[OperatorAction]:
    """Every operator action, newest first, with its operator."""
    return OperatorAction.objects.select_related("operator").order_by("-created_at", "-pk")
