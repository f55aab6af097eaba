"""The operators' admin: sitting bans, and the apps' own admin pages with the operators'
actions added. The apps below (accounts, lobby, games) register their pages knowing nothing
of moderation; here each is registered again as a subclass that mixes the actions in."""

from django import forms
from django.contrib import admin, messages
from django.utils import timezone

from accounts import admin as accounts_admin
from accounts.models import LedgerTransaction, SittingBan, User
from accounts.services import sitting_ban_lift
from games import admin as games_admin
from games.models import ChatMessage, Hand
from lobby import admin as lobby_admin
from lobby.models import Table
from moderation.admin_actions import (
    ChatOperatorActions,
    HandOperatorActions,
    LedgerOperatorActions,
    TableOperatorActions,
    UserOperatorActions,
)
from moderation.services import sitting_ban_create


class SittingBanForm(forms.ModelForm):
    class Meta:
        model = SittingBan
        fields = ("user", "reason", "ends_at")

    def clean_ends_at(self):
        ends_at = self.cleaned_data["ends_at"]
        if ends_at <= timezone.now():
            raise forms.ValidationError("the ban must end in the future")
        return ends_at


@admin.register(SittingBan)
class SittingBanAdmin(admin.ModelAdmin):
    """Bans are made through moderation.services and lifted through accounts.services; a ban
    is never edited or deleted, so the list stays the record of what operators did."""

    form = SittingBanForm
    list_display = ("user", "reason", "starts_at", "ends_at", "lifted_at", "created_by")
    list_filter = ("lifted_at",)
    search_fields = ("user__username", "user__display_name", "reason")
    autocomplete_fields = ("user",)
    actions = ["lift"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        ban = sitting_ban_create(user=obj.user, reason=obj.reason, ends_at=obj.ends_at,
                                 operator=request.user)
        # The admin logs the addition against `obj`, so it becomes the saved row.
        obj.pk, obj.starts_at, obj.created_by = ban.pk, ban.starts_at, ban.created_by

    @admin.action(description="Lift the ban now", permissions=["view"])
    def lift(self, request, queryset):
        for ban in queryset:
            sitting_ban_lift(ban=ban)
            self.log_change(request, ban, "sitting ban lifted")
        self.message_user(request, f"{queryset.count()} ban(s) lifted", messages.SUCCESS)


for model in (Table, Hand, LedgerTransaction, User, ChatMessage):
    admin.site.unregister(model)


@admin.register(Table)
class TableAdmin(TableOperatorActions, lobby_admin.TableAdmin):
    pass


@admin.register(Hand)
class HandAdmin(HandOperatorActions, games_admin.HandAdmin):
    pass


@admin.register(ChatMessage)
class ChatMessageAdmin(ChatOperatorActions, games_admin.ChatMessageAdmin):
    pass


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(LedgerOperatorActions, accounts_admin.LedgerTransactionAdmin):
    pass


@admin.register(User)
class UserAdmin(UserOperatorActions, accounts_admin.UserAdmin):
    list_display = (accounts_admin.UserAdmin.list_display
                    + UserOperatorActions.operator_list_display)
    list_filter = accounts_admin.UserAdmin.list_filter + UserOperatorActions.operator_list_filter
