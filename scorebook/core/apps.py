from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "scorebook.core"
    label = "core"

    def ready(self) -> None:
        from . import checks  # registers the site's checks

        checks.say_plain_http_at_start()
