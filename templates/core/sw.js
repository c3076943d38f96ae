/* Scorebook service worker: after one visit the scoring page and its assets load with no
   network. Pages of an evening: the network first, the copy kept here when it fails.
   Static files: the copy kept here at once, refreshed in the background.
   Writes (POST) are never touched: the page keeps what could not be sent (scoring.js). */
"use strict";
var CACHE = "scorebook-{{ version }}";
var ASSETS = {{ assets|safe }};
var KEPT = /^\/e\/\d+\/(deals\/\d+\/edit\/)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("scorebook-") === 0 && k !== CACHE; }).map(function (k) {
      return caches.delete(k);
    }));
  }).then(function () { return self.clients.claim(); }));
});

function keep(request) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  });
}

self.addEventListener("message", function (event) {
  // the page asks to keep itself (its first visit was not yet under this worker)
  if (event.data && event.data.type === "keep" && KEPT.test(event.data.url)) {
    event.waitUntil(keep(new Request(event.data.url, { credentials: "same-origin" })).catch(function () {}));
  }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && KEPT.test(url.pathname)) {
    event.respondWith(keep(request).catch(function () {
      return caches.match(request, { ignoreVary: true }).then(function (hit) { return hit || Response.error(); });
    }));
    return;
  }
  if (url.pathname.indexOf("{{ static_prefix }}") === 0) {
    event.respondWith(caches.match(request).then(function (hit) {
      var fresh = keep(request).catch(function () { return hit; });
      return hit || fresh;
    }));
  }
});
