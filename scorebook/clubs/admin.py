from django.contrib import admin

from .models import Club, Invitation, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)
    readonly_fields = ("joined_at",)


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ("role", "created_by", "created_at", "expires_at", "max_uses", "uses", "revoked_at")
    readonly_fields = ("created_by", "created_at", "uses")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline, InvitationInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("club__name", "user__username")
    raw_id_fields = ("user",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("club", "role", "created_by", "created_at", "expires_at", "uses", "max_uses", "revoked_at")
    list_filter = ("role",)
    raw_id_fields = ("created_by",)
    exclude = ("token_hash",)  # only the link's digest is stored; the link itself was shown once


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "created_at")
    search_fields = ("name",)
