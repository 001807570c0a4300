// "Check a list" and "Import a deck": a suggestion under an unknown card replaces the name
// on its line of the list and sends the form again (one click): the check page's form, or
// the form the button names (`data-form`). Event delegation: the result is swapped in.
(function () {
  "use strict";

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  function replaceOnLine(text, lineNumber, written, card) {
    var lines = text.split("\n");
    var i = lineNumber - 1;
    if (i < 0 || i >= lines.length) return null;
    // The name as read: its words, any spacing between them, any case.
    var words = written.trim().split(/\s+/).map(escapeRegExp).join("\\s+");
    var pattern = new RegExp("(^\\s*\\d+\\s*[xX]?\\s*(?:[xX]\\s+)?)" + words, "i");
    var line = lines[i];
    var fixed = line.replace(pattern, function (_match, count) {
      return count + card;
    });
    if (fixed === line) {
      var at = line.toLowerCase().indexOf(written.toLowerCase());
      if (at < 0) return null;
      fixed = line.slice(0, at) + card + line.slice(at + written.length);
    }
    lines[i] = fixed;
    return { text: lines.join("\n"), line: i, column: fixed.indexOf(card), length: card.length };
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.fix");
    if (!button) return;
    var form = document.getElementById(button.dataset.form || "check-form");
    var area = form && form.querySelector("textarea[name=list]");
    if (!area) return;
    var result = replaceOnLine(
      area.value,
      parseInt(button.dataset.line, 10),
      button.dataset.name,
      button.dataset.card
    );
    if (!result) return;
    area.value = result.text;
    var start = result.text.split("\n").slice(0, result.line).join("\n").length;
    start += result.line ? 1 : 0;
    area.focus();
    area.setSelectionRange(start + result.column, start + result.column + result.length);
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  });
})();
