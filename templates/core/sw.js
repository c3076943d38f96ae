/* Scorebook's service worker: the installed app and the evenings opened on this phone open with
   no network (at the card table, the hall's Wi-Fi comes and goes).

   What it keeps, in two caches:
   - STATIC_CACHE: the static files of the pages below (listed by the site, under their served
     names, hashed in production), and any other static file as it passes. Its name changes
     with those files: the new worker makes a new one and drops the old ones.
   - PAGES_CACHE: the evening list (the installed app's start page), the page shown for a page
     not kept, and the pages of the last KEPT_EVENINGS evenings opened (the scoring page, a deal's
     correction page, the settlement: who pays whom at the end of an evening in a hall without
     Wi-Fi). Each visit with the network refreshes its copy; no page is ever downloaded twice for
     it (a page seen before the worker ran is taken from the browser's cache).

   How it answers:
   - a page it keeps: the network first (online nothing is ever stale), its copy when the
     network fails (the list and the settlement say they are the copy, and of when); any other
     page with no network: the offline page, never the browser's error;
   - a static file: its copy (a changed file has a new name), else the network;
   - everything else, writes above all, goes to the network untouched: the scoring page keeps
     what it could not send (static/js/scoring.js, in localStorage); logging out drops the
     kept pages (the next person on this phone must not find them).

   Written by hand, without a library (Workbox): the rules above are a hundred lines, and a
   library would be one more file for the phone to fetch and one more cache scheme to follow. */
"use strict";
var STATIC_CACHE = "{{ static_cache }}";
var PAGES_CACHE = "{{ pages_cache }}";
var ASSETS = {{ assets|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
var START_URL = {{ start_url|safe }};
var OFFLINE_URL = {{ offline_url|safe }};
var LOGOUT_URL = {{ logout_url|safe }};
var KEPT_EVENINGS = {{ kept_evenings }};
var LANGUAGE = {{ language|safe }};
var LIST_NOTICE = {{ list_notice|safe }};
var SETTLEMENT_NOTICE = {{ settlement_notice|safe }};
var NOTICES = {{ notices_anchor|safe }};  // where base.html puts the page's notices
var EVENING_PAGE = /^\/e\/(\d+)\/(deals\/\d+\/edit\/|settle\/)?$/;  // the scoring page, a correction, the settlement
var SETTLEMENT_PAGE = /^\/e\/\d+\/settle\/$/;

function isKept(url) {
  return url.origin === self.location.origin && url.search === "" &&
    (url.pathname === START_URL || url.pathname === OFFLINE_URL || EVENING_PAGE.test(url.pathname));
}

/* Keep the copy of a page as the network answered it; a page gone or no longer this person's
   (404, 403, a redirect to the login page) is dropped. */
function store(path, response) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    if (response.ok && !response.redirected && !/no-store/.test(response.headers.get("Cache-Control") || "")) {
      return cache.put(path, stamped(response)).then(function () {
        return EVENING_PAGE.test(path) ? afterEvening(cache, path) : null;
      });
    }
    if (response.status === 404 || response.status === 403 || response.redirected || response.type === "opaqueredirect") {
      return cache.delete(path);
    }
  });
}

/* The copy to keep, with the moment it was kept (X-Kept-At, milliseconds on this phone's clock:
   the order of the evenings opened). */
function stamped(response) {
  var headers = new Headers(response.headers);
  headers.delete("Content-Encoding");  // the body kept is the decoded one
  headers.delete("Content-Length");
  headers.set("X-Kept-At", String(Date.now()));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: headers });
}

function keptAt(response) {
  return Number(response.headers.get("X-Kept-At")) || 0;
}

/* What a copy shows is as of when the server made it (its Date: a copy taken from the browser's
   cache may be older than when it was kept). */
function asOf(response) {
  return Date.parse(response.headers.get("Date") || "") || keptAt(response);
}

/* Fetch a page (with this person's cookies) and keep it; never rejects. ``cache``: "force-cache"
   for a page the browser has just loaded (the first visit, before the worker ran: its copy comes
   from the browser's cache, the page is not downloaded again), the network otherwise. */
function refresh(path, cache) {
  return fetch(path, { credentials: "same-origin", cache: cache || "default" }).then(function (response) {
    return store(path, response);
  }).catch(function () { /* no network: the copy stays */ });
}

/* After an evening's page was kept: the evening list is refreshed when its copy does not link
   to that evening yet (an evening started since the list was last seen), and only the pages of
   the last KEPT_EVENINGS evenings opened stay. */
function afterEvening(cache, path) {
  var evening = "/e/" + EVENING_PAGE.exec(path)[1] + "/";
  var list = cache.match(START_URL).then(function (kept) {
    return kept ? kept.text() : "";
  }).then(function (html) {
    if (html.indexOf('href="' + evening + '"') === -1) return refresh(START_URL);
  });
  var trim = cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      return cache.match(request).then(function (response) {
        var match = EVENING_PAGE.exec(new URL(request.url).pathname);
        return match && response && { request: request, evening: match[1], date: keptAt(response) };
      });
    }));
  }).then(function (pages) {
    var latest = {};  // evening -> the date of its latest copy
    pages.forEach(function (p) { if (p) latest[p.evening] = Math.max(latest[p.evening] || 0, p.date); });
    var kept = Object.keys(latest).sort(function (a, b) { return latest[b] - latest[a]; }).slice(0, KEPT_EVENINGS);
    return Promise.all(pages.filter(function (p) { return p && kept.indexOf(p.evening) === -1; }).map(function (p) {
      return cache.delete(p.request);
    }));
  });
  return Promise.all([list, trim]);
}

self.addEventListener("install", function (event) {
  event.waitUntil(Promise.all([
    caches.open(STATIC_CACHE).then(function (cache) { return cache.addAll(ASSETS); }),
    caches.open(PAGES_CACHE).then(function (cache) { return cache.add(OFFLINE_URL); }),
    refresh(START_URL, "force-cache")  // the evening list, when logged in (from the browser's cache if just seen)
  ]).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    var old = names.filter(function (name) {
      return name.indexOf("scorebook-") === 0 && name !== STATIC_CACHE && name !== PAGES_CACHE;
    });
    // the page's request goes out while the worker starts: no wait added to a navigation
    var preload = self.registration.navigationPreload ? self.registration.navigationPreload.enable() : null;
    return Promise.resolve(preload).then(function () {
      return self.clients.claim();
    }).then(function () {
      return old.length ? upgrade(old) : null;
    });
  }));
});

/* After a new version: the pages kept (by this version or an earlier one, in its own cache)
   name static files of the old version. Each is fetched again; one that cannot be fetched now
   (no network) keeps its copy, and then the old caches stay too, with the files it names;
   otherwise they are dropped. */
function upgrade(old) {
  var pages = {};  // path -> the cache holding its copy
  return Promise.all([PAGES_CACHE].concat(old).map(function (name) {
    return caches.open(name).then(function (cache) { return cache.keys(); }).then(function (requests) {
      requests.forEach(function (request) {
        var url = new URL(request.url);
        if (isKept(url) && !pages[url.pathname]) pages[url.pathname] = name;
      });
    });
  })).then(function () {
    return Promise.all(Object.keys(pages).map(function (path) {
      return fetch(path, { credentials: "same-origin" }).then(function (response) {
        return store(path, response).then(function () { return true; });
      }, function () {
        if (pages[path] === PAGES_CACHE) return false;
        return caches.open(pages[path]).then(function (cache) { return cache.match(path); }).then(function (copy) {
          return copy && caches.open(PAGES_CACHE).then(function (cache) { return cache.put(path, copy); });
        }).then(function () { return false; });
      });
    }));
  }).then(function (renewed) {
    if (renewed.every(Boolean)) return Promise.all(old.map(function (name) { return caches.delete(name); }));
  });
}

self.addEventListener("message", function (event) {
  // a page asks to be kept (it was loaded before this worker ran): from the browser's cache
  var url = event.data && event.data.type === "keep" ? new URL(event.data.url, self.location.origin) : null;
  if (url && isKept(url)) event.waitUntil(refresh(url.pathname, "force-cache"));
});

/* Forget this person's pages (not the offline page: it is nobody's). */
function forget() {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (request) {
        return new URL(request.url).pathname !== OFFLINE_URL;
      }).map(function (request) { return cache.delete(request); }));
    });
  });
}

/* A page as kept (the evening list, a settlement), saying at its top that the network is gone and
   of when the copy is (``notice``, its %(time)s: the moment it was kept). */
function asKept(kept, notice) {
  return kept.text().then(function (html) {
    var at = new Date(asOf(kept));
    var today = at.toDateString() === new Date().toDateString();
    var time = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    var when = at.toLocaleString(LANGUAGE, today ? time : Object.assign({ day: "numeric", month: "short" }, time));
    return new Response(html.replace(NOTICES, NOTICES + notice.replace("%(time)s", when)), {
      status: kept.status, statusText: kept.statusText, headers: kept.headers
    });
  });
}

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  return Promise.resolve(event.preloadResponse).then(function (preloaded) {
    return preloaded || fetch(request);
  }).then(function (response) {
    if (isKept(url)) event.waitUntil(store(url.pathname, response.clone()));
    return response;
  }, function () {
    var match = { cacheName: PAGES_CACHE, ignoreVary: true };
    return (isKept(url) ? caches.match(url.pathname, match) : Promise.resolve()).then(function (kept) {
      if (kept && url.pathname === START_URL) return asKept(kept, LIST_NOTICE);
      if (kept && SETTLEMENT_PAGE.test(url.pathname)) return asKept(kept, SETTLEMENT_NOTICE);
      return kept || caches.match(OFFLINE_URL, match);
    }).then(function (answer) { return answer || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === LOGOUT_URL) {
    event.waitUntil(forget());  // the request itself goes to the network untouched
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          event.waitUntil(caches.open(STATIC_CACHE).then(function (cache) { return cache.put(request, copy); }));
        }
        return response;
      });
    }));
  }
});
