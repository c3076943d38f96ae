from django.urls import path

from .views import director, ranking

urlpatterns = [
    path("c/<slug:slug>/nights/", director.night_list, name="night_list"),
    path("c/<slug:slug>/nights/new/", director.night_new, name="night_new"),
    path("nights/<id:pk>/", director.night, name="night"),
    path("nights/<id:pk>/edit/", director.night_edit, name="night_edit"),
    path("nights/<id:pk>/delete/", director.night_delete, name="night_delete"),
    path("nights/<id:pk>/progress/", director.night_progress, name="night_progress"),
    path("nights/<id:pk>/plan/", director.night_plan, name="night_plan"),
    path("nights/<id:pk>/cards/", director.night_cards, name="night_cards"),
    path("nights/<id:pk>/substitute/", director.night_substitute, name="night_substitute"),
    path("nights/<id:pk>/late/", director.night_late, name="night_late"),
    path("nights/<id:pk>/sessions/<id:number>/close/", director.session_close, name="night_session_close"),
    path("nights/<id:pk>/sessions/<id:number>/reopen/", director.session_reopen, name="night_session_reopen"),
    path("nights/<id:pk>/tables/<id:table>/link/", director.table_link, name="night_table_link"),
    path("nights/<id:pk>/tables/<id:table>/revoke/", director.table_revoke, name="night_table_revoke"),
    path("nights/<id:pk>/ranking-link/", director.ranking_link, name="night_ranking_link"),
    # the ranking: from the club's pages (its members) and by its link (whoever holds it); the same
    # pages below both, linked to each other by relative addresses (views.ranking)
    path("nights/<id:pk>/ranking/", ranking.ranking_page, name="night_results"),
    path("nights/<id:pk>/ranking/live/", ranking.ranking_live, name="night_results_live"),
    path("nights/<id:pk>/ranking/ranking.csv", ranking.ranking_csv, name="night_results_csv"),
    path("nights/<id:pk>/ranking/players/<id:number>/", ranking.night_line, name="night_results_line"),
    path("nights/<id:pk>/ranking/sessions/<id:number>/", ranking.session_results, name="night_results_session"),
    path("r/<token:token>/", ranking.ranking_page, name="night_ranking"),
    path("r/<token:token>/live/", ranking.ranking_live, name="night_ranking_live"),
    path("r/<token:token>/ranking.csv", ranking.ranking_csv, name="night_ranking_csv"),
    path("r/<token:token>/players/<id:number>/", ranking.night_line, name="night_line"),
    path("r/<token:token>/sessions/<id:number>/", ranking.session_results, name="night_session_results"),
]
