from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "scorebook.nights"
    verbose_name = "Club nights"

    def ready(self) -> None:
        from django.db.models import Q

        from scorebook.evenings import headings, listing

        from .results import evening_lines, table_heading

        headings.register(table_heading)  # a table's pages name their night, table and session
        # a list of evenings shows a night as one line, stood for by its first table
        listing.register(
            listing.Grouping(
                lead=Q(managed=True, night_table__session__number=1, night_table__number=1), lines=evening_lines
            )
        )
