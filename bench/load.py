"""The load tests of ``make bench``: phones (threads speaking HTTP to gunicorn on 127.0.0.1) at one
table, posting as the scoring page posts (``ScoringPage``: the record form read from the page, the
version of the evening it shows). The hall of a club night (40 tables, one phone each, and the
followers of the ranking) is ``bench/night.py``'s.

- ``pair``: two phones at one table tap Save at the same moment, round after round. The deal that
  arrives second is told the evening moved (409, the conflict the page shows) and is recorded again
  as the page offers, as the next deal: conflicts, their resolutions, the time until both deals are
  stored (p50, p95, max), errors, deals lost (answered 200, not stored) and doubled.
- ``edits``: 8 phones record, correct, delete and undo (an undo tapped twice at once) their own
  deals on one evening at once. A refusal in words (the evening moved, the list changed, the deal
  changed, already undone: 409, 404, or the board with the reason) is an answer, not an error; an
  error is a 5xx, a failed connection or an answer that is neither. After the run every phone's view
  of its deals (recorded, minus what it saw deleted, plus what it saw put back) is compared with the
  database: lost, doubled (a request key twice, or a deleted deal back without its undo), and each
  evening's stored figures against a rebuild (``rebuilt``).

The phones only use what a browser has: pages, forms and answers. What a phone "sees" of its own
deals after a write (is my deal still there, at which number) is read from the database, as its
screen would show it after the answer; only the phone that recorded a deal ever corrects, deletes or
undoes it, so that every change is the doing of one known phone.
"""

from __future__ import annotations

import html.parser
import io
import json
import random
import re
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

REPLAY_EVERY = 10
TOLD = {404, 409, 422}  # a refusal in words: not an error (a 422 on a correction is counted apart)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A browser's cookies, sent by hand: the site's cookies are Secure (production settings) and
    the benchmark speaks plain HTTP on loopback, where a cookie jar would keep them back."""

    def __init__(self, session: str | None = None):
        self.opener = urllib.request.build_opener(_NoRedirect)
        self.cookies: dict[str, str] = {"sessionid": session} if session else {}
        self.token = ""
        self.headers = None  # the last answer's

    def open(self, url: str, data: dict | list | None = None, headers: dict | None = None, timeout: float = 30):
        """(status, body); a form in ``data`` is posted with the CSRF token (a list of pairs, a form
        read from its page: as it is, its token in it)."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            pairs = data if isinstance(data, list) else data | {"csrfmiddlewaretoken": self.token}
            body = urllib.parse.urlencode(pairs, doseq=True).encode()
        try:
            response = self.opener.open(urllib.request.Request(url, body, headers), timeout=timeout)
        except urllib.error.HTTPError as answer:
            response = answer
        with response:
            content = response.read()
            self.headers = response.headers
            for line in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = line.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, content

    def page(self, url: str) -> str:
        status, content = self.open(url)
        if status != 200:
            raise RuntimeError(f"GET {url} answered {status}")
        text = content.decode()
        match = TOKEN.search(text)
        if match:
            self.token = match.group(1)
        return text


class _RecordForm(html.parser.HTMLParser):
    """The fields the record form (``form#record``) posts as a browser's FormData reads them: every
    named control but the buttons, a radio button or checkbox only when checked, a select's chosen
    option (else its first), in document order; and what the page shows besides (its board's
    version, the players at the table, the rotation, whether the table's deals of the session are done)."""

    def __init__(self) -> None:
        super().__init__()
        self.deals_done = False  # the board says the table has played its deals of the session
        self.pairs: list[tuple[str, str]] = []
        self.names: list[str] = []  # every control's name, checked or not
        self.players: list[str] = []
        self.version = ""
        self._inside = self._script = False
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self.rotation_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id") == "board" and a.get("data-version"):
            self.version = a["data-version"]
        if a.get("id") == "deals-done" and "hidden" not in a:
            self.deals_done = True
        if tag == "script" and a.get("id") == "rotation":
            self._script = True
        if tag == "form" and a.get("id") == "record":
            self._inside = True
        if not self._inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "button", "image", "reset"):
                return
            self.names.append(name)
            if name == "declarers":
                self.players.append(a.get("value", ""))
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.pairs.append((name, a.get("value", "on")))
            else:
                self.pairs.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self.names.append(name)
            self._select, self._options = name, []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and name:
            self.names.append(name)
            self.pairs.append((name, ""))

    def handle_endtag(self, tag):
        if tag == "form" and self._inside:
            self._inside = False
        if tag == "script":
            self._script = False
        if tag == "select" and self._select:
            chosen = [v for v, selected in self._options if selected] or [v for v, _ in self._options[:1]]
            self.pairs += [(self._select, v) for v in chosen]
            self._select = None

    def handle_data(self, data):
        if self._script:
            self.rotation_text += data


OOB_KEY = re.compile(r'<input type="hidden" name="request_key" value="([^"]*)" id="id_request_key" hx-swap-oob')
NEXT_VERSION = re.compile(r'<section class="next" id="next"[^>]*data-version="(\d+)"')
ROTATION = re.compile(r'<script id="rotation" type="application/json">(.*?)</script>', re.S)


class ScoringPage:
    """The scoring page as a phone's browser holds it, and its record form posted as the page posts
    it: the form's fields read from the page (its request key, the csrf token, the version of the
    evening it was entered against, the deal's number and dealer), the deal tapped on top, and the
    headers of htmx and of the page's script (``X-Board-Version``: the version the board shows).
    After each answer the page is brought up to date as its script does: a small answer (swapped
    out of band) gives the next request key, the version in ``#next`` and the rotation (the next
    deal's number and dealer); any other answer with a board is read again. A board without a record
    form (the table has played its deals of the session, or it is closed) leaves the page without one:
    ``recording`` is then False and ``deals_done`` says whether the table's deals are done."""

    def __init__(self, url: str, html: str) -> None:
        self.url = url
        self.read(html)
        if not self.recording:
            raise ValueError("the page shows no record form")

    def read(self, html: str) -> None:
        form = _RecordForm()
        form.feed(html)
        self.recording, self.deals_done = bool(form.names), form.deals_done
        if not self.recording:
            return  # the form's last fields stay: nothing more is posted from this page
        self.pairs, self.names, self.players = form.pairs, form.names, form.players
        self.version = form.version
        self.rotation = json.loads(form.rotation_text) if form.rotation_text else None

    def _set(self, name: str, value: str) -> None:
        self.pairs = [(n, value if n == name else v) for n, v in self.pairs]

    @property
    def fields(self) -> dict[str, str]:
        return dict(self.pairs)

    def playing(self) -> list[str]:
        """Who plays the next deal, as the page shows it (the rotation's next dealer's table)."""
        out = set(self.rotation["turns"][0]["out"]) if self.rotation and self.rotation["turns"] else set()
        return [p for p in self.players if p not in out]

    def post(self, deal: dict) -> tuple[list[tuple[str, str]], dict[str, str]]:
        """What the page sends to record ``deal``: the form's fields with the deal tapped (a form
        field the deal fills replaces the page's), and the headers."""
        from bench import synthetic as syn

        tapped = syn.form_data(deal, self.players, request_key=self.fields.get("request_key", ""))
        tapped["evening_version"] = self.version  # the page's script: the board's version, at submit
        filled = [(name, value) for name, value in self.pairs if name not in tapped]
        for name, value in tapped.items():
            filled += [(name, str(v)) for v in value] if isinstance(value, list) else [(name, str(value))]
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": self.url,
            "HX-Target": "board",
            "HX-Trigger": "record",
            "X-Board-Version": self.version,
            "Referer": self.url,
        }
        return filled, headers

    def answered(self, status: int, html: str, headers) -> None:
        """Bring the page up to date from an answer to its form."""
        if headers.get("HX-Reswap") == "none" and status == 200:
            key, version, rotation = OOB_KEY.search(html), NEXT_VERSION.search(html), ROTATION.search(html)
            if key:
                self._set("request_key", key.group(1))
            if version:
                self.version = version.group(1)
            if rotation:
                self.rotation = json.loads(rotation.group(1))
                self._set("deal_number", str(self.rotation["number"]))
                if self.rotation["turns"]:
                    self._set("dealer", self.rotation["turns"][0]["dealer"])
        elif status in (200, 409, 422) and 'id="board"' in html:
            self.read(html)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


# --- the phones' reports -------------------------------------------------------------------------


@dataclass
class PhoneReport:
    recorded: list[str] = field(default_factory=list)  # request keys answered 200
    deleted: set[str] = field(default_factory=set)  # its deals it saw deleted (and not put back)
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # ms, every write
    counts: Counter = field(default_factory=Counter)


def _opened(session, url: str, report: PhoneReport) -> Phone | None:
    """A phone with the scoring page at ``url`` open, as a scorer starts; None (the error
    reported) when the page did not open."""
    phone = Phone(session)
    try:
        phone.page(url)
    except Exception as error:  # noqa: BLE001
        report.errors.append(f"page: {error!r}")
        return None
    return phone


def _time_up(deadline: float, report: PhoneReport) -> bool:
    if time.monotonic() > deadline:
        report.errors.append("aborted: the load test's time is up")
        return True
    return False


# --- two phones at one table, saving at the same moment ----------------------------------------


@dataclass
class PairReport(PhoneReport):
    conflicts: int = 0  # answers 409: the evening moved since the deal was entered
    resolved: int = 0  # deals recorded again as the page offers, as the next deal
    both_stored_ms: list[float] = field(default_factory=list)  # from the two taps to both deals stored


def _save(
    phone: Phone, page: ScoringPage, base: str, evening_pk: int, deal: dict, report: PhoneReport
) -> tuple[int | None, str]:
    """One tap of Save, as the page posts it; (status, the request key), the page brought up to date.
    A page without a record form (the evening closed meanwhile) posts nothing: an error."""
    if not page.recording:
        report.errors.append("record: the page shows no record form")
        return None, ""
    pairs, headers = page.post(deal)
    key = dict(pairs)["request_key"]
    t = time.perf_counter()
    try:
        status, body = phone.open(f"{base}/e/{evening_pk}/deals/", pairs, headers)
    except Exception as error:  # noqa: BLE001
        report.errors.append(f"record: {error!r}")
        return None, key
    report.latencies.append((time.perf_counter() - t) * 1000)
    page.answered(status, body.decode(errors="replace"), phone.headers)
    if status == 200:
        report.recorded.append(key)
    elif status != 409:
        report.errors.append(f"record: HTTP {status} {body[:160]!r}")
    return status, key


def two_phones(bases, sessions, evening_pk, rounds, seed, deadline, report: PairReport) -> None:
    """Two phones at one table, each with the scoring page open, both tapping Save at the same moment,
    round after round. The one whose deal arrives second is told the evening moved (409: the
    conflict the page shows), and records it again as the page offers (as the next deal, entered
    against the version now); a phone left behind by the other's deal meets the conflict at its next
    save. ``both_stored_ms``: from the two taps until both deals are stored."""
    from bench import synthetic as syn

    rng = random.Random(seed)
    phones, pages = [], []
    for i, session in enumerate(sessions):
        url = f"{bases[i % len(bases)]}/e/{evening_pk}/"
        phone = _opened(session, url, report)
        if phone is None:
            return
        phones.append(phone)
        pages.append(ScoringPage(url, phone.page(url)))
    for _round in range(rounds):
        if _time_up(deadline, report):
            return
        deals = [syn.random_deal(page.playing(), rng, allow_pass=False) for page in pages]
        start, answers = threading.Barrier(len(phones)), [None] * len(phones)
        began = time.perf_counter()

        def tap(i, start=start, answers=answers, deals=deals):
            start.wait()
            answers[i] = _save(phones[i], pages[i], bases[i % len(bases)], evening_pk, deals[i], report)

        taps = [threading.Thread(target=tap, args=(i,)) for i in range(len(phones))]
        for t in taps:
            t.start()
        for t in taps:
            t.join()
        final = []
        for i, (status, _key) in enumerate(answers):
            attempts = 0
            while status == 409 and attempts < 3:  # the page's choice: record it as the next deal
                report.conflicts += 1
                attempts += 1
                status, _key = _save(phones[i], pages[i], bases[i % len(bases)], evening_pk, deals[i], report)
                report.resolved += status == 200
            final.append(status)
        if all(status == 200 for status in final):
            report.both_stored_ms.append((time.perf_counter() - began) * 1000)


# --- 8 phones correcting, deleting and undoing -----------------------------------------------


def _mine(evening_pk, key):
    """Where the phone's deal is now: (number, id), or None when it is not there."""
    from scorebook.evenings.models import Deal

    return Deal.objects.filter(evening_id=evening_pk, request_key=key).values_list("number", "pk").first()


def _present(evening_pk, key) -> int:
    from scorebook.evenings.models import Deal

    return Deal.objects.filter(evening_id=evening_pk, request_key=key).count()


def _post(phone, url, data, report, what, htmx=True, ok=(200,)):
    t = time.perf_counter()
    try:
        status, content = phone.open(url, data, {"HX-Request": "true"} if htmx else {})
    except Exception as error:  # noqa: BLE001
        report.errors.append(f"{what}: {error!r}")
        return None, b""
    report.latencies.append((time.perf_counter() - t) * 1000)
    if status in ok:
        report.counts[f"{what}_answered"] += 1
    elif status in TOLD:
        report.counts[f"{what}_told_{status}"] += 1
    else:
        report.errors.append(f"{what}: HTTP {status} {content[:160]!r}")
    return status, content


def editor(bases, session, evening_pk, players, operations, seed, deadline, report: PhoneReport):
    """One phone: records deals, corrects, deletes and undoes its own (an undo tapped twice at once)."""
    from bench import synthetic as syn

    rng = random.Random(seed)
    url = f"{bases[0]}/e/{evening_pk}/"
    phone = _opened(session, url, report)
    if phone is None:
        return
    page = ScoringPage(url, phone.page(url))
    for i in range(operations):
        if _time_up(deadline, report):
            return
        base = bases[(seed + i) % len(bases)]
        live = [k for k in report.recorded if k not in report.deleted]
        roll = rng.random()
        if roll < 0.45 or len(live) < 2:  # as the page posts it: 409 when another phone wrote first
            deal = syn.random_deal(page.playing(), rng)
            status, _key = _save(phone, page, base, evening_pk, deal, report)
            report.counts["record"] += 1
            for _again in range(2):  # the conflict resolved as the page offers: recorded as the next deal
                if status != 409:
                    break
                report.counts["record_told_409"] += 1
                status, _key = _save(phone, page, base, evening_pk, deal, report)
        elif roll < 0.7:  # correct one of its deals, from its edit page
            key = rng.choice(live[-6:])
            where = _mine(evening_pk, key)
            if where is None:
                report.errors.append(f"correct: its deal {key} is not there")
                continue
            number, pk = where
            status, content = phone.open(f"{base}/e/{evening_pk}/deals/{number}/edit/")
            text = content.decode(errors="replace")
            shown = re.search(r'name="deal" value="(\d+)"', text)
            version = re.search(r'name="version" value="(\d+)"', text)
            if status == 404 or (shown and int(shown.group(1)) != pk):
                report.counts["correct_moved_before_the_form"] += 1  # another phone's deletion moved it
                continue
            if status != 200 or not shown:
                report.errors.append(f"correct: the edit page answered {status} {content[:160]!r}")
                continue
            phone.token = TOKEN.search(text).group(1)
            form = syn.form_data(syn.random_deal(players, rng), players) | {"deal": pk}
            form["version"] = version.group(1) if version else ""
            form.pop("request_key", None)
            report.counts["correct"] += 1
            _post(phone, f"{base}/e/{evening_pk}/deals/{number}/edit/", form, report, "correct", False, (302,))
        else:  # delete one of its deals, then undo it (tapped twice at once) half the time
            key = rng.choice(live[-6:])
            where = _mine(evening_pk, key)
            if where is None:
                report.errors.append(f"delete: its deal {key} is not there")
                continue
            number, pk = where
            report.counts["delete"] += 1
            status, content = _post(
                phone, f"{base}/e/{evening_pk}/deals/{number}/delete/", {"deal": pk}, report, "delete"
            )
            if _present(evening_pk, key) == 0:
                report.deleted.add(key)
                report.counts["delete_done"] += 1
            if status != 200 or key not in report.deleted or rng.random() < 0.5:
                continue
            undo = re.search(rf'action="(/e/{evening_pk}/undo/\d+/)"', content.decode(errors="replace"))
            if undo is None:
                report.counts["undo_not_offered"] += 1  # another change came after the deletion
                continue
            report.counts["undo_twice"] += 1
            taps = [
                threading.Thread(target=_post, args=(phone, base + undo.group(1), {}, report, "undo")) for _ in range(2)
            ]
            for tap in taps:
                tap.start()
            for tap in taps:
                tap.join()
            if _present(evening_pk, key):
                report.deleted.discard(key)
                report.counts["undo_done"] += 1


# --- running the phones, and what the database holds after them ------------------------------


@dataclass
class Run:
    reports: list[PhoneReport]
    elapsed: float
    aborted: bool


def run_phones(target, bases, sessions, evening_pk, players, per_phone, seed, seconds) -> Run:
    from django.db import connections

    connections.close_all()  # the phones' look-ups open their own connections, in their threads
    reports = [PhoneReport() for _ in sessions]
    deadline = time.monotonic() + seconds

    def phone(i: int) -> None:
        try:
            target(bases, sessions[i], evening_pk, players, per_phone, seed + i, deadline, reports[i])
        except Exception as error:  # noqa: BLE001 - a phone that dies is an error, never a silent thread
            reports[i].errors.append(f"the phone's thread died: {error!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(len(sessions))]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()) + 35)
    elapsed = time.perf_counter() - start
    aborted = any(t.is_alive() for t in threads) or any(e.startswith("aborted") for r in reports for e in r.errors)
    return Run(reports, elapsed, aborted)


def accounting(evening_pk, reports: list[PhoneReport], preloaded_keys: set[str]) -> dict[str, int]:
    """Lost and doubled deals: what the phones were told against what the database holds."""
    from scorebook.evenings.models import Deal

    stored = Counter(Deal.objects.filter(evening_id=evening_pk).values_list("request_key", flat=True))
    recorded = {k for r in reports for k in r.recorded}
    deleted = {k for r in reports for k in r.deleted}
    expected = (recorded - deleted) | preloaded_keys
    lost = len(expected - set(stored))
    doubled = sum(n - 1 for n in stored.values() if n > 1)
    doubled += len(set(stored) - recorded - preloaded_keys)  # stored, and no phone was told so
    doubled += len(set(stored) & deleted)  # a deal its phone saw deleted, back without its undo
    return {"lost": lost, "doubled": doubled, "stored": sum(stored.values()), "expected": len(expected)}


def _row(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields if f.attname != "updated_at"}


def _stored(evening_pk) -> dict:
    """Everything stored for the evening that a rebuild may rewrite: its row, seats and deals."""
    from scorebook.evenings.models import Evening

    evening = Evening.objects.get(pk=evening_pk)
    return {
        "evening": _row(evening),
        "seats": [_row(s) for s in evening.seats.order_by("position")],
        "deals": [_row(d) for d in evening.deals.order_by("number")],
    }


def rebuilt(evening_pk, owner) -> list[str]:
    """The evening's stored figures against a rebuild from its stored deals: ``refresh_summaries``
    must change nothing it stores, and the engine's totals from the evening's file (its export,
    scored by ``manage.py score``) must be the stored summary's. The differences, in words."""
    from django.core.management import call_command
    from django.test import Client

    problems = []
    client = Client()
    client.force_login(owner)
    exported = client.get(f"/e/{evening_pk}/export/")
    if exported.status_code != 200:
        return [f"the export answered {exported.status_code}"]
    body = b"".join(exported.streaming_content) if exported.streaming else exported.content
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(body)
        file.flush()
        out = io.StringIO()
        call_command("score", file.name, stdout=out)
    engine = json.loads(out.getvalue())
    from scorebook.evenings.models import Evening

    summary = Evening.objects.get(pk=evening_pk).summary or {}
    stored_points = {p.get("name"): p.get("points") for p in summary.get("players") or []}
    if stored_points != engine.get("totals"):
        problems.append(f"totals: stored {stored_points}, engine {engine.get('totals')}")
    before = _stored(evening_pk)
    call_command("refresh_summaries", evening=evening_pk, stdout=io.StringIO())
    after = _stored(evening_pk)
    for part in ("evening", "seats", "deals"):
        if before[part] != after[part]:
            problems.append(f"refresh_summaries rewrote the {part}")
    return problems


def figures(figure, prefix, run: Run, evening_pk, owner, preloaded_keys, targets: dict) -> None:
    """Print the run's figures, ``prefix_…``, with the targets given."""
    reports = run.reports
    errors = [e for r in reports for e in r.errors]
    latencies = [x for r in reports for x in r.latencies]
    counts = sum((r.counts for r in reports), Counter())
    recorded = sum(len(r.recorded) for r in reports)
    books = accounting(evening_pk, reports, preloaded_keys)
    problems = rebuilt(evening_pk, owner)

    def out(name, value, fmt="{:.1f}"):
        figure(f"{prefix}_{name}", value, fmt, target=targets.get(name))

    out("phones", len(reports))
    out("writes", len(latencies))
    out("deals_recorded", recorded)
    out("operations", " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    out("seconds", run.elapsed)
    out("deals_per_s", recorded / run.elapsed if run.elapsed else 0.0)
    out("p50_ms", percentile(latencies, 50))
    out("p95_ms", percentile(latencies, 95))
    out("max_ms", max(latencies, default=0.0))
    out("errors", len(errors))
    for error in errors[:5]:
        figure(f"{prefix}_error_sample", error[:220])
    out("aborted", "yes" if run.aborted else "no")
    out("lost", books["lost"])
    out("doubled", books["doubled"])
    out("summaries_not_equal_to_rebuild", 1 if problems else 0)
    for problem in problems[:3]:
        figure(f"{prefix}_rebuild_difference", problem[:220])
