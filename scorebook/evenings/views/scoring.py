from django.http import Http404


def _missing(*args, **kwargs):
    raise Http404


evening_list = evening_new = evening = deal_record = deal_edit = deal_delete = deal_restore = adjustment = robre_start = _missing
