from django.apps import AppConfig


class LeagueConfig(AppConfig):
    """Everything made of many evenings: the club's page, standings, the ledger, players' pages, backups."""

    name = "scorebook.league"
    label = "league"
