"""Query filters: by variant and by date (ISO 8601), validated by django-filter (bad input
is a 400 that names the field)."""

from datetime import timezone as dt_timezone

import django_filters
from django import forms
from django_filters.fields import IsoDateTimeField

from accounts.models import LedgerEntry, LedgerTransaction
from games.models import HandPlayer
from games.variants import variant_ids
from lobby.models import Table
from moderation.models import OperatorAction


def variant_choices():
    """Read per request, so a rule set registered after start-up is accepted (the schema's
    enum is filled in when the schema is built: api.schema.variant_enums)."""
    return [(v, v) for v in sorted(variant_ids())]


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 date-time turned into UTC before it reaches the database: PostgreSQL
    refuses offsets beyond ±15:59 that ISO 8601 allows (found by the schemathesis run)."""

    def to_python(self, value):
        parsed = super().to_python(value)
        try:
            return parsed.astimezone(dt_timezone.utc) if parsed and parsed.tzinfo else parsed
        except OverflowError:
            raise forms.ValidationError("date-time out of range") from None


class UtcIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcIsoDateTimeField


class TableFilter(django_filters.FilterSet):
    variant = django_filters.ChoiceFilter(choices=variant_choices)

    class Meta:
        model = Table
        fields = ["variant"]


class HistoryFilter(django_filters.FilterSet):
    variant = django_filters.ChoiceFilter(field_name="hand__variant", choices=variant_choices)
    ended_after = UtcIsoDateTimeFilter(field_name="hand__ended_at", lookup_expr="gte")
    ended_before = UtcIsoDateTimeFilter(field_name="hand__ended_at", lookup_expr="lt")

    class Meta:
        model = HandPlayer
        fields = ["variant", "ended_after", "ended_before"]


class LedgerFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(field_name="transaction__kind",
                                       choices=LedgerTransaction.Kind.choices)
    created_after = UtcIsoDateTimeFilter(field_name="transaction__created_at",
                                                     lookup_expr="gte")
    created_before = UtcIsoDateTimeFilter(field_name="transaction__created_at",
                                                      lookup_expr="lt")

    class Meta:
        model = LedgerEntry
        fields = ["kind", "created_after", "created_before"]


class OperatorActionFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=OperatorAction.Kind.choices)
    operator = django_filters.NumberFilter(field_name="operator_id")
    created_after = UtcIsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = UtcIsoDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = OperatorAction
        fields = ["kind", "operator", "created_after", "created_before"]
