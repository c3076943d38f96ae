"""Nothing a club did is lost in a backup (issue 29): the rich club (``rich_club``) backed up through
the site (its admin's download), the database emptied, the file restored with ``import_club`` as the
operating guide says, its members back in through their links to choose a password (the way the
guides give), and then every page of the club, read as its admin, a scorer and a member by following every
link from the club's pages, is what it was before: the text of each page, and each CSV and evening
file, line by line (ids and the time of printing aside). A difference names the page and the line.

The comparison runs on SQLite and PostgreSQL alike (``DATABASE_URL``).
"""

from __future__ import annotations

import difflib
import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from pages import Page
from rich_club import build
from scorebook.accounts import password_links
from scorebook.clubs.models import Club

# a database emptied for real (flush), as a new instance's: outside a test's transaction
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.both_databases]

ROLES = ("admin", "scorer", "member")
# the pages of the club: its own, its evenings', its nights', the lists that hold them
WITHIN = ("/c/", "/e/", "/nights/", "/evenings/", "/clubs/")
SKIPPED = (
    "/backup/",  # the backup itself holds the roster's ids: test_it_restores_its_own_backup_as_it_was reads it
    "/merge/?with=",  # the merge of every two players (its preview): the merge page itself is read
)
# pages whose text is the same for every role that reads them: the admin's crawl reads them, the others' skip them
SAME_FOR_ALL = re.compile(r"^/e/\d+/(deals/\d+/edit|print|chart|export|rules)/|\.csv(\?|$)")
BLOCKS = re.compile(  # the elements that begin a line of their own
    r"address|article|aside|blockquote|br|button|caption|details|dd|div|dl|dt|fieldset|figcaption|figure|footer"
    r"|form|h[1-6]|header|hr|label|legend|li|main|nav|ol|option|p|pre|section|summary|table|tbody|td|th|thead|tr|ul"
)
PRINTED = re.compile(r"(sheet made on|Printed on) [^·\n]*")  # the time of printing
IDS = re.compile(r"(?<=[/=])\d+(?=[/&]|$)")  # an id in a path or a query


def _lines(element) -> str:
    """The element's text with a line break around each block (a paragraph, a list item, a cell...)."""
    if element.tag in ("script", "style", "template"):
        return ""
    inner = "".join(c if isinstance(c, str) else _lines(c) for c in element.children)
    return f"\n{inner}\n" if BLOCKS.fullmatch(element.tag) else inner


def _text(response) -> list[str]:
    """What a reader reads of a page (or a download), line by line."""
    if "text/html" not in response.get("Content-Type", ""):
        return response.content.decode("utf-8-sig").splitlines()
    page = Page(response.content.decode())
    text = _lines(page.find("body") or page)
    lines = [PRINTED.sub(r"\1 …", " ".join(line.split())) for line in text.splitlines()]
    return [line for line in lines if line]


def _links(response, here: str) -> list[str]:
    if "text/html" not in response.get("Content-Type", ""):
        return []
    found = []
    for a in Page(response.content.decode()).all("a[href]"):
        url = urljoin(here, a.get("href").split("#")[0])
        parts = urlsplit(url)
        if parts.netloc and parts.netloc != "testserver":
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if path.startswith(WITHIN) and not any(s in path for s in SKIPPED):
            found.append(path)
    return found


def crawl(client: Client, slug: str, *, every: bool) -> list[tuple[str, str, list[str]]]:
    """Every page reached from the club's page, the club list and the evening list by following links,
    in the order found: (its address with ids masked, its address, its text). Not ``every``: the pages the same for
    every role are left out (the admin's crawl reads them)."""
    queue = [(reverse("club", args=[slug]), "")]
    queue += [(reverse("club_list"), ""), (reverse("evening_list"), "")]
    seen, pages = {url for url, _ in queue}, []
    while queue:
        url, origin = queue.pop(0)
        response = client.get(url)
        assert response.status_code in (200, 302), f"{url} (linked from {origin}): {response.status_code}"
        if response.status_code == 302:
            continue
        pages.append((IDS.sub("#", url), url, _text(response)))
        for link in _links(response, url):
            if not every and SAME_FOR_ALL.search(link):
                continue
            if link not in seen:
                seen.add(link)
                queue.append((link, url))
    return pages


def _differences(before, after) -> str:
    """The first differing page, named, with the differing lines (empty when every page is the same)."""
    if [p[0] for p in before] != [p[0] for p in after]:
        lost = sorted({p[0] for p in before} - {p[0] for p in after})
        new = sorted({p[0] for p in after} - {p[0] for p in before})
        return f"the pages reached differ: lost {lost}, new {new}"
    for (path, url, old), (_path, new_url, new) in zip(before, after, strict=True):
        if old != new:
            diff = difflib.unified_diff(old, new, "before", "after", n=1, lineterm="")
            return f"{path} ({url} before the restore, {new_url} after):\n" + "\n".join(list(diff)[2:40])
    return ""


def _members_back_in(club, slug, users, site_admin_link):
    """The guides' steps (docs/operating.md, docs/guides/secretary.md): the admin opens the link the
    operator handed her, chooses a password; on the members page she makes each member's link; each
    opens his and chooses one."""
    admin = Client()
    form = admin.get(site_admin_link)
    assert form.status_code == 200 and "Choose your password" in form.content.decode()
    answer = admin.post(site_admin_link, {"new_password1": "un-mot-de-passe-4", "new_password2": "un-mot-de-passe-4"})
    assert answer.status_code == 302
    members = admin.get(reverse("club_members", args=[slug]))
    page = Page(members.content.decode())
    forms = [f.get("action") for f in page.all("form") if f.get("action", "").endswith("/password-link/")]
    assert forms, "the members page offers no link to choose a password"
    for action in forms:
        made = Page(admin.post(action).content.decode())
        [link] = [i.get("value") for i in made.all("input.invite-link") if "/accounts/password/" in i.get("value")]
        member = Client()
        member.get(link)
        done = member.post(link, {"new_password1": "wachtwoord-van-mij", "new_password2": "wachtwoord-van-mij"})
        assert done.status_code == 302, link
    return admin


def test_every_page_of_the_club_is_as_it_was_after_a_restore_from_its_backup(make_user, tmp_path, capsys):
    world = build(make_user)
    slug = world["club"].slug
    users = {role: world["users"][role].get_username() for role in ROLES}
    clients = {}
    for role in ROLES:
        clients[role] = Client()
        clients[role].force_login(world["users"][role])
    before = {role: crawl(clients[role], slug, every=role == "admin") for role in ROLES}
    assert len(before["admin"]) > 100, len(before["admin"])  # the crawl reaches the club's pages

    download = clients["admin"].get(reverse("club_backup", args=[slug]))
    assert download.status_code == 200
    path = tmp_path / "backup.json"
    path.write_bytes(download.content)

    call_command("flush", "--no-input")  # an empty database,
    cache.clear()  # and its cache (a table of its own): a new instance's
    capsys.readouterr()
    call_command("import_club", str(path), "--site", "https://scorebook.example.org")
    told = capsys.readouterr().out
    club = Club.objects.get(slug=slug)
    [admin_link] = re.findall(r"https://scorebook\.example\.org(/accounts/password/\S+/)", told)
    assert "adele" in told and "admin" in told

    _members_back_in(club, slug, users, admin_link)
    from django.contrib.auth import get_user_model

    after = {}
    for role in ROLES:
        client = Client()
        assert client.login(
            username=users[role],
            password="un-mot-de-passe-4" if role == "admin" else "wachtwoord-van-mij",
        ), role
        after[role] = crawl(client, slug, every=role == "admin")
    for role in ROLES:
        assert not (fault := _differences(before[role], after[role])), f"as the club's {role}: {fault}"
    assert get_user_model().objects.filter(username="fred").exists()  # the former member's deeds stay his
    assert not any(password_links.awaits_password(m.user) for m in club.memberships.select_related("user"))
