// Copy buttons of a deck's "To the table" panel: copy the textarea they name, say so.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var box = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentElement.querySelector(".copied");
    if (!box) return;
    function said(text) { if (status) status.textContent = text; }
    function fallback() {
      box.focus();
      box.select();
      try {
        said(document.execCommand("copy") ? "Copied." : "Selected: copy it with your keyboard.");
      } catch (e) {
        said("Selected: copy it with your keyboard.");
      }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(box.value).then(function () { said("Copied."); }, fallback);
    } else {
      fallback();
    }
  });
})();
