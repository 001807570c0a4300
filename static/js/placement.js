/* Placement editor: click a unit of the section, then a free cell of its area (drawn by the
   game's grid, its cells named by the map's data-noun); the builder saves the placement
   (op "place") and redraws the map. An occupied cell is refused here; the rules core refuses
   it too. Plain JavaScript on top of htmx, no build step. */
(function () {
  "use strict";
  var selected = null;

  function status(message) {
    var el = document.getElementById("placement-status");
    if (el) el.textContent = message;
  }

  function noun(el) {
    var map = el && el.closest ? el.closest(".placement-map") : null;
    if (!map) map = document.querySelector(".placement-map");
    return (map && map.getAttribute("data-noun")) || "cell";
  }

  function capitalised(word) {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }

  function choose(cell) {
    if (!selected) {
      status("Click a unit first.");
      return;
    }
    var where = cell.getAttribute("data-c") + "," + cell.getAttribute("data-r");
    var occupant = cell.getAttribute("data-occupant");
    if (where === selected.from) {
      status(selected.card + " is already on " + where + ".");
      return;
    }
    if (occupant) {
      var word = noun(cell);
      status(capitalised(word) + " " + where + " is taken by " + occupant + ": one unit a " + word + ".");
      cell.classList.add("refused");
      window.setTimeout(function () { cell.classList.remove("refused"); }, 900);
      return;
    }
    var svg = cell.closest("svg");
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
    var unit = event.target.closest("[data-placement-unit]");
    if (unit) {
      document.querySelectorAll("[data-placement-unit].selected").forEach(function (b) {
        b.classList.remove("selected");
      });
      unit.classList.add("selected");
      selected = { card: unit.getAttribute("data-card"), from: unit.getAttribute("data-from") || "" };
      status(selected.card + ": now click a free " + noun(null) + ".");
      return;
    }
    var cell = event.target.closest(".placement-map .cell");
    if (cell) choose(cell);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var cell = event.target.closest && event.target.closest(".placement-map .cell");
    if (cell) {
      event.preventDefault();
      choose(cell);
    }
  });
})();
