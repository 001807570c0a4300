// Small behaviours of every page, kept out of the HTML so that the Content-Security-Policy
// can forbid inline script: a confirmation before a destructive form is sent
// (data-confirm="question"), a print button (data-print) and a back link (data-back).
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
})();
