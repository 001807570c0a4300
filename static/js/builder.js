// The builder's keyboard quick-add: after the deck panel is swapped in, the cursor goes back
// to the quick-add box when the change came from it, so names can be typed one after another.
(function () {
  "use strict";
  var fromQuickAdd = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail && event.detail.elt;
    fromQuickAdd = !!(source && source.id === "quick-add-form");
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!fromQuickAdd) return;
    fromQuickAdd = false;
    var box = document.getElementById("quick-add");
    if (box) box.focus();
  });
})();

// Leaving the builder seals the working version, as "Save version" does: the next visit
// starts a new version instead of rewriting this one.
(function () {
  "use strict";
  window.addEventListener("pagehide", function () {
    var form = document.getElementById("seal-form");
    if (!form || form.getAttribute("data-working") !== "1" || !navigator.sendBeacon) return;
    navigator.sendBeacon(form.getAttribute("data-seal-url"), new FormData(form));
  });
})();

// Taps made while the builder's last change is on its way are sent, in order, once its
// answer is in. htmx would queue them (hx-sync "queue all" on #builder) but drops a queued
// request whose element the answer replaced (the tapped row is drawn again), so a quick
// second "+" on a slow connection was lost. A tap is known again by its row and its label.
(function () {
  "use strict";
  var inFlight = new Set();
  var waiting = [];
  var replaying = false;

  function inBuilder(elt) {
    return !!(elt && elt.closest && elt.closest("#builder"));
  }

  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail && event.detail.elt;
    if (replaying || !inBuilder(elt) || !elt.classList.contains("b-btn")) return;
    if (!inFlight.size && !waiting.length) return;
    var label = elt.getAttribute("aria-label");
    var holder = elt.parentElement && elt.parentElement.closest("[id]");
    if (!label || !holder) return;
    event.preventDefault();
    waiting.push({ holder: holder.id, label: label });
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (inBuilder(event.detail && event.detail.elt)) inFlight.add(event.detail.xhr);
  });

  function next() {
    if (inFlight.size) return;
    while (waiting.length) {
      var tap = waiting.shift();
      var holder = document.getElementById(tap.holder);
      var buttons = holder ? holder.querySelectorAll(".b-btn[aria-label]") : [];
      var button = null;
      for (var i = 0; i < buttons.length && !button; i++) {
        if (buttons[i].getAttribute("aria-label") === tap.label) button = buttons[i];
      }
      if (!button) continue; // the row has gone (its last copy was taken out)
      // Sent from the button as a click would send it (its values, target and swap), but
      // through htmx.ajax: the answer's new rows are bound by htmx only once they settle.
      var verb = button.hasAttribute("hx-post") ? "POST" : "GET";
      replaying = true;
      try {
        htmx.ajax(verb, button.getAttribute("hx-" + verb.toLowerCase()), { source: button });
      } finally {
        replaying = false;
      }
      if (inFlight.size) return;
    }
  }

  function done(event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || !inFlight.delete(xhr) || inFlight.size || !waiting.length) return;
    // After htmx has released its own request lock (it does once this event has run).
    setTimeout(next, 0);
  }
  ["htmx:afterRequest", "htmx:sendError", "htmx:timeout", "htmx:sendAbort"].forEach(function (name) {
    document.addEventListener(name, done);
  });
})();

// A picker that saves when it changes (a select whose form, or itself, posts on "change": a
// game's own pickers, a format's options) saves what the keyboard settles on, not each
// option the arrow keys pass on the way (on most systems every arrow key on a closed select
// is a change; each was a save). A change made by a key is held, and sent on Enter or when
// the focus leaves the picker; a pick with the mouse, or from the opened list, is sent at
// once, as before.
(function () {
  "use strict";
  var keyed = null; // the select a key is being pressed on: its change comes during the key
  var held = new Set(); // the selects changed by keys, not sent yet
  var sending = false;

  function saving(el) {
    if (!el || el.tagName !== "SELECT") return false;
    var owner = el.closest("[hx-post]");
    return !!(owner && owner.closest("#builder"));
  }

  function send(el) {
    held.delete(el);
    if (!el.isConnected) return;
    sending = true;
    try {
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } finally {
      sending = false;
    }
  }

  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (!saving(el)) return;
    if (event.key === "Enter") {
      if (held.has(el)) {
        event.preventDefault();
        send(el);
      }
      return;
    }
    keyed = el;
    window.setTimeout(function () { if (keyed === el) keyed = null; }, 0);
  }, true);
  document.addEventListener("keyup", function () { keyed = null; }, true);

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (sending || el !== keyed || !saving(el)) return;
    event.stopImmediatePropagation();
    held.add(el);
  }, true);

  document.addEventListener("focusout", function (event) {
    if (held.has(event.target)) send(event.target);
  }, true);
})();
