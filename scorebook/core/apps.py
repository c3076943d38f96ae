from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "scorebook.core"
    label = "core"
