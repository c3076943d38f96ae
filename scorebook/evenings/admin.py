"""The admin shows evenings and their deals but never changes a deal: corrections go through
the site, which checks them with the engine, keeps their history and the evening's summary."""

from django.contrib import admin
from django.db import transaction

from . import payments
from .models import Deal, DealRevision, Evening, Payment, Seat


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat


class DealInline(ReadOnlyInline):
    model = Deal
    fields = ("number", "data", "recorded_by", "recorded_at")
    readonly_fields = fields


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("id", "date", "ruleset", "status", "owner", "version")
    list_filter = ("ruleset", "status")
    readonly_fields = ("ruleset", "rules", "summary", "version", "first_dealer")
    inlines = [SeatInline, DealInline]


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ("evening", "number", "recorded_by", "recorded_at")


@admin.register(DealRevision)
class DealRevisionAdmin(ReadOnlyAdmin):
    list_display = ("evening", "number", "action", "by", "at")


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    """Payments changed here keep their evening's seats (what is still open for each) as the
    site's own payments do. A payment is never deleted: it is cancelled on the site (a record)."""

    list_display = ("evening", "club", "payer", "payee", "amount", "kind", "marked_at")

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if obj.evening_id is not None:
                payments.keep_seat_figures(obj.evening)
