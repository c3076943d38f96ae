from django.urls import path

from . import offline, views

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline, name="offline"),
]
