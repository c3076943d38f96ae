/* Scorebook's script, on every page (one file: the phone keeps it from the first visit on).
   - the record form (scoring page, correction page): presets the tricks to the contract's need,
     shows the per-declarer steppers for misère and piccolo, steps tricks, tells the other team's
     tricks; no phantom deals: after a save, Save waits for a new choice;
   - the offline queue: a save without network (or behind deals waiting) is kept on this phone
     (localStorage) with its request key and the place it was entered for, shown at once as
     waiting, and sent by itself in order when the network is back (a repeat records nothing). A
     deal goes to another place only once the scorer confirms it; a refusal is shown on its row
     with only the ways forward that can succeed; a refusal in one evening holds no other. On
     every other page the deals waiting on this phone are listed (copy, discard), whatever the
     server answers there (logged out, the evening deleted, the table's link withdrawn);
   - notices at the thumb are announced; the screen kept awake on request;
   - the service worker, registered from every page (the installed app works offline from the
     first visit), keeps the pages for offline use.
   Every form also works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var QUEUE_KEY = "scorebook-queue";
  var BOARD_KEY = "scorebook-board-";
  var PREFILL_KEY = "scorebook-prefill";
  var SEEN_KEY = "scorebook-seen-";

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  function board() { return document.getElementById("board"); }

  /* --- the record form -------------------------------------------------------------- */

  function checkedContract(form) {
    return form.querySelector('input[name="contract"]:checked');
  }

  function syncContractForm(form) {
    var contract = checkedContract(form);
    var pass = Boolean(contract && contract.dataset.pass === "1");
    var exact = contract && contract.dataset.exact === "1";
    var side = form.querySelector(".tricks-side");
    var each = form.querySelector(".tricks-each");
    var declarers = form.querySelector(".declarers");
    if (side) side.hidden = Boolean(exact) || pass;
    if (each) each.hidden = !exact || pass;
    if (declarers) declarers.hidden = pass;
    var chosen = $all('input[name="declarers"]:checked', form).map(function (i) { return i.value; });
    $all(".tricks-each .each", form).forEach(function (row) {
      row.hidden = chosen.indexOf(row.dataset.player) === -1;
    });
    var changed = form.querySelector(".opt-changed");
    if (changed) changed.hidden = !(contract && contract.dataset.changed === "1");
    var exposed = form.querySelector(".opt-exposed");
    if (exposed) exposed.hidden = !(contract && contract.dataset.exposed === "1");
  }

  function presetTricks(form, contract) {
    var needs = contract.dataset.needs;
    var side = form.querySelector('.tricks-side input[name="tricks"]');
    if (side) side.value = contract.dataset.pass === "1" ? "" : needs;
    form.querySelectorAll(".tricks-each input").forEach(function (input) { input.value = needs; });
  }

  function limitDeclarers(form, changedBox) {
    var contract = checkedContract(form);
    if (!contract) return;
    var most = contract.dataset.declarers === "2" ? 2 : Number(contract.dataset.max || 1);
    var boxes = $all('input[name="declarers"]:checked', form).filter(function (b) { return b !== changedBox; });
    while (boxes.length >= most + (changedBox && changedBox.checked ? 0 : 1) && boxes.length) {
      boxes.shift().checked = false; // the earliest tap gives way to the newest
    }
  }

  function syncClassic(form) {
    var out = form.querySelector("#other-tricks");
    if (!out) return;
    var chosen = form.querySelector('input[name="tricks"]:checked') || form.querySelector('input[name="tricks"][type="number"]');
    var n = chosen ? parseInt(chosen.value, 10) : NaN;
    if (!isNaN(n)) out.textContent = String(13 - Math.max(0, Math.min(13, n)));
  }

  function syncAll(root) {
    $all("form.record-contract", root).forEach(syncContractForm);
    $all("form.record-classic", root).forEach(syncClassic);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form.record-contract");
    if (form) {
      if (event.target.name === "contract") {
        presetTricks(form, event.target);
        limitDeclarers(form, null);
      } else if (event.target.name === "declarers" && event.target.checked) {
        limitDeclarers(form, event.target);
      }
      syncContractForm(form);
    }
    var classic = event.target.closest("form.record-classic");
    if (classic) syncClassic(classic);
    if (event.target.closest("#record")) {
      arm();
      clearSaved();
    }
  });

  /* the confirmation of the last save goes when the next deal begins: the bar at the thumb is
     small again, the form all in view */
  function clearSaved() {
    $all("#notices .msg.saved").forEach(function (el) {
      var list = el.parentElement;
      el.remove();
      if (list && list.classList.contains("messages") && !list.children.length) list.remove();
    });
  }

  document.addEventListener("input", function (event) {
    var classic = event.target.closest("form.record-classic");
    if (classic) syncClassic(classic);
    if (event.target.closest("#record")) arm();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (button) {
      var input = button.parentElement.querySelector("input");
      var value = parseInt(input.value, 10);
      if (isNaN(value)) value = Number(input.min || 0);
      value = Math.max(Number(input.min || 0), Math.min(Number(input.max || 13), value + Number(button.dataset.step)));
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    var action = event.target.closest("button[data-queue]");
    if (action) queueAction(action.dataset.queue, action.closest("li").dataset.id, action);
  });

  /* --- no phantom deals: after a save, Save waits for a new choice ------------------ */

  function saveButton() { return document.getElementById("save-deal"); }

  function disarm() {
    var save = saveButton();
    if (!save) return;
    save.disabled = true;
    save.dataset.guard = "1";
  }

  function arm() {
    var save = saveButton();
    if (save && save.dataset.guard === "1") {
      save.disabled = false;
      delete save.dataset.guard;
    }
  }

  function guarded() {
    var save = saveButton();
    return Boolean(save && save.dataset.guard === "1");
  }

  /* --- notices at the thumb --------------------------------------------------------- */

  function announce() {
    var live = document.getElementById("announce");
    var notices = document.getElementById("notices");
    if (!live || !notices) return;
    var text = notices.innerText.trim();
    live.textContent = "";
    if (text) window.setTimeout(function () { live.textContent = text; }, 60);
  }

  function notice(text, kind) {
    var notices = document.getElementById("notices");
    if (!notices || !text) return;
    $all(".msg.js-notice", notices).forEach(function (el) { el.remove(); });
    var p = document.createElement("p");
    p.className = "msg js-notice" + (kind ? " " + kind : "");
    p.textContent = text;
    notices.insertBefore(p, notices.firstChild);
    announce();
  }

  function words(name) {
    var holder = document.getElementById("queue-words");
    return holder ? holder.dataset[name] || "" : "";
  }

  /* --- the offline queue: what it keeps ----------------------------------------------

     A list of the lines saved on this phone and not recorded yet, in the order they were saved,
     every evening's together (localStorage: through reloads, restarts, logouts and revoked links).
     Each entry: its evening (and the evening's heading and page, for the pages of other evenings),
     the form's address and body (with its request key: a repeat records nothing), what it is
     (kind: deal, pass, line, correction; label), and for a deal the place it is to be recorded at
     (place: number, dealer, who sits out), the one it was entered for (entered), and the evening's
     version it was entered against (version; null while a deal before it waits: the version that
     one leaves). Its status: waiting, refused (refusal: engine, closed, limit, gone, forbidden,
     login, csrf), conflict (the evening moved: it goes elsewhere only once the scorer confirms the
     place), correcting (back in the form; draft: the form as the scorer left it). */

  function load() {
    try { return JSON.parse(localStorage.getItem(QUEUE_KEY)) || []; } catch (e) { return []; }
  }

  function store(queue) {
    localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  }

  function eveningId() {
    var b = board();
    if (b) return b.dataset.evening;
    var form = $("form.record[data-evening-url]");
    var m = form && form.dataset.eveningUrl.match(/\/e\/(\d+)\//);
    return m ? m[1] : null;
  }

  function waiting(evening) {
    return load().filter(function (e) { return e.evening === evening; });
  }

  /* the highest version of an evening an answer of the server said: a board older than it (a page
     the worker kept) does not say where the waiting deals go now */
  function seen(evening, version) {
    var key = SEEN_KEY + evening;
    var known = Number(localStorage.getItem(key)) || 0;
    if (version !== undefined && version > known) {
      localStorage.setItem(key, String(version));
      return version;
    }
    return known;
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function queueable(form) {
    if (!form || form.method.toLowerCase() !== "post") return false;
    if (form.dataset.queueLabel) return true; // adjustment, robre, correction
    return form.id === "record";
  }

  function describe(form, params) {
    if (form.id !== "record") return { label: form.dataset.queueLabel, kind: form.classList.contains("record") ? "correction" : "line" };
    if (form.classList.contains("record-classic")) {
      var claim = params.get("claim");
      if (claim !== null && claim !== "") return { label: words("claim") || "claim", kind: "deal" };
      var legend = $(".classic-tricks legend", form);
      return { label: (legend ? legend.textContent.trim() : "") + ": " + params.get("tricks"), kind: "deal" };
    }
    var contract = checkedContract(form);
    if (!contract) return { label: "", kind: "deal" };
    if (contract.dataset.pass === "1") return { label: contract.nextElementSibling.textContent.trim(), kind: "pass" };
    var name = contract.nextElementSibling.textContent.trim();
    var group = contract.closest(".group");
    if (group && $(".group-label", group) && /^\d+$/.test(name)) name = $(".group-label", group).textContent.trim() + " " + name;
    var who = params.getAll("declarers");
    var parts = [name, who.join(" & ")];
    if (contract.dataset.exact === "1") {
      parts.push(who.map(function (p) {
        var row = $('.tricks-each .each[data-player="' + CSS.escape(p) + '"] input', form);
        return p + " " + (row ? row.value : "");
      }).join(", "));
    } else {
      parts.push(params.get("tricks"));
    }
    return { label: parts.join(" · "), kind: "deal" };
  }

  /* the evening's heading, for the lists of other pages */
  function eveningTitle(form) {
    var b = board();
    if (b && b.dataset.title) return b.dataset.title;
    return (form && form.dataset.eveningTitle) || document.title;
  }

  function enqueue(form, body) {
    var params = new URLSearchParams(body);
    var what = describe(form, params);
    var evening = eveningId();
    var b = board();
    var before = waiting(evening);
    var place = null;
    if (form.id === "record" && (what.kind === "deal" || what.kind === "pass")) {
      place = predictions(evening, before.concat([{ kind: what.kind }])).pop() || null;
      if (place && params.has("deal_number")) {
        params.set("deal_number", String(place.number));
        params.set("dealer", place.dealer);
      }
    }
    var queue = load();
    var entry = {
      id: newKey(),
      evening: evening,
      url: form.getAttribute("hx-post") || form.action || location.pathname,
      body: params.toString(),
      kind: what.kind,
      label: what.label,
      status: "waiting",
      reason: "",
      refusal: "",
      place: place,
      entered: place,
      title: eveningTitle(form),
      page: b ? b.dataset.boardUrl : form.dataset.eveningUrl || location.pathname,
      // the evening's version it was entered against: the board's, or (null) the one the deal
      // waiting before it leaves once recorded
      version: b && !before.length ? Number(b.dataset.version) : null,
    };
    queue.push(entry);
    store(queue);
    resetForm(form);
    var key = form.querySelector('input[name="request_key"]');
    if (key) key.value = newKey();
    return entry;
  }

  /* the form is ready for the next deal (after a save kept it in place) */
  function resetForm(form) {
    if (form.id === "record") {
      $all('input[type="radio"], input[type="checkbox"]', form).forEach(function (i) { i.checked = i.defaultChecked && i.name === "honours"; });
      $all('input[type="number"]', form).forEach(function (i) { i.value = ""; });
      $all(".field-errors, .errors", form).forEach(function (el) { el.remove(); });
      $all("details", form).forEach(function (d) { d.open = false; });
      syncAll(form.parentElement);
      disarm();
      window.scrollTo(0, 0);
    } else if (form.closest("#board")) {
      form.reset();
      var details = form.closest("details");
      if (details) details.open = false;
    }
  }

  /* --- the queue on the scoring page: where each waiting deal goes -------------------- */

  function readRotation() {
    var el = document.getElementById("rotation");
    try { return el ? JSON.parse(el.textContent) : null; } catch (e) { return null; }
  }

  /* The place of each of ``entries`` (an evening's, in order) if they were recorded now, one after
     the other, from the rotation the server sent with the board (who deals, who sits out, an all
     pass dealt again or not): {number, dealer, out, turn, multiplier} (no dealer: no rotation), null
     for a correction (it takes no place). */
  function predictions(evening, entries) {
    var b = board();
    var rotation = b && b.dataset.evening === evening ? readRotation() : null;
    if (!rotation) return entries.map(function () { return null; });
    var number = rotation.number;
    var turn = 0;
    var multiplier = rotation.multiplier;
    return entries.map(function (entry) {
      if (entry.kind === "correction") return null;
      var t = rotation.turns.length ? rotation.turns[turn % rotation.turns.length] : null;
      var place = { number: number, dealer: t ? t.dealer : "", out: t ? t.out : [], turn: turn, multiplier: multiplier };
      number += 1;
      if (entry.kind === "pass") {
        if (!rotation.redeal) turn += 1;
        multiplier = rotation.pass_multiplier;
      } else if (entry.kind === "deal") {
        turn += 1;
        multiplier = 1;
      }
      return place;
    });
  }

  function samePlace(a, b) {
    return Boolean(a && b && a.number === b.number && a.dealer === b.dealer);
  }

  /* The board says where the evening is now (when it is not older than what the server said last):
     a waiting deal whose place it has left is in conflict until the scorer confirms the new one,
     and back to waiting if the evening comes back to it. Stored; returns the places now. */
  function checkPlaces(evening) {
    var b = board();
    var queue = load();
    var mine = queue.filter(function (e) { return e.evening === evening; });
    var now = predictions(evening, mine);
    now.trusted = Boolean(b && b.dataset.evening === evening && Number(b.dataset.version) >= seen(evening));
    if (!now.trusted) return now;
    var changed = false;
    mine.forEach(function (entry, i) {
      if (!entry.place || !now[i] || !now[i].dealer) return;
      var moved = !samePlace(entry.place, now[i]);
      if (moved && (entry.status === "waiting" || (entry.status === "conflict" && entry.moved))) {
        if (entry.status !== "conflict" || !samePlace(entry.now, now[i])) changed = true;
        entry.status = "conflict";
        entry.moved = true;
        entry.now = now[i];
      } else if (!moved && entry.status === "conflict" && entry.moved) {
        entry.status = "waiting";
        entry.moved = false;
        changed = true;
      }
    });
    if (changed) store(queue);
    return now;
  }

  function fill(text, values) {
    return Object.keys(values).reduce(function (t, key) { return t.split(key).join(values[key]); }, text || "");
  }

  function outWords(place) {
    return place && place.out && place.out.length ? fill(words("sitsout"), { __NAMES__: place.out.join(", ") }) : "";
  }

  /* a conflict in words: where it was entered, where it would go now */
  function movedWords(entry, now) {
    var was = entry.entered || entry.place;
    return fill(words("moved"), {
      __WAS__: fill(words("was"), { __N__: String(was.number), __DEALER__: was.dealer }),
      __N__: String(now.number),
      __DEALER__: now.dealer,
      __OUT__: outWords(now),
    }).trim();
  }

  /* where a deal goes, in words: "deal 3, dealt by Carl" */
  function placeWords(place) {
    return place && place.dealer ? fill(words("place"), { __N__: String(place.number), __DEALER__: place.dealer }) : "";
  }

  function loginUrl(entry) {
    return words("loginurl") + "?next=" + encodeURIComponent(entry.page || location.pathname);
  }

  /* the actions a refused (or conflicting) row offers: only those that can succeed (a new place is
     offered only from a board as new as the server's last answer) */
  function rowActions(li, entry, now, trusted) {
    var form = entry.kind === "line" ? $('#board form[action="' + entry.url + '"]') : document.getElementById("record");
    var here = board() && board().dataset.evening === entry.evening;
    // a closed evening: Correct once it can be reopened by whoever holds the phone (not a table's
    // phone: only the director reopens its table)
    var reopens = form || (board() && !board().dataset.linkOnly);
    var correctable = entry.status === "refused" && (entry.refusal === "engine" || (entry.refusal === "closed" && here && reopens));
    $('[data-queue="correct"]', li).hidden = !(correctable && entry.kind !== "correction") && !(entry.status === "refused" && entry.kind === "correction" && entry.refusal === "engine");
    var resend = $('[data-queue="resend"]', li);
    resend.hidden = !(entry.status === "conflict" && here && trusted && now && now.dealer);
    if (!resend.hidden) {
      resend.textContent = fill(words("resend"), { __N__: String(now.number) });
      resend.dataset.number = String(now.number);
    }
    var login = $("[data-queue-login]", li);
    login.hidden = entry.refusal !== "login";
    login.href = loginUrl(entry);
    var open = $("[data-queue-open]", li);
    open.hidden = here || !entry.page || ["gone", "forbidden", "login"].indexOf(entry.refusal) !== -1;
    open.href = entry.page || "";
  }

  function row(entry, number, now, trusted) {
    var template = document.getElementById("waiting-row");
    var li = template.content.firstElementChild.cloneNode(true);
    li.dataset.id = entry.id;
    if (entry.entered) li.dataset.entered = String(entry.entered.number);
    $(".num", li).textContent = entry.kind === "correction" ? "↺" : String(number);
    $(".desc", li).textContent = entry.label;
    if (entry.status !== "waiting") {
      li.classList.add("refused", entry.status);
      var why = entry.reason;
      if (entry.status === "correcting") why = words("correcting");
      else if (entry.status === "conflict" && now && now.dealer && !samePlace(entry.entered || entry.place, now)) why = movedWords(entry, now);
      $(".why", li).textContent = why;
      $(".why", li).hidden = !why;
      $(".refused-actions", li).hidden = entry.status === "correcting";
      if (entry.status === "conflict") $(".waiting-badge", li).textContent = words("conflict");
      rowActions(li, entry, now, trusted);
    }
    return li;
  }

  function renderQueue() {
    var b = board();
    if (!b) return renderElsewhere();
    var evening = b.dataset.evening;
    var now = checkPlaces(evening);
    var entries = waiting(evening);
    var list = document.getElementById("deals");
    $all("li.waiting", list || b).forEach(function (li) { li.remove(); });
    var rotation = readRotation();
    var correcting = null; // the place of a deal being corrected: the header shows it while it is
    var last = rotation ? { number: rotation.number, turn: 0, multiplier: rotation.multiplier } : null;
    entries.forEach(function (entry, i) {
      var place = now[i];
      // the number it will be stored at: where the evening is now, else where it was entered
      var number = place ? place.number : entry.place ? entry.place.number : i + 1;
      if (entry.status === "correcting" && entry.kind !== "correction" && place) correcting = place;
      if (list && document.getElementById("waiting-row")) list.insertBefore(row(entry, number, place, now.trusted), list.firstChild);
      if (place && rotation) {
        last = { number: place.number + 1, turn: place.turn, multiplier: place.multiplier };
        if (entry.kind === "pass") {
          if (!rotation.redeal) last.turn += 1;
          last.multiplier = rotation.pass_multiplier;
        } else if (entry.kind === "deal") {
          last.turn += 1;
          last.multiplier = 1;
        }
      }
    });
    var none = document.getElementById("no-deals");
    if (none) none.hidden = entries.length > 0;
    var totals = document.getElementById("totals");
    if (totals) {
      totals.classList.toggle("provisional", entries.length > 0);
      var note = $(".provisional-note", totals);
      var lines = entries.filter(function (e) { return e.kind !== "correction"; }).length;
      if (note) {
        note.hidden = entries.length === 0;
        note.textContent = lines === 1 ? words("leftone") : words("leftmany").replace("2", String(lines));
      }
    }
    var queueNote = document.getElementById("queue-note");
    var notices = document.getElementById("notices");
    if (!queueNote && notices && entries.length) {
      queueNote = document.createElement("p");
      queueNote.id = "queue-note";
      queueNote.className = "msg queue-note";
      notices.append(queueNote);
    }
    if (queueNote) {
      var refused = entries.some(function (e) { return e.status !== "waiting"; });
      var conflict = entries.some(function (e) { return e.status === "conflict"; });
      var text = entries.length === 1 ? words("one") : words("many").replace("2", String(entries.length));
      if (refused) text += " · " + words(conflict ? "conflicted" : "refused");
      queueNote.textContent = entries.length ? text : "";
      queueNote.hidden = entries.length === 0;
      queueNote.classList.toggle("error", refused);
    }
    sessionDone(b, last);
    if (rotation && correcting) showNext(rotation, correcting.number, correcting.turn, correcting.multiplier);
    else if (rotation && last) showNext(rotation, last.number, last.turn, entries.length ? last.multiplier : rotation.multiplier);
  }

  /* a night's table that has played its deals of the session (those waiting counted): no form for
     a deal it cannot record, but the words that say so */
  function sessionDone(b, last) {
    var limit = Number(b.dataset.dealLimit) || 0;
    var done = $("#deals-done", b);
    if (!limit || !last || !done) return;
    var over = last.number > limit;
    done.hidden = !over;
    ["#record", "#save-deal", "#next", "details.adjust", "#classic-forms"].forEach(function (selector) {
      var el = $(selector, b);
      if (el) el.hidden = over;
    });
  }

  /* who deals next, moved on from the rotation the server sent (no rules here) */
  function showNext(rotation, number, turn, multiplier) {
    var next = document.getElementById("next");
    if (!next || !rotation.turns.length) return;
    var t = rotation.turns[turn % rotation.turns.length];
    $(".deal-no", next).textContent = next.dataset.deal.replace("__N__", String(number));
    var dealer = $(".dealer-line", next);
    var parts = next.dataset.deals.split("__NAME__");
    dealer.textContent = "";
    dealer.append(parts[0]);
    var strong = document.createElement("strong");
    strong.textContent = t.dealer;
    dealer.append(strong, parts.slice(1).join(""));
    var out = $(".out-line", next);
    out.textContent = t.out.length ? next.dataset.out.replace("__NAMES__", t.out.join(", ")) : "";
    out.hidden = !t.out.length;
    var badge = $(".badge", next);
    if (badge) {
      badge.hidden = multiplier <= 1;
      $(".mult", badge).textContent = String(multiplier);
    }
    var form = document.getElementById("record");
    if (form && form.elements.deal_number) {
      form.elements.deal_number.value = String(number);
      form.elements.dealer.value = t.dealer;
    }
    // the totals' sitting-out mark follows who deals next too
    $all("#totals .chip[data-player]").forEach(function (chip) {
      chip.classList.toggle("out", t.out.indexOf(chip.dataset.player) !== -1);
    });
    $all("#record .declarers label.tap.person").forEach(function (label) {
      var input = $("input", label);
      label.classList.toggle("out", t.out.indexOf(input.value) !== -1);
    });
  }

  /* --- the queue on every other page: what waits on this phone, never out of sight ----- */

  /* On a page that is not a waiting deal's scoring page (the list, the login page, a refusal: the
     evening deleted, the table's link withdrawn), its deals are listed at the top with where they
     go, why they wait, and Copy (to give them to the director) and Discard. */
  function renderElsewhere() {
    var panel = document.getElementById("waiting-elsewhere");
    var template = document.getElementById("waiting-panel");
    var entries = load();
    if (!entries.length || !template || !document.getElementById("waiting-row")) {
      if (panel) panel.hidden = true;
      return;
    }
    if (!panel) {
      panel = template.content.firstElementChild.cloneNode(true);
      var main = $("main") || document.body;
      main.insertBefore(panel, main.firstChild);
    }
    panel.hidden = false;
    var list = $("ol", panel);
    list.textContent = "";
    entries.forEach(function (entry) {
      var place = entry.place;
      var li = row(entry, place ? place.number : "", null, false);
      if (entry.status === "waiting") {
        // waiting to be sent: Copy and Discard all the same (the scorer decides), and its evening
        li.classList.add("held");
        $(".refused-actions", li).hidden = false;
        rowActions(li, entry, null, false);
      }
      var where = $(".where", li);
      where.textContent = [entry.title, placeWords(place)].filter(Boolean).join(" · ");
      where.hidden = !where.textContent;
      list.append(li);
    });
  }

  /* the deal in words, for the director or another phone */
  function copyText(entry) {
    return [entry.title, placeWords(entry.place), entry.label].filter(Boolean).join(" · ");
  }

  function copy(entry, button) {
    var text = copyText(entry);
    var done = function () {
      button.textContent = words("copied");
      window.setTimeout(function () { button.textContent = words("copy"); }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { copyByHand(text, done); });
    } else {
      copyByHand(text, done);
    }
  }

  function copyByHand(text, done) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "vh";
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* the text stays shown on the row */ }
    area.remove();
  }

  /* --- sending ------------------------------------------------------------------------ */

  var flushing = false;
  var retryTimer = null;

  function csrfToken() {
    var input = $('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : null;
  }

  /* the reason of a refusal, in words: the server's, else what the answer's status means here */
  function reasonOf(html, status) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var el = doc.querySelector(".field-errors, .errors, .msg.error, .notice[role=alert]");
    if (el && status !== 404) return el.textContent.replace(/\s+/g, " ").trim();
    if (status === 404 || status === 410) return words("gone");
    if (status === 403) return words("forbidden");
    return words("failed");
  }

  /* what kind of refusal an answer is (the server says it in X-Refused; a form's errors: the engine) */
  function refusalOf(response, status) {
    var said = response.headers.get("X-Refused");
    if (said) return said;
    if (status === 401) return "login";
    if (status === 404 || status === 410) return "gone";
    if (status === 403) return "forbidden";
    return "engine";
  }

  function refuse(entry, refusal, reason) {
    entry.status = refusal === "login" ? "login" : "refused";
    entry.refusal = refusal;
    if (refusal === "login") reason = words("login");
    else if (refusal === "gone" && !reason) reason = words("gone");
    entry.reason = reason;
  }

  /* the evening's version a recorded (or discarded) line leaves: the next line of the same evening
     entered behind it is checked against it */
  function chain(queue, index, version) {
    var entry = queue[index];
    for (var j = index + 1; j < queue.length; j += 1) {
      if (queue[j].evening !== entry.evening) continue;
      if (queue[j].version === null || queue[j].version === undefined) queue[j].version = version;
      return;
    }
  }

  /* a line is sent only after every line saved before it in its evening (never out of order); a
     refusal in one evening holds nothing of another */
  function held(queue, entry) {
    var at = queue.indexOf(entry);
    return queue.some(function (e, i) { return i < at && e.evening === entry.evening && e.status !== "waiting"; });
  }

  function nextToSend(queue) {
    return queue.find(function (e) { return e.status === "waiting" && !held(queue, e); });
  }

  function flush() {
    if (flushing || !navigator.onLine) return;
    if (!nextToSend(load())) return;
    flushing = true;
    var sent = 0;
    var stopped = false;
    var token = csrfToken();

    /* ``done``: nothing was left to send when it looked (not a failure): a line confirmed or saved
       meanwhile, while this run was under way, is sent now rather than at the next retry */
    function finish(done) {
      flushing = false;
      if (done && nextToSend(load())) return flush();
      var b = board();
      if ((sent || stopped) && b && window.htmx) {
        htmx.ajax("GET", b.dataset.boardUrl, { target: "#board", swap: "outerHTML" }).then(function () {
          if (sent && !waiting(b.dataset.evening).length) notice(words("sent"));
        });
      }
      renderQueue();
      if (load().some(function (e) { return e.status === "waiting"; })) scheduleRetry();
    }

    function step() {
      var entry = nextToSend(load());
      if (!entry) return finish(true);
      var params = new URLSearchParams(entry.body);
      if (token) params.set("csrfmiddlewaretoken", token);
      if (entry.version !== null && entry.version !== undefined && params.has("evening_version")) {
        params.set("evening_version", String(entry.version));
      }
      fetch(entry.url, {
        method: "POST",
        body: params,
        credentials: "same-origin",
        headers: { "HX-Request": "true", "X-Requested-With": "XMLHttpRequest" },
      }).then(function (response) {
        return response.text().then(function (text) {
          var queue = load();
          var i = queue.findIndex(function (e) { return e.id === entry.id; });
          if (i === -1) return step(); // discarded meanwhile
          var status = response.status;
          var version = Number(response.headers.get("X-Evening-Version"));
          if (response.headers.has("X-Evening-Version")) seen(entry.evening, version);
          if (response.redirected && /\/accounts\/login\//.test(response.url)) {
            refuse(queue[i], "login", "");
          } else if (response.headers.get("HX-Redirect")) { // the evening was deleted meanwhile
            refuse(queue[i], "gone", "");
          } else if (response.ok) {
            if (response.headers.has("X-Evening-Version")) chain(queue, i, version);
            queue.splice(i, 1);
            store(queue);
            sent += 1;
            return step();
          } else if (status === 409 && response.headers.has("X-Evening-Version")) {
            // the evening moved since this deal was entered: the scorer chooses, nothing is placed
            queue[i].status = "conflict";
            queue[i].moved = false;
            queue[i].reason = reasonOf(text, status);
            queue[i].now = null;
          } else if (status >= 400 && status < 500) {
            refuse(queue[i], refusalOf(response, status), reasonOf(text, status));
          } else {
            return finish(); // the server failed: try again later
          }
          store(queue);
          stopped = true;
          return step(); // the other evenings' lines go on
        });
      }).catch(function () { finish(); });
    }
    step();
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = window.setTimeout(function () { retryTimer = null; flush(); }, 10000);
  }

  /* after a login (or a new page with a fresh token), what waited for it is sent */
  function resume() {
    var signedIn = document.body && document.body.dataset.signedIn === "1";
    var queue = load();
    var changed = false;
    queue.forEach(function (entry) {
      if ((entry.status === "login" && (signedIn || board())) || (entry.status === "refused" && entry.refusal === "csrf")) {
        entry.status = "waiting";
        entry.refusal = "";
        entry.reason = "";
        changed = true;
      }
    });
    if (changed) store(queue);
  }

  function queueAction(action, id, button, retried) {
    var queue = load();
    var i = queue.findIndex(function (e) { return e.id === id; });
    if (i === -1) return;
    var entry = queue[i];
    if (action === "copy") return copy(entry, button);
    if (action === "resend") { // the place confirmed: recorded there, the server checks it again
      var places = checkPlaces(entry.evening);
      var now = places[waiting(entry.evening).findIndex(function (e) { return e.id === id; })];
      if (!places.trusted && board() && window.htmx && !retried) {
        // the board is older than the server's last answer: read it again, then confirm the place
        // the scorer tapped if it is still where the deal goes
        htmx.ajax("GET", board().dataset.boardUrl, { target: "#board", swap: "outerHTML" }).then(function () {
          queueAction(action, id, button, true);
        });
        return;
      }
      if (!places.trusted || (retried && button && button.dataset.number && now && String(now.number) !== button.dataset.number)) {
        return renderQueue(); // the place moved again: the row says where it goes now
      }
      queue = load();
      entry = queue[i];
      var body = new URLSearchParams(entry.body);
      if (now && now.dealer) {
        entry.place = { number: now.number, dealer: now.dealer, out: now.out };
        if (body.has("deal_number")) {
          body.set("deal_number", String(now.number));
          body.set("dealer", now.dealer);
        }
      }
      var first = queue.findIndex(function (e) { return e.evening === entry.evening; }) === i;
      if (first && board()) entry.version = Number(board().dataset.version);
      entry.body = body.toString();
      entry.status = "waiting";
      entry.moved = false;
      entry.reason = "";
      store(queue);
      renderQueue();
      flush();
      return;
    }
    if (action === "correct" && entry.kind !== "correction") {
      // corrected in its form, in its place: what waits behind it is held until it is saved or discarded
      var form = entry.kind === "line" ? $('#board form[action="' + entry.url + '"]') : document.getElementById("record");
      if (!form) {
        // the board shows no form (the evening was closed when it was refused): read it again once
        var b = board();
        if (b && window.htmx && !retried) {
          htmx.ajax("GET", b.dataset.boardUrl, { target: "#board", swap: "outerHTML" }).then(function () {
            queueAction(action, id, button, true);
          });
        } else {
          notice(entry.reason, "error");
        }
        return;
      }
      entry.status = "correcting";
      entry.draft = entry.body;
      store(queue);
      prefill(form, entry.body);
      var details = form.closest("details");
      if (details) details.open = true;
      window.scrollTo(0, 0);
      renderQueue();
      return;
    }
    if (entry.version !== null && entry.version !== undefined) chain(queue, i, entry.version);
    queue.splice(i, 1);
    store(queue);
    if (action === "correct") { // a correction of an earlier deal: back on its own page
      sessionStorage.setItem(PREFILL_KEY, JSON.stringify(entry));
      location.href = entry.url;
      return;
    }
    if (entry.status === "correcting" && document.getElementById("record")) resetForm(document.getElementById("record"));
    renderQueue();
    flush();
  }

  /* the corrected line goes back in its place in the queue (a form that saves a line being corrected) */
  function corrected(form, body) {
    var queue = load();
    var evening = eveningId();
    var url = form.getAttribute("hx-post") || form.action;
    var entry = queue.find(function (e) { return e.evening === evening && e.status === "correcting" && e.url === url; });
    if (!entry) return false;
    var what = describe(form, new URLSearchParams(body));
    var keep = new URLSearchParams(entry.body);
    var params = new URLSearchParams(body);
    // the same deal in the same place: its key, and what it was entered against
    ["request_key", "evening_version", "deal_number", "dealer"].forEach(function (name) {
      if (keep.has(name)) params.set(name, keep.get(name));
    });
    entry.body = params.toString();
    entry.label = what.label;
    entry.kind = what.kind;
    entry.status = "waiting";
    entry.refusal = "";
    entry.reason = "";
    delete entry.draft;
    store(queue);
    resetForm(form);
    return true;
  }

  /* the form as the scorer leaves it while correcting: a reload brings it back as it was */
  function keepDraft(form) {
    if (!form || form.id !== "record") return;
    var queue = load();
    var evening = eveningId();
    var entry = queue.find(function (e) { return e.evening === evening && e.status === "correcting" && e.kind !== "correction"; });
    if (!entry) return;
    entry.draft = new URLSearchParams(new FormData(form)).toString();
    store(queue);
  }

  document.addEventListener("change", function (event) { keepDraft(event.target.closest("#record")); });
  document.addEventListener("input", function (event) { keepDraft(event.target.closest("#record")); });
  // the steppers change a field's value without a change event of their own
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-step]")) keepDraft(event.target.closest("#record"));
  });

  /* a reload while a waiting deal was being corrected: back in the form as the scorer left it */
  function restoreCorrection() {
    var form = document.getElementById("record");
    var evening = eveningId();
    if (!form || !evening || !board()) return;
    var entry = waiting(evening).find(function (e) { return e.status === "correcting" && e.kind !== "correction"; });
    if (entry) prefill(form, entry.draft || entry.body);
  }

  function prefill(form, body) {
    var params = new URLSearchParams(body);
    $all('input[type="radio"], input[type="checkbox"]', form).forEach(function (i) {
      if (i.name !== "honours") i.checked = false;
    });
    params.forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken" || name === "request_key" || name === "version") return;
      $all('[name="' + CSS.escape(name) + '"]', form).forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === value) input.checked = true;
        } else if (input.type !== "hidden") {
          input.value = value;
        }
      });
    });
    var more = $(".more-contracts", form);
    var contract = checkedContract(form);
    if (more && contract && more.contains(contract)) more.open = true;
    syncAll(form.parentElement);
    arm();
  }

  /* the correction page: a correction saved from the queue is put back in its form */
  function prefillCorrection() {
    var raw = sessionStorage.getItem(PREFILL_KEY);
    var form = $("form.record[data-evening-url]");
    if (!raw || !form) return;
    sessionStorage.removeItem(PREFILL_KEY);
    try { prefill(form, JSON.parse(raw).body); } catch (e) { /* nothing to put back */ }
  }

  /* every form posts through here first: guard, queue when offline (or behind waiting lines) */
  var lastSubmit = null;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "record" && guarded() && !(event.submitter && event.submitter.name === "claim")) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    if (!queueable(form)) { lastSubmit = null; return; }
    var b = board();
    if (form.id === "record" && b && form.elements.evening_version) form.elements.evening_version.value = b.dataset.version;
    var body = new URLSearchParams(new FormData(form, event.submitter)).toString();
    var evening = eveningId();
    if (corrected(form, body)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      afterQueued(form);
      return;
    }
    if (!navigator.onLine || (evening && waiting(evening).length)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      enqueue(form, body);
      afterQueued(form);
      return;
    }
    lastSubmit = { form: form, body: body };
  }, true);

  function afterQueued(form) {
    if (!board() && form.dataset.eveningUrl) {
      location.href = form.dataset.eveningUrl; // the correction waits on the scoring page
      return;
    }
    renderQueue();
    if (!navigator.onLine) notice(words("offline"));
    announce();
    flush();
  }

  document.addEventListener("htmx:sendError", function () {
    // the network dropped during the request: keep what was sent, in order
    if (lastSubmit && document.body.contains(lastSubmit.form)) {
      enqueue(lastSubmit.form, lastSubmit.body);
      afterQueued(lastSubmit.form);
    } else {
      notice(words("nonet"), "error");
    }
    lastSubmit = null;
  });

  /* the evening moved since the deal was entered (409): the board as it is now, the deal back in
     the form with both places in words; saving again records it as the next deal */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 409 && event.detail.target && event.detail.target.id === "board") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var status = xhr.status;
    if (status < 500 && lastSubmit && document.body.contains(lastSubmit.form)) {
      // refused where the words cannot be shown on the board (logged out, the evening gone, no
      // longer this phone's): kept on this phone as a refused line, with the reason and what to do
      var entry = enqueue(lastSubmit.form, lastSubmit.body);
      var queue = load();
      var kept = queue.find(function (e) { return e.id === entry.id; });
      var said = xhr.getResponseHeader("X-Refused");
      refuse(kept, said || (status === 401 ? "login" : status === 404 || status === 410 ? "gone" : status === 403 ? "forbidden" : "engine"), reasonOf(xhr.responseText || "", status));
      store(queue);
      lastSubmit = null;
      renderQueue();
      announce();
      return;
    }
    if (status === 401) return notice(words("login"), "error");
    notice(status === 404 || status === 410 ? words("gone") : status === 403 ? words("forbidden") : words("failed"), "error");
  });

  /* --- after every answer of the server --------------------------------------------- */

  function snapshot() {
    var b = board();
    if (!b) return;
    try {
      localStorage.setItem(BOARD_KEY + b.dataset.evening, JSON.stringify({ version: Number(b.dataset.version), html: b.outerHTML }));
    } catch (e) { /* storage full: the service worker's copy of the page will do */ }
  }

  /* a page read from the service worker's cache may be older than the last board seen */
  function restoreSnapshot() {
    var b = board();
    if (!b) return;
    var saved;
    try { saved = JSON.parse(localStorage.getItem(BOARD_KEY + b.dataset.evening)); } catch (e) { saved = null; }
    if (!saved || saved.version <= Number(b.dataset.version)) return;
    var holder = document.createElement("div");
    holder.innerHTML = saved.html;
    var newer = holder.firstElementChild;
    if (!newer || newer.id !== "board") return;
    $all(".notices .msg, .notices .undo", newer).forEach(function (el) { if (el.id !== "queue-note") el.remove(); });
    b.replaceWith(newer);
    if (window.htmx) htmx.process(newer);
  }

  /* the page tells the server which version of the evening it shows: a line recorded on top of it
     is answered with what changed only (swapped out of band), the form kept in place */
  document.addEventListener("htmx:configRequest", function (event) {
    var b = board();
    if (b && event.detail.target === b) event.detail.headers["X-Board-Version"] = b.dataset.version;
  });

  /* htmx enables what it disabled during a request (hx-disabled-elt) once the answer is swapped in:
     a Save kept in place by a small answer stays disarmed */
  document.addEventListener("htmx:afterRequest", function () {
    if (guarded()) saveButton().disabled = true;
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    // once per answer: on the board that was swapped in, or kept (a small answer: HX-Reswap none)
    if (!target || target.id !== "board" || event.target !== board()) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 200;
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var kept = Boolean(xhr && xhr.getResponseHeader("HX-Reswap") === "none" && elt && elt.isConnected);
    if (kept) {
      var next = document.getElementById("next");
      if (next) board().dataset.version = next.dataset.version;
      resetForm(elt);
    }
    syncAll(document);
    if (status < 300) {
      seen(board().dataset.evening, Number(board().dataset.version));
      snapshot();
      if (elt && elt.id === "record") {
        disarm(); // a second tap records nothing until a new choice
        window.scrollTo(0, 0);
      }
    }
    renderQueue();
    announce();
    lastSubmit = null;
  });

  /* --- keep the screen awake (Wake Lock API), re-acquired when the page is visible again */
  var lock = null;
  var wanted = localStorage.getItem("scorebook-wake") === "1";
  function wakeButton() { return document.getElementById("wake"); }
  function showWake() {
    var button = wakeButton();
    if (!button || !("wakeLock" in navigator)) return;
    button.hidden = false;
    button.setAttribute("aria-pressed", wanted ? "true" : "false");
  }
  function acquire() {
    if (!wanted || document.visibilityState !== "visible" || !("wakeLock" in navigator)) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused: the button still says what was asked */ });
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest("#wake")) return;
    wanted = !wanted;
    localStorage.setItem("scorebook-wake", wanted ? "1" : "0");
    if (wanted) acquire();
    else if (lock) lock.release();
    showWake();
  });
  document.addEventListener("visibilitychange", acquire);
  document.addEventListener("htmx:afterSwap", showWake);

  /* --- start ------------------------------------------------------------------------ */
  restoreSnapshot();
  syncAll(document);
  prefillCorrection();
  resume();
  restoreCorrection();
  renderQueue();
  if (board()) snapshot();
  showWake();
  acquire();
  window.addEventListener("online", function () {
    // the network is back: the "No network" notice goes, the waiting deals are sent
    $all("#notices .msg.js-notice").forEach(function (el) { el.remove(); });
    flush();
  });
  // another tab of this phone changed the queue (sent, discarded, saved): shown here too
  window.addEventListener("storage", function (event) { if (event.key === QUEUE_KEY) renderQueue(); });
  if (navigator.onLine) flush();

  /* The service worker, from every page. On the first visit the page came before the worker: it
     asks the worker to keep it, which takes it from the browser's cache (never downloaded twice);
     afterwards the worker keeps each page as it passes. */
  var worker = document.body && document.body.dataset.sw;
  if ("serviceWorker" in navigator && worker) {
    var controlled = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.register(worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (!controlled && registration.active) registration.active.postMessage({ type: "keep", url: location.pathname });
    }).catch(function () { /* no offline copy: the page still works online */ });
  }
})();
