from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import LedgerEntry, LedgerTransaction, PointAccount, User

# The operators' actions (bans, reversals, the escapes column) are added by moderation.admin.


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Players and staff. `is_bot` is shown, never set here: bots are made by the platform
    (games.services), and a human account ticked "bot" would join the bot pool."""

    list_display = ("username", "display_name", "balance", "date_joined", "last_login",
                    "preferred_language", "is_bot", "is_staff")
    list_filter = DjangoUserAdmin.list_filter + ("is_bot", "preferred_language")
    list_select_related = ("point_account",)
    search_fields = ("username", "display_name", "email")
    readonly_fields = ("is_bot", "last_login", "date_joined")
    fieldsets = DjangoUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "preferred_language", "is_bot")}),
    )
    add_fieldsets = DjangoUserAdmin.add_fieldsets + (
        (_("Player"), {"fields": ("display_name", "preferred_language")}),
    )

    @admin.display(description=_("balance"), ordering="point_account__balance")
    def balance(self, user):
        account = getattr(user, "point_account", None)
        return account.balance if account else None


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
    list_display = ("id", "key", "kind", "reference", "memo", "reversed", "created_at")
    list_filter = ("kind", "created_at")
    date_hierarchy = "created_at"
    search_fields = ("key", "reference", "memo")
    list_select_related = ("reversed_by",)
    inlines = [LedgerEntryInline]

    @admin.display(description=_("reversed by"))
    def reversed(self, txn):
        reversal = getattr(txn, "reversed_by", None)
        return reversal.key if reversal else "–"


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "transaction", "kind", "account", "amount", "created_at")
    list_select_related = ("transaction", "account__user")
    list_filter = ("transaction__kind", "transaction__created_at")
    date_hierarchy = "transaction__created_at"
    search_fields = ("transaction__key", "transaction__reference", "account__user__username",
                     "account__code")

    @admin.display(description=_("kind"), ordering="transaction__kind")
    def kind(self, entry):
        return entry.transaction.get_kind_display()

    @admin.display(description=_("when"), ordering="transaction__created_at")
    def created_at(self, entry):
        return entry.transaction.created_at
