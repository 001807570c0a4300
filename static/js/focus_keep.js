// Focus stays where the keyboard was when htmx swaps part of the page: a "+" pressed in a
// row of the deck list keeps the focus on that row's "+" after the server's answer replaced
// the row (or the whole panel, or only the row and the totals out of band). Without this,
// the focused control is removed with the old markup and the focus falls to the page body.
//
// Before a swap the focused control is remembered by what survives a re-render: its id, or
// else the id of its nearest ancestor that has one, the row it sits in ([data-card], with
// [data-placement] and the section's [data-section]), and its own name (aria-label, name, text).
// After the swap, when the focus is on the body (or on a removed node), the same control is
// focused again; when its row went away (a count down to 0), the same control of the row now
// in its place (or of the list's last row), else the first control of its list (the
// section, the search results), else the quick-add box.
(function () {
  "use strict";
  var ROW = "[data-card]";
  var CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, " +
    "[tabindex]:not([tabindex='-1'])";
  var saved = null;

  function nameOf(el) {
    return el.getAttribute("aria-label") || el.getAttribute("name") ||
      (el.textContent || "").trim().slice(0, 80);
  }

  function kindOf(el) {
    return el.tagName + "." + Array.prototype.slice.call(el.classList).sort().join(".");
  }

  function rowKey(row) {
    if (!row) return null;
    var section = row.closest("[data-section]");
    return {
      card: row.getAttribute("data-card"),
      placement: row.getAttribute("data-placement") || "",
      section: section ? section.getAttribute("data-section") : "",
      tag: row.tagName
    };
  }

  function sameRow(row, key) {
    if (!row || !key || row.tagName !== key.tag) return false;
    var section = row.closest("[data-section]");
    return row.getAttribute("data-card") === key.card &&
      (row.getAttribute("data-placement") || "") === key.placement &&
      (section ? section.getAttribute("data-section") : "") === key.section;
  }

  function controls(scope) {
    return Array.prototype.filter.call(scope.querySelectorAll(CONTROLS), function (el) {
      return !el.disabled && el.getClientRects().length > 0;
    });
  }

  function remember(keep) {
    var el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) {
      if (!keep) saved = null;
      return;
    }
    var scope = el.parentElement ? el.parentElement.closest("[id]") : null;
    var row = el.closest(ROW);
    var info = {
      el: el,
      id: el.id || null,
      scope: scope ? scope.id : null,
      row: rowKey(row),
      name: nameOf(el),
      kind: kindOf(el),
      list: null,
      rowIndex: -1,
      rowControl: 0
    };
    if (row) {
      // The list the row is in: its nearest ancestor with an id (a section, the results).
      var list = row.parentElement ? row.parentElement.closest("[id]") : null;
      info.list = list ? list.id : null;
      var rows = Array.prototype.slice.call((list || document).querySelectorAll(ROW));
      info.rowIndex = rows.indexOf(row);
      info.rowControl = controls(row).indexOf(el);
    }
    if (typeof el.selectionStart === "number") {
      try { info.selection = [el.selectionStart, el.selectionEnd]; } catch (e) { /* number inputs */ }
    }
    saved = info;
  }

  function lost() {
    var el = document.activeElement;
    return !el || el === document.body || el === document.documentElement ||
      !el.isConnected || (saved && saved.el === el && !saved.el.isConnected);
  }

  function find(info) {
    if (info.id) {
      var byId = document.getElementById(info.id);
      if (byId) return byId;
    }
    var scope = (info.scope && document.getElementById(info.scope)) || document;
    var candidates = Array.prototype.filter.call(scope.querySelectorAll(CONTROLS), function (el) {
      return kindOf(el) === info.kind;
    });
    var i, el;
    for (i = 0; i < candidates.length; i++) {
      el = candidates[i];
      if (nameOf(el) === info.name && (!info.row || sameRow(el.closest(ROW), info.row))) return el;
    }
    if (!info.row) return null;
    var list = (info.list && document.getElementById(info.list)) || document;
    // The row is there under another name of the control (its count changed the label).
    var rows = Array.prototype.filter.call(list.querySelectorAll(ROW), function (r) {
      return sameRow(r, info.row);
    });
    if (rows.length) {
      var own = controls(rows[0]);
      return own[Math.max(0, Math.min(info.rowControl, own.length - 1))] || null;
    }
    // The row went away: the same control of the row now in its place (or the last row),
    // else the first control left in the same part of the page.
    var left = Array.prototype.slice.call(list.querySelectorAll(ROW));
    var near = left[Math.min(info.rowIndex, left.length - 1)];
    if (near) {
      var theirs = controls(near);
      var pick = theirs[Math.max(0, Math.min(info.rowControl, theirs.length - 1))];
      if (pick) return pick;
    }
    return list !== document ? controls(list)[0] || null : null;
  }

  function restore() {
    var info = saved;
    if (!info || !lost()) return;
    var el = find(info) || document.getElementById("quick-add");
    if (!el) return;
    el.focus({ preventScroll: true });
    if (el === document.activeElement && info.selection && el.setSelectionRange) {
      try { el.setSelectionRange(info.selection[0], info.selection[1]); } catch (e) { /* n/a */ }
    }
  }

  // Remembered when the answer arrives (the focus may have moved since the request left);
  // each out-of-band swap remembers again while the focus is still on a control (an earlier
  // swap of the same answer may have taken it away: then the first memory stands).
  document.addEventListener("htmx:beforeSwap", function () { remember(false); });
  document.addEventListener("htmx:oobBeforeSwap", function () { remember(true); });
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSettle", function () {
    restore();
    if (!lost()) saved = null;
  });
})();
