// Card preview: hovering (or focusing) any element with data-face-url shows the card's drawn
// face in a popover; on a touch screen the first tap shows it (with a link to the card page)
// and a second tap on the same name follows it. Escape or a tap elsewhere closes it. Faces
// are fetched once and kept. Works on content swapped in by htmx (events are delegated).
(function () {
  "use strict";
  var cache = new Map();
  var popover = null;
  var current = null;
  var shownFor = null;
  var touch = false;

  function box() {
    if (!popover) {
      popover = document.createElement("div");
      popover.className = "face-popover";
      popover.setAttribute("role", "dialog");
      popover.setAttribute("aria-label", "Card preview");
      popover.hidden = true;
      document.body.appendChild(popover);
    }
    return popover;
  }

  function fetchFace(url) {
    if (!cache.has(url)) {
      cache.set(url, fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error("no face");
        return r.text();
      }).catch(function (e) { cache.delete(url); throw e; }));
    }
    return cache.get(url);
  }

  function place(el) {
    var p = box();
    var r = el.getBoundingClientRect();
    var width = p.offsetWidth || 260;
    var height = p.offsetHeight || 300;
    var vw = document.documentElement.clientWidth;
    var vh = document.documentElement.clientHeight;
    var left = r.right + 8;
    if (left + width > vw - 8) left = r.left - width - 8;
    if (left < 8) left = Math.max(8, Math.min(vw - width - 8, r.left));
    var top = r.top;
    if (left === Math.max(8, Math.min(vw - width - 8, r.left))) top = r.bottom + 6;
    if (top + height > vh - 8) top = Math.max(8, vh - height - 8);
    p.style.left = (left + window.scrollX) + "px";
    p.style.top = (top + window.scrollY) + "px";
  }

  function show(el) {
    var url = el.getAttribute("data-face-url");
    if (!url) return;
    current = el;
    fetchFace(url).then(function (html) {
      if (current !== el) return;
      var p = box();
      p.innerHTML = html;
      if (touch) {
        var link = el.getAttribute("data-card-url") || (el.tagName === "A" ? el.getAttribute("href") : null);
        var face = p.querySelector(".cf-name");
        var href = link || (face && face.getAttribute("href"));
        if (href) {
          var open = document.createElement("a");
          open.className = "cf-open button secondary";
          open.href = href;
          open.textContent = "Open card page";
          p.appendChild(open);
        }
      }
      // Shown by a mouse or the keyboard, the preview is for the eye: the mouse cannot reach
      // it without leaving the name (which hides it), so a click lands on what lies under
      // it (the row's own buttons). Shown by a tap, it takes taps (its "Open card page").
      p.style.pointerEvents = touch ? "auto" : "none";
      p.hidden = false;
      shownFor = el;
      place(el);
    }).catch(function () { /* no face: no preview */ });
  }

  function hide() {
    current = null;
    shownFor = null;
    if (popover) popover.hidden = true;
  }

  function target(event) {
    return event.target && event.target.closest ? event.target.closest("[data-face-url]") : null;
  }

  document.addEventListener("pointerdown", function (event) { touch = event.pointerType === "touch"; }, true);
  document.addEventListener("touchstart", function () { touch = true; }, { capture: true, passive: true });
  document.addEventListener("mouseover", function (event) {
    if (touch) return;
    var el = target(event);
    if (el && el !== current) show(el);
  });
  document.addEventListener("mouseout", function (event) {
    if (touch) return;
    var el = target(event);
    if (el && (!event.relatedTarget || !el.contains(event.relatedTarget))) hide();
  });
  document.addEventListener("focusin", function (event) { var el = target(event); if (el) show(el); });
  document.addEventListener("focusout", function (event) { if (!touch && target(event)) hide(); });
  document.addEventListener("click", function (event) {
    var el = target(event);
    if (popover && popover.contains(event.target)) return;
    if (touch && el) {
      if (shownFor !== el) {
        event.preventDefault();  // first tap: preview; a second tap follows the link
        show(el);
      }
      return;
    }
    if (!el) hide();
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hide(); });
  window.addEventListener("resize", hide);
})();
