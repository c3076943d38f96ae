"""The admin shows evenings and their deals but never changes a deal: corrections go through
the site, which checks them with the engine, keeps their history and the evening's summary. It
shows payments and their cancellations read-only: a payment is recorded and cancelled on the site
(a cancellation is a record of its own, with a reason), never changed or deleted."""

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import Deal, DealRevision, Evening, Payment, PaymentCancellation, Seat


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat


class DealInline(ReadOnlyInline):
    model = Deal
    fields = ("number", "data", "recorded_by", "recorded_at")
    readonly_fields = fields


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
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
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ("evening", "club", "payer", "payee", "amount", "currency", "kind", "marked_at")


@admin.register(PaymentCancellation)
class PaymentCancellationAdmin(ReadOnlyAdmin):
    list_display = ("payment", "by", "at", "reason")
