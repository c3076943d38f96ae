from django.urls import path

from .views import (
    club,
    club_evenings,
    downloads,
    kitty,
    ledger,
    player,
    prizes,
    roster,
    season_edit,
    seasons,
    settle_up,
)

urlpatterns = [
    path("c/<slug:slug>/", club.club, name="club"),
    path("c/<slug:slug>/evenings/", club_evenings.club_evenings, name="club_evenings"),
    # the roster
    path("c/<slug:slug>/players/", roster.player_list, name="club_players"),
    path("c/<slug:slug>/players/paste/", roster.player_paste, name="club_players_paste"),
    path("c/<slug:slug>/players/<id:player>/", player.player_page, name="club_player"),
    path("c/<slug:slug>/players/<id:player>/link/", roster.player_link, name="club_player_link"),
    path("c/<slug:slug>/players/<id:player>/merge/", roster.player_merge, name="club_player_merge"),
    path("c/<slug:slug>/players/<id:player>/rename/", roster.player_rename, name="club_player_rename"),
    path("c/<slug:slug>/players/<id:player>/unclaim/", roster.player_claim_withdraw, name="club_player_unclaim"),
    path("c/<slug:slug>/claims/<id:claim>/", roster.claim_answer, name="club_claim_answer"),
    # seasons and standings
    path("c/<slug:slug>/seasons/new/", season_edit.season_new, name="season_new"),
    path("c/<slug:slug>/seasons/<id:pk>/", seasons.season, name="season"),
    path("c/<slug:slug>/seasons/<id:pk>/edit/", season_edit.season_edit, name="season_edit"),
    path("c/<slug:slug>/seasons/<id:pk>/delete/", season_edit.season_delete, name="season_delete"),
    path("c/<slug:slug>/seasons/<id:pk>/archive/", season_edit.season_archive, name="season_archive"),
    path("c/<slug:slug>/seasons/<id:pk>/standings.csv", seasons.season_csv, name="season_csv"),
    path("c/<slug:slug>/seasons/<id:pk>/print/", seasons.season_print, name="season_print"),
    # money left unpaid
    path("c/<slug:slug>/ledger/", ledger.ledger, name="club_ledger"),
    path("c/<slug:slug>/ledger/paid/", ledger.ledger_paid, name="club_ledger_paid"),
    path("c/<slug:slug>/ledger/pay/", ledger.ledger_pay, name="club_ledger_pay"),
    path("c/<slug:slug>/ledger/night-paid/", ledger.ledger_night_paid, name="club_ledger_night_paid"),
    path("c/<slug:slug>/ledger/history/", ledger.ledger_history, name="club_ledger_history"),
    path("c/<slug:slug>/settle-up/", settle_up.settle_up, name="club_settle_up"),
    path("c/<slug:slug>/settle-up/paid/", settle_up.settle_up_paid, name="club_settle_up_paid"),
    # the club's kitty
    path("c/<slug:slug>/kitty/", kitty.kitty, name="club_kitty"),
    path("c/<slug:slug>/kitty/fees/", kitty.kitty_fees, name="club_kitty_fees"),
    path("c/<slug:slug>/kitty/expense/", kitty.kitty_expense, name="club_kitty_expense"),
    path("c/<slug:slug>/kitty/payment/", kitty.kitty_payment, name="club_kitty_payment"),
    path("c/<slug:slug>/kitty/<str:what>/<id:pk>/withdraw/", kitty.kitty_withdraw, name="club_kitty_withdraw"),
    path("c/<slug:slug>/seasons/<id:pk>/prizes/", prizes.season_prizes, name="season_prizes"),
    # downloads: the ledger and the roster for a spreadsheet, the club's backup (admins)
    path("c/<slug:slug>/ledger.csv", downloads.ledger_csv, name="club_ledger_csv"),
    path("c/<slug:slug>/players.csv", downloads.roster_csv, name="club_players_csv"),
    path("c/<slug:slug>/backup/", downloads.club_backup, name="club_backup"),
]
