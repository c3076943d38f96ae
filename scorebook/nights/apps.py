from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "scorebook.nights"
    verbose_name = "Club nights"

    def ready(self):
        from scorebook.evenings import headings

        from .results import table_heading

        headings.register(table_heading)  # a table's pages name their night, table and session
