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

// Taps and quick-add lines made while the builder's last change is on its way are sent, in
// order, once its answer is in. htmx would queue them (hx-sync "queue all" on #builder) but
// drops a queued request whose element the answer replaced (the tapped row is drawn again),
// so a quick second "+" on a slow connection was lost. A tap is known again by its row and
// its label.
//
// Quick add: Enter takes the line out of the box at once (the box is empty and keeps the
// focus, ready for the next name) and queues it; each line is sent once the answer before
// it is in, from the page as that answer left it (its version, the section a header line
// named). A line the server refuses is listed under the box until the next line is typed
// after the queue has emptied, and the box gets it back when nothing else was typed since.
// What is being typed in the box while an answer redraws the deck panel is carried over.
(function () {
  "use strict";
  var inFlight = new Set();
  var waiting = [];
  var replaying = false;
  var sentLine = null; // the quick-add line of the request in flight
  var refused = []; // the lines refused since the queue was last empty: [line, why]

  function inBuilder(elt) {
    return !!(elt && elt.closest && elt.closest("#builder"));
  }

  function linesWaiting() {
    return waiting.filter(function (item) { return item.line !== undefined; }).length
      + (sentLine !== null ? 1 : 0);
  }

  // Under the box: how many lines are still to be added, and those refused.
  function showQueue() {
    var box = document.getElementById("quick-add-queue");
    if (!box) return;
    var n = linesWaiting();
    var parts = [];
    if (n) parts.push(n === 1 ? "Adding 1 line…" : "Adding " + n + " lines…");
    if (refused.length) {
      parts.push((refused.length === 1 ? "Not added: " : refused.length + " lines not added: ")
        + refused.map(function (r) { return "“" + r[0] + "” (" + r[1] + ")"; }).join("; "));
    }
    box.textContent = parts.join(" ");
    box.classList.toggle("b-error", refused.length > 0);
    box.classList.toggle("muted", !refused.length);
  }

  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail && event.detail.elt;
    if (replaying || !elt || elt.id !== "quick-add-form") return;
    var box = document.getElementById("quick-add");
    if (!box) return;
    event.preventDefault();
    var line = box.value;
    box.value = "";
    var busy = inFlight.size || waiting.length;
    if (!line.trim() && busy) return; // an extra Enter while lines are on their way
    if (!busy) refused = [];
    waiting.push({ line: line });
    showQueue();
    if (!busy) setTimeout(next, 0);
  });

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

  function sendLine(line) {
    var form = document.getElementById("quick-add-form");
    if (!form) return false;
    sentLine = line;
    replaying = true;
    try {
      htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, values: { name: line } });
    } finally {
      replaying = false;
    }
    return true;
  }

  function sendTap(tap) {
    var holder = document.getElementById(tap.holder);
    var buttons = holder ? holder.querySelectorAll(".b-btn[aria-label]") : [];
    var button = null;
    for (var i = 0; i < buttons.length && !button; i++) {
      if (buttons[i].getAttribute("aria-label") === tap.label) button = buttons[i];
    }
    if (!button) return false; // the row has gone (its last copy was taken out)
    // Sent from the button as a click would send it (its values, target and swap), but
    // through htmx.ajax: the answer's new rows are bound by htmx only once they settle.
    var verb = button.hasAttribute("hx-post") ? "POST" : "GET";
    replaying = true;
    try {
      htmx.ajax(verb, button.getAttribute("hx-" + verb.toLowerCase()), { source: button });
    } finally {
      replaying = false;
    }
    return true;
  }

  function next() {
    if (inFlight.size) return;
    while (waiting.length) {
      var item = waiting.shift();
      if (item.line !== undefined) sendLine(item.line);
      else sendTap(item);
      if (inFlight.size) break;
    }
    showQueue();
  }

  // The answer to a quick-add line (its swap is done by now): a refused line is kept, with
  // what the deck heading says of it.
  function answered(event) {
    var line = sentLine;
    sentLine = null;
    if (!line.trim()) return;
    var why = null;
    if (event.type !== "htmx:afterRequest") why = "the server could not be reached";
    else if (!event.detail.successful) {
      why = event.detail.xhr.status ? "the server refused it" : "the server could not be reached";
    } else {
      var error = document.querySelector("#deck-head .b-error, #deck-head .b-conflict");
      if (error) why = error.textContent.trim();
    }
    if (!why) return;
    refused.push([line.trim(), why]);
    var box = document.getElementById("quick-add");
    if (box && !box.value && !waiting.length) box.value = line;
  }

  function done(event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || !inFlight.delete(xhr)) return;
    if (sentLine !== null) answered(event);
    showQueue();
    if (inFlight.size || !waiting.length) return;
    // After htmx has released its own request lock (it does once this event has run).
    setTimeout(next, 0);
  }
  ["htmx:afterRequest", "htmx:sendError", "htmx:timeout", "htmx:sendAbort"].forEach(function (name) {
    document.addEventListener(name, done);
  });

  // What is being typed in the box survives an answer that draws the deck panel again.
  var typing = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var box = document.getElementById("quick-add");
    typing = box ? {
      el: box,
      value: box.value,
      focused: document.activeElement === box,
      start: box.selectionStart,
      end: box.selectionEnd
    } : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var was = typing;
    typing = null;
    showQueue();
    var box = document.getElementById("quick-add");
    if (!was || !box || box === was.el) return;
    if (was.value && !box.value) box.value = was.value;
    if (was.focused) {
      box.focus();
      try { box.setSelectionRange(was.start, was.end); } catch (e) { /* not a text box */ }
    }
  });
})();

// The collection panel ("Your cards") counts the list again after each change the server
// saved (the answer's "deck-saved" event; the panel's own request follows it); until then
// it says it is out of date.
(function () {
  "use strict";
  document.addEventListener("deck-saved", function () {
    var panel = document.getElementById("builder-availability");
    if (!panel) return;
    panel.setAttribute("aria-busy", "true");
    var note = document.getElementById("availability-stale");
    if (!note) {
      note = document.createElement("p");
      note.id = "availability-stale";
      note.className = "muted small";
      note.textContent = "The deck changed: counting your cards again…";
      panel.insertBefore(note, panel.firstChild);
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var panel = document.getElementById("builder-availability");
    if (panel && event.detail && event.detail.target === panel) panel.removeAttribute("aria-busy");
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
