// Feedback at once, truth from the server. A tap on "+" or "−" (in the deck or in the search
// results) or a count typed in shows the new count and the section's total in the page before
// the server answers; the server's answer then brings the verdict and puts right anything that
// differs (it is the only judge of what is legal: no rule is read here). A change the server
// refuses with an error, or that never reaches it, puts the numbers back and says why.
(function () {
  "use strict";
  var MAX = 99;

  // The values a request sends: the element's hx-vals merged with its ancestors' (a search
  // result names its card once on the row), the nearest winning, as htmx does.
  function vals(elt) {
    var out = {};
    for (var node = elt; node && node.getAttribute; node = node.parentElement) {
      var raw = node.getAttribute("hx-vals");
      if (!raw) continue;
      try {
        var v = JSON.parse(raw);
        Object.keys(v).forEach(function (k) { if (!(k in out)) out[k] = v[k]; });
      } catch (e) { /* not JSON: nothing to read */ }
    }
    return out;
  }

  function sectionCounter(section) {
    var box = document.querySelector('.b-section[data-section="' + section + '"]');
    return box ? box.querySelector(".b-counter") : null;
  }

  function rowFor(elt, v) {
    var row = elt.closest ? elt.closest(".b-row") : null;
    if (row) return row;
    if (!v.card || !v.section) return null;
    var box = document.querySelector('.b-section[data-section="' + v.section + '"]');
    if (!box) return null;
    var rows = box.querySelectorAll(".b-row");
    for (var i = 0; i < rows.length; i++) {
      if ((rows[i].getAttribute("data-card") || "").toLowerCase() === String(v.card).toLowerCase()
          && !rows[i].hasAttribute("data-placement")) return rows[i];
    }
    return null;
  }

  function setTotal(counter, total) {
    counter.setAttribute("data-total", String(total));
    counter.textContent = counter.textContent.replace(/^\s*\d+/, String(total));
  }

  // The change a request makes, shown now; returns how to take it back.
  function showAtOnce(elt) {
    var v = vals(elt);
    if (["add", "remove", "set"].indexOf(v.op) < 0) return null;
    var row = rowFor(elt, v);
    var input = row ? row.querySelector(".b-count") : null;
    var section = v.section || (row && row.closest(".b-section")
      ? row.closest(".b-section").getAttribute("data-section") : null);
    var counter = section ? sectionCounter(section) : null;
    var before = input ? parseInt(input.getAttribute("data-shown") || input.defaultValue, 10) || 0 : 0;
    var after;
    if (v.op === "add") after = Math.min(MAX, before + (parseInt(v.n, 10) || 1));
    else if (v.op === "remove") after = Math.max(0, before - (parseInt(v.n, 10) || 1));
    else after = Math.max(0, Math.min(MAX, parseInt(input ? input.value : v.count, 10) || 0));
    if (!input && v.op !== "add") return null;
    var totalBefore = counter ? parseInt(counter.getAttribute("data-total"), 10) || 0 : null;
    if (input) {
      input.value = String(after);
      input.setAttribute("data-shown", String(after));
    }
    if (counter) setTotal(counter, Math.max(0, totalBefore + after - before));
    var panel = document.getElementById("builder-state");
    if (panel) panel.setAttribute("aria-busy", "true");
    return function undo(message) {
      if (input && input.isConnected) {
        input.value = String(before);
        input.setAttribute("data-shown", String(before));
      }
      if (counter && counter.isConnected) setTotal(counter, totalBefore);
      if (panel) panel.removeAttribute("aria-busy");
      var where = document.getElementById("deck-head")
        || document.querySelector("#builder-state .b-deck");
      if (where && message) {
        var note = document.getElementById("instant-error") || document.createElement("p");
        note.id = "instant-error";
        note.className = "b-error";
        note.setAttribute("role", "alert");
        note.textContent = message;
        where.insertBefore(note, where.firstChild);
      }
    };
  }

  var undos = new WeakMap();
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.closest || !elt.closest("#builder")) return;
    if (!elt.classList.contains("b-btn") && !elt.classList.contains("b-count")) return;
    var undo = showAtOnce(elt);
    if (undo) undos.set(event.detail.xhr, undo);
  });

  function refused(event, fallback) {
    var xhr = event.detail && event.detail.xhr;
    var undo = xhr && undos.get(xhr);
    if (!undo) return;
    undos.delete(xhr);
    var text = xhr && xhr.status >= 400 && xhr.responseText && xhr.responseText.length < 300
      ? xhr.responseText : fallback;
    undo("Not changed: " + text);
  }
  document.addEventListener("htmx:responseError", function (event) {
    refused(event, "the server refused the change.");
  });
  document.addEventListener("htmx:sendError", function (event) {
    refused(event, "the server could not be reached. Check your connection and try again.");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && event.detail.successful) undos.delete(xhr);
    notBusy();
  });
  // An answer carrying only what changed leaves the panel in place: it is no longer busy
  // (its source, a search result, may have left the page: the settle event says it too).
  function notBusy() {
    var panel = document.getElementById("builder-state");
    if (panel) panel.removeAttribute("aria-busy");
  }
  document.addEventListener("htmx:afterSettle", notBusy);

  // The rows whose only change is a rule mark come as one list (id -> the rule codes an
  // error names it under, or a warning): mark them as the server drew them.
  function mark(row, codes, warned) {
    row.classList.remove("involved", "involved-warning");
    if (codes) {
      row.classList.add("involved");
      row.setAttribute("data-codes", codes);
    } else {
      row.removeAttribute("data-codes");
      if (warned) row.classList.add("involved-warning");
    }
    var old = row.querySelector(".offence");
    if (old) {
      if (old.previousSibling && old.previousSibling.nodeType === 3) old.previousSibling.remove();
      old.remove();
    }
    var name = row.querySelector(".b-name");
    if (!name || (!codes && !warned)) return;
    var note = document.createElement("span");
    note.className = codes ? "offence" : "offence warning";
    note.textContent = codes ? "breaks a rule" : "see the warnings";
    name.after(document.createTextNode(" "), note);
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "row-marks") return;
    var box = document.getElementById("row-marks");
    if (!box) return;
    var marks;
    try {
      marks = JSON.parse(box.getAttribute("data-marks") || "{}");
    } catch (e) {
      return;
    }
    Object.keys(marks).forEach(function (id) {
      var row = document.getElementById(id);
      if (row) mark(row, marks[id].codes, marks[id].warned);
    });
  });
})();
