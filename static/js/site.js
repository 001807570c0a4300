// Small behaviours of every page, kept out of the HTML so that the Content-Security-Policy
// can forbid inline script: a confirmation before a destructive form is sent
// (data-confirm="question"), a print button (data-print), a back link (data-back), and a
// form field shown only for the game formats it applies to (data-points-formats: the
// "game/format" values of the form's game_format choice that take it), a tool's
// parameter shown only while it applies (data-applies), and a page that tries again by
// itself after a count down the reader can stop (data-retry-after: seconds).
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);
  document.addEventListener("click", function (event) {
    var el = event.target && event.target.closest && event.target.closest("[data-print], [data-back]");
    if (!el) return;
    event.preventDefault();
    if (el.hasAttribute("data-print")) window.print();
    else window.history.back();
  });
  function showPointsFields() {
    document.querySelectorAll("[data-points-formats]").forEach(function (field) {
      var form = field.closest("form");
      var choice = form && form.querySelector("[name=game_format]");
      if (!choice) return;
      var formats = field.getAttribute("data-points-formats").split(" ");
      field.hidden = formats.indexOf(choice.value) < 0;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "game_format") showPointsFields();
  });
  // A tool's parameter that applies to some values of another (data-applies: {"attack":
  // ["firepower"]}) is shown, and sent, only while the other has one of them. Run in the
  // capture phase, before the form's own change handler sends it.
  function showApplyingFields(form) {
    form.querySelectorAll("[data-applies]").forEach(function (field) {
      var wanted = JSON.parse(field.getAttribute("data-applies"));
      var on = Object.keys(wanted).every(function (name) {
        var control = form.elements[name];
        return control && wanted[name].indexOf(control.value) >= 0;
      });
      field.hidden = !on;
      field.querySelectorAll("input, select, textarea").forEach(function (input) {
        input.disabled = !on;
      });
    });
  }
  document.addEventListener("change", function (event) {
    var form = event.target && event.target.form;
    if (form && form.querySelector("[data-applies]")) showApplyingFields(form);
  }, true);
  // The main navigation folds behind a Menu button on a phone (CSS decides when), and the
  // secondary filters of a search form start folded there.
  function collapsibles() {
    var nav = document.querySelector("header.site nav");
    var toggle = nav && nav.querySelector(".menu-toggle");
    if (toggle) {
      toggle.hidden = false;
      nav.classList.add("collapsible");
      toggle.addEventListener("click", function () {
        var open = nav.classList.toggle("open");
        toggle.setAttribute("aria-expanded", open ? "true" : "false");
      });
    }
    if (window.matchMedia && window.matchMedia("(max-width: 640px)").matches) {
      document.querySelectorAll("details.filters-more[open]").forEach(function (d) {
        d.open = false;
      });
    }
  }
  // The page shown while the site is unavailable reloads itself after data-retry-after
  // seconds, counting down, unless the reader stops it (a page may not refresh itself on a
  // timer the reader cannot turn off); "Try again now" reloads it at once.
  function retryCountdown() {
    var note = document.querySelector("[data-retry-after]");
    if (!note) return;
    var left = parseInt(note.getAttribute("data-retry-after"), 10) || 5;
    var count = note.querySelector("[data-retry-count]");
    note.hidden = false;
    var timer = window.setInterval(function () {
      left -= 1;
      if (left > 0) { count.textContent = String(left); return; }
      window.clearInterval(timer);
      window.location.reload();
    }, 1000);
    note.querySelector("[data-retry-stop]").addEventListener("click", function () {
      window.clearInterval(timer);
      note.textContent = "This page will not try again by itself.";
      var now = document.querySelector("[data-retry-now]");
      if (now) now.focus();
    });
  }
  function ready() { showPointsFields(); collapsibles(); retryCountdown(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
