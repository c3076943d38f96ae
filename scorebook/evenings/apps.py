from django.apps import AppConfig


class EveningsConfig(AppConfig):
    name = "scorebook.evenings"
    label = "evenings"
