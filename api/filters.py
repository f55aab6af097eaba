"""Query filters: by variant and by date (ISO 8601), validated by django-filter (bad input
is a 400 that names the field)."""

import django_filters

from accounts.models import LedgerEntry, LedgerTransaction
from games.engine.registry import VARIANTS
from games.models import HandPlayer
from lobby.models import Table

VARIANT_CHOICES = [(v, v) for v in sorted(VARIANTS)]


class TableFilter(django_filters.FilterSet):
    variant = django_filters.ChoiceFilter(choices=VARIANT_CHOICES)

    class Meta:
        model = Table
        fields = ["variant"]


class HistoryFilter(django_filters.FilterSet):
    variant = django_filters.ChoiceFilter(field_name="hand__variant", choices=VARIANT_CHOICES)
    ended_after = django_filters.IsoDateTimeFilter(field_name="hand__ended_at", lookup_expr="gte")
    ended_before = django_filters.IsoDateTimeFilter(field_name="hand__ended_at", lookup_expr="lt")

    class Meta:
        model = HandPlayer
        fields = ["variant", "ended_after", "ended_before"]


class LedgerFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(field_name="transaction__kind",
                                       choices=LedgerTransaction.Kind.choices)
    created_after = django_filters.IsoDateTimeFilter(field_name="transaction__created_at",
                                                     lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="transaction__created_at",
                                                      lookup_expr="lt")

    class Meta:
        model = LedgerEntry
        fields = ["kind", "created_after", "created_before"]
