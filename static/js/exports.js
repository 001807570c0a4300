// Copy buttons (a deck's "To the table" panel, a new API token): copy what the box they
// name holds (a text area's value, else its text), say so.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var box = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentElement.querySelector(".copied");
    if (!box) return;
    var text = "value" in box ? box.value : box.textContent;
    function said(words) { if (status) status.textContent = words; }
    function fallback() {
      box.focus();
      if ("select" in box) {
        box.select();
      } else {
        var range = document.createRange();
        range.selectNodeContents(box);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      try {
        said(document.execCommand("copy") ? "Copied." : "Selected: copy it with your keyboard.");
      } catch (e) {
        said("Selected: copy it with your keyboard.");
      }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { said("Copied."); }, fallback);
    } else {
      fallback();
    }
  });
})();
