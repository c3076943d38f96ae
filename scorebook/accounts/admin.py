from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    extra = 1
    max_num = 1


User = get_user_model()
if admin.site.is_registered(User):
    user_admin_class = type(admin.site.get_model_admin(User))
    admin.site.unregister(User)
else:
    user_admin_class = UserAdmin


if TYPE_CHECKING:  # whichever admin another app registered for the user model: typed as Django's
    BaseUserAdmin = UserAdmin
else:
    BaseUserAdmin = user_admin_class


@admin.register(User)
class ScorebookUserAdmin(BaseUserAdmin):
    inlines = (*user_admin_class.inlines, ProfileInline)
