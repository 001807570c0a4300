/* Cardsite's service worker (tabletop/offline.py says what it does and why). */
"use strict";
const VERSION = "__VERSION__";
const PRECACHE = "cardsite-static-" + VERSION;
const PAGES = "cardsite-pages";
const IMAGES = "cardsite-images";
const PRECACHE_URLS = {{ precache|safe }};
const OFFLINE_URL = {{ offline_url|safe }};

// Precached without cookies: every page sends the CSRF cookie back as it received it, so an
// answer that came after the reader signed in (a new secret) would put the old one back.
self.addEventListener("install", (event) => {
  const requests = PRECACHE_URLS.map((url) => new Request(url, { credentials: "omit" }));
  event.waitUntil(
    caches.open(PRECACHE).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("cardsite-static-") && k !== PRECACHE).map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

// A redirected response cannot answer a navigation: the same body, not redirected.
function clean(response) {
  if (!response || !response.redirected) return response;
  return response.blob().then((body) => new Response(body, {
    status: response.status, statusText: response.statusText, headers: response.headers,
  }));
}

function kept(request) {
  return caches.match(request, { ignoreVary: true }).then(clean);
}

// Keep at most `max` entries of a cache, the oldest going first.
function trim(name, max) {
  return caches.open(name).then((cache) => cache.keys().then((keys) => {
    if (keys.length <= max) return undefined;
    return Promise.all(keys.slice(0, keys.length - max).map((k) => cache.delete(k)));
  }));
}

function keep(name, max, request, response) {
  if (!response || !response.ok || response.type !== "basic") return;
  const copy = response.clone();
  caches.open(name).then((cache) => cache.put(request, copy)).then(() => trim(name, max));
}

const REFUSED = "You are offline: this change was not sent and nothing was saved. "
  + "Make it again when the signal returns.";

// The page a form sent without a signal gets: nothing was saved.
function refused() {
  const page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
    + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    + "<title>Not sent · Cardsite</title></head><body><main><h1>Not sent</h1><p>" + REFUSED
    + "</p><p><a href=\"" + OFFLINE_URL + "\">What is readable offline</a></p></main></body></html>";
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // A change is never kept nor replayed. A form sent as a page: sent now, or refused
    // with a page saying so; any other (htmx, the API) goes to the network untouched, and
    // static/js/offline.js says why it failed.
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(refused));
    return;
  }
  if (url.pathname === "/sw.js") return;
  if (request.mode === "navigate") {
    // Network first: the page as it is now, kept; without a signal the kept copy.
    event.respondWith(
      fetch(request)
        .then((response) => { keep(PAGES, {{ pages_kept }}, request, response); return response; })
        .catch(() => kept(request).then((hit) => hit || kept(OFFLINE_URL)))
    );
    return;
  }
  if (PRECACHE_URLS.includes(url.pathname)) {
    event.respondWith(kept(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (url.pathname.endsWith("/image.png") && url.searchParams.has("v")) {
    // Cache first: an image's address changes with its card.
    event.respondWith(kept(request).then((hit) => hit || fetch(request).then((response) => {
      keep(IMAGES, {{ images_kept }}, request, response);
      return response;
    })));
    return;
  }
  if (request.headers.get("HX-Request")) {
    // A piece of a page: now or, without a signal, a clear word (never a kept copy).
    event.respondWith(fetch(request).catch(() => new Response(
      "<p class=\"notice\">You are offline.</p>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
    )));
    return;
  }
  event.respondWith(fetch(request).catch(() => kept(request).then((hit) => hit || Response.error())));
});
