// "Take to the table" (play/table.py): keep this page and every address it lists in the
// browser's cache, so that the service worker answers them without a signal; then say what
// was kept. Nothing here computes anything of a game: the page brings its tables drawn.
(function () {
  "use strict";
  var source = document.getElementById("table-keep");
  var status = document.getElementById("table-progress");
  if (!source || !status) return;
  var data = JSON.parse(source.textContent);
  if (!("caches" in window) || !("serviceWorker" in navigator)) {
    status.textContent = "This browser cannot keep pages for use without a signal: " +
      "download the documents below instead.";
    status.setAttribute("data-state", "unsupported");
    return;
  }
  var name = "cardsite-table-" + data.deck;
  var urls = data.urls.filter(function (u, i) { return data.urls.indexOf(u) === i; });
  var done = 0;
  var failed = [];

  if (!navigator.onLine) {
    // Read from what this device kept: nothing to fetch, and nothing kept is dropped.
    caches.open("cardsite-table-index")
      .then(function (index) { return index.match("/offline/kept/" + data.deck); })
      .then(function (hit) { return hit ? hit.json() : null; })
      .then(function (entry) {
        status.textContent = entry
          ? "No signal: this deck as kept on this device on " + String(entry.kept).slice(0, 10) + "."
          : "No signal: this deck is not kept on this device.";
        status.setAttribute("data-state", entry ? "kept" : "unsupported");
      });
    return;
  }

  // Each address fetched now replaces its kept copy only once it has arrived: a refresh
  // that fails half way leaves the deck readable as it was kept before.
  function fetchInto(cache) {
    var next = 0;
    function one() {
      if (next >= urls.length) return Promise.resolve();
      var url = urls[next++];
      return fetch(url, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return cache.put(url, response);
        })
        .catch(function () { failed.push(url); })
        .then(function () {
          done += 1;
          status.textContent = "Keeping this deck for the table… " + done + " of " + urls.length;
          return one();
        });
    }
    return Promise.all([one(), one(), one(), one()]).then(function () { return cache; });
  }

  // Once every address arrived, what the deck no longer lists (a card taken out) goes.
  function dropStale(cache) {
    if (failed.length) return Promise.resolve();
    var wanted = urls.map(function (u) { return new URL(u, location.href).href; });
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return wanted.indexOf(k.url) < 0; })
        .map(function (k) { return cache.delete(k); }));
    });
  }

  navigator.serviceWorker.register("/sw.js")
    .then(function () { return navigator.serviceWorker.ready; })
    .then(function () { return caches.open(name); })
    .then(fetchInto)
    .then(dropStale)
    .then(function () { return caches.open("cardsite-table-index"); })
    .then(function (index) {
      var entry = {
        title: data.title, url: data.url, kept: new Date().toISOString(),
        count: urls.length - failed.length,
      };
      return index.put("/offline/kept/" + data.deck, new Response(JSON.stringify(entry), {
        headers: { "Content-Type": "application/json" },
      }));
    })
    .then(function () {
      if (failed.length) {
        status.textContent = "Kept " + (urls.length - failed.length) + " of " + urls.length +
          " pages, documents and images; " + failed.length + " could not be fetched: " +
          "open this page again with a better signal.";
        status.setAttribute("data-state", "partial");
      } else {
        status.textContent = "Kept on this device: this page, the deck, its cards' pages and " +
          "images, its sheets and proxies (" + urls.length + " in all). They read without " +
          "a signal.";
        status.setAttribute("data-state", "kept");
      }
    })
    .catch(function (error) {
      status.textContent = "Not kept: " + error + ". The documents below can still be downloaded.";
      status.setAttribute("data-state", "failed");
    });
})();
