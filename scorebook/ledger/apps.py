from django.apps import AppConfig


class LedgerConfig(AppConfig):
    """The club's money: balances, open transfers, payments, settle-up and the kitty."""

    name = "scorebook.ledger"
    label = "ledger"
