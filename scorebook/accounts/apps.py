from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "scorebook.accounts"
    label = "accounts"
