from django.urls import path

from .views import chart, corrections, files, home, links, manage, payments, rules, scoring, settle, share

urlpatterns = [
    path("", home.home, name="home"),
    path("evenings/", scoring.evening_list, name="evening_list"),
    path("evenings/new/", scoring.evening_new, name="evening_new"),
    path("evenings/import/", files.evening_import, name="evening_import"),
    path("e/<id:pk>/", scoring.evening, name="evening"),
    path("e/<id:pk>/deals/", scoring.deal_record, name="deal_record"),
    path("e/<id:pk>/deals/<id:number>/edit/", corrections.deal_edit, name="deal_edit"),
    path("e/<id:pk>/deals/<id:number>/delete/", corrections.deal_delete, name="deal_delete"),
    path("e/<id:pk>/undo/<id:revision>/", corrections.deal_restore, name="deal_restore"),
    path("e/<id:pk>/adjust/", scoring.adjustment, name="adjustment"),
    path("e/<id:pk>/robre/", scoring.robre_start, name="robre_start"),
    path("e/<id:pk>/chart/", chart.evening_chart, name="evening_chart"),
    path("e/<id:pk>/settle/", settle.settlement, name="settlement"),
    path("e/<id:pk>/settle/paid/", settle.payment_toggle, name="payment_toggle"),
    path("e/<id:pk>/settle/pay/", settle.payment_add, name="payment_add"),
    path("e/<id:pk>/close/", settle.evening_close, name="evening_close"),
    path("e/<id:pk>/reopen/", settle.evening_reopen, name="evening_reopen"),
    path("e/<id:pk>/delete/", manage.evening_delete, name="evening_delete"),
    path("e/<id:pk>/archive/", manage.evening_archive, name="evening_archive"),
    path("e/<id:pk>/print/", settle.evening_print, name="evening_print"),
    # any payment's cancellation (an evening's, on account, a night's, the kitty's)
    path("payments/<id:payment>/cancel/", payments.payment_cancel, name="payment_cancel"),
    path("e/<id:pk>/rules/", rules.evening_rules, name="evening_rules"),
    path("e/<id:pk>/export/", files.evening_export, name="evening_export"),
    path("e/<id:pk>/share/", share.share, name="evening_share"),
    path("e/<id:pk>/share/new/", share.share_reset, name="evening_share_reset"),
    path("s/<token:token>/", share.public, name="evening_public"),
    path("s/<token:token>/live/", share.public_live, name="evening_public_live"),
    path("s/<token:token>/rules/", rules.public_rules, name="evening_public_rules"),
    path("t/<token:token>/", links.scoring_link, name="scoring_link"),
]
