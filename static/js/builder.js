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
