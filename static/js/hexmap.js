/* Hex deployment editor: click a unit of the army, then a free hex; the builder saves the
   placement (op "place") and redraws the map. An occupied hex is refused here; the rules core
   (army.deployment) refuses it too. Plain JavaScript on top of htmx, no build step. */
(function () {
  "use strict";
  var selected = null;

  function status(message) {
    var el = document.getElementById("hex-status");
    if (el) el.textContent = message;
  }

  function choose(hex) {
    if (!selected) {
      status("Click a unit of the army first.");
      return;
    }
    var where = hex.getAttribute("data-c") + "," + hex.getAttribute("data-r");
    var occupant = hex.getAttribute("data-occupant");
    if (where === selected.from) {
      status(selected.card + " is already on " + where + ".");
      return;
    }
    if (occupant) {
      status("Hex " + where + " is taken by " + occupant + ": one unit a hex.");
      hex.classList.add("refused");
      window.setTimeout(function () { hex.classList.remove("refused"); }, 900);
      return;
    }
    var svg = hex.closest("svg");
    var state = document.getElementById("builder-state");
    var base = document.getElementById("builder-base");
    var owned = document.getElementById("restrict-owned");
    var values = {
      op: "place",
      section: svg.getAttribute("data-section"),
      card: selected.card,
      from: selected.from,
      to: where,
      base: base ? base.value : ""
    };
    if (owned && owned.checked) values.owned = "1";
    status("Placing " + selected.card + " on " + where + "…");
    selected = null;
    window.htmx.ajax("POST", state.getAttribute("data-change-url"), {
      source: svg, target: "#builder-state", swap: "outerHTML", values: values
    });
  }

  document.addEventListener("click", function (event) {
    var unit = event.target.closest("[data-hex-unit]");
    if (unit) {
      document.querySelectorAll("[data-hex-unit].selected").forEach(function (b) {
        b.classList.remove("selected");
      });
      unit.classList.add("selected");
      selected = { card: unit.getAttribute("data-card"), from: unit.getAttribute("data-from") || "" };
      status(selected.card + ": now click a free hex.");
      return;
    }
    var hex = event.target.closest(".hexmap .hex");
    if (hex) choose(hex);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var hex = event.target.closest && event.target.closest(".hexmap .hex");
    if (hex) {
      event.preventDefault();
      choose(hex);
    }
  });
})();
