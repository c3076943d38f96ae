from django.contrib import admin
from django.urls import include, path, register_converter

from scorebook.core.converters import IdConverter, TokenConverter

register_converter(IdConverter, "id")  # every id and number in an address (before the apps' patterns use it)
register_converter(TokenConverter, "token")  # every link's secret in an address

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("scorebook.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorebook.clubs.urls")),
    path("", include("scorebook.evenings.urls")),
    path("", include("scorebook.nights.urls")),
    path("", include("scorebook.league.urls")),
    path("", include("scorebook.core.urls")),
]

handler403 = "scorebook.core.views.forbidden"
handler404 = "scorebook.core.views.not_found"
