from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "scorebook.nights"
    verbose_name = "Club nights"
