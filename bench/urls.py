"""The site's URLs plus the benchmark's two reference views (``override_settings(ROOT_URLCONF="bench.urls")``)."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("bench/insert/<int:pk>/", views.insert_one, name="bench_insert"),
    path("bench/rows/<int:pk>/", views.list_rows, name="bench_rows"),
    path("", include("scorebook.urls")),
]
