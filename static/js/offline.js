// The site without a signal (tabletop/offline.py): registers the service worker, says when
// the device is offline, refuses a change made offline before it is sent (keeping the form
// as typed), lists on the offline page the decks taken to the table, and forgets what this
// device kept when its user signs out.
(function () {
  "use strict";
  var MESSAGE = "Not sent: you are offline, so nothing was saved. What you entered is still " +
    "here; send it again when the signal returns.";

  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () {});
    });
  }

  function banner() {
    var el = document.getElementById("offline-banner");
    if (!navigator.onLine) {
      if (el) return;
      var main = document.querySelector("main");
      if (!main) return;
      el = document.createElement("p");
      el.id = "offline-banner";
      el.className = "notice offline-banner";
      el.setAttribute("role", "status");
      el.textContent = "No signal: you are reading what this device kept. Changes are not " +
        "sent until the signal returns.";
      main.insertBefore(el, main.firstChild);
    } else if (el) {
      el.remove();
    }
  }
  window.addEventListener("online", banner);
  window.addEventListener("offline", banner);
  document.addEventListener("DOMContentLoaded", banner);

  function refuse(near) {
    var note = near.nextElementSibling;
    if (!note || !note.classList.contains("offline-refused")) {
      note = document.createElement("p");
      note.className = "notice offline-refused";
      note.setAttribute("role", "alert");
      near.parentNode.insertBefore(note, near.nextSibling);
    }
    note.textContent = MESSAGE;
  }

  function forgetKept() {
    if (!("caches" in window)) return;
    caches.keys().then(function (keys) {
      keys.filter(function (k) {
        return k === "cardsite-pages" || k.indexOf("cardsite-table") === 0;
      }).forEach(function (k) { caches.delete(k); });
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var method = (form.getAttribute("method") || "get").toLowerCase();
    if (method === "get") return;
    if (!navigator.onLine) {
      event.preventDefault();
      event.stopImmediatePropagation();
      refuse(form);
      return;
    }
    if (/\/accounts\/logout\/$/.test(form.action)) forgetKept();
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine) return;
    var config = event.detail && event.detail.requestConfig;
    var verb = config && config.verb ? String(config.verb).toLowerCase() : "get";
    if (verb === "get") return;
    event.preventDefault();
    refuse(event.detail.elt);
  });

  // A change that left while the device thought it had a signal, and found none.
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail && event.detail.requestConfig;
    var verb = config && config.verb ? String(config.verb).toLowerCase() : "get";
    if (verb !== "get" && event.detail.elt) refuse(event.detail.elt);
  });

  // The offline page: the decks kept for the table on this device.
  document.addEventListener("DOMContentLoaded", function () {
    var list = document.getElementById("kept-decks");
    if (!list || !("caches" in window)) return;
    caches.open("cardsite-table-index").then(function (index) {
      return index.keys().then(function (keys) {
        return Promise.all(keys.map(function (k) {
          return index.match(k).then(function (r) { return r.json(); });
        }));
      });
    }).then(function (items) {
      if (!items.length) return;
      list.textContent = "";
      items.forEach(function (item) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = item.url;
        a.textContent = item.title;
        li.appendChild(a);
        var when = document.createElement("small");
        when.className = "muted";
        when.textContent = " kept " + String(item.kept).slice(0, 10) + ", " + item.count +
          " pages and images";
        li.appendChild(when);
        list.appendChild(li);
      });
    });
  });
})();
