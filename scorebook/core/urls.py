from django.urls import path

from . import help_pages, offline

urlpatterns = [
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline, name="offline"),
    path("help/", help_pages.index, name="help"),
    path("help/<str:section>/<str:name>/", help_pages.page, name="help_page"),
]
