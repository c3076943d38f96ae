from django.contrib import admin

from .models import Deal, DealRevision, Evening, Payment, Player, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ("number", "data", "recorded_by", "recorded_at")
    readonly_fields = ("recorded_at",)


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("id", "date", "ruleset", "status", "owner", "version")
    list_filter = ("ruleset", "status")
    inlines = [SeatInline, DealInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("evening", "number", "recorded_by", "recorded_at")


@admin.register(DealRevision)
class DealRevisionAdmin(admin.ModelAdmin):
    list_display = ("evening", "number", "action", "by", "at")


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = ("evening", "payer", "payee", "amount", "marked_at")
