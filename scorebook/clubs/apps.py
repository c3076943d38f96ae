from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "scorebook.clubs"
    label = "clubs"
