from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import LedgerEntry, LedgerTransaction, PointAccount, User

# The operators' actions (bans, reversals, the escapes column) are added by moderation.admin.


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "display_name", "preferred_language", "is_bot", "is_staff")
    list_filter = DjangoUserAdmin.list_filter + ("is_bot", "preferred_language")
    search_fields = ("username", "display_name", "email")
    fieldsets = DjangoUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "preferred_language", "is_bot")}),
    )
    add_fieldsets = DjangoUserAdmin.add_fieldsets + (
        (_("Player"), {"fields": ("display_name", "preferred_language", "is_bot")}),
    )


class ReadOnlyAdmin(admin.ModelAdmin):
    """For rows that change only through services (the ledger through accounts.services,
    game rows through games.services under the table's lock): operators look, and act
    only through explicit admin actions that call those services."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PointAccount)
class PointAccountAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "code", "balance", "floor", "created_at")
    search_fields = ("user__username", "user__display_name", "code")


class LedgerEntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ("account", "amount")
    readonly_fields = fields
    can_delete = False
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "key", "kind", "reference", "memo", "created_at")
    list_filter = ("kind",)
    search_fields = ("key", "reference")
    inlines = [LedgerEntryInline]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "transaction", "account", "amount")
    list_select_related = ("transaction", "account__user")
    search_fields = ("transaction__key", "account__user__username", "account__code")
